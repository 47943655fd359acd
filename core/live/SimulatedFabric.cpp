#include "SimulatedFabric.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QThread>

#include <csignal>

namespace weft {

namespace {

constexpr int kPollMs = 50;

// Reads a file that another process is appending to; empty if it does not exist yet.
QByteArray readFrom(const QString &path, qint64 offset)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    if (offset > 0 && !f.seek(offset))
        return {};
    return f.readAll();
}

// ibsim's limits must hold the whole fabric: count its nodes and ports from the net file.
struct NetFileSize
{
    int nodes = 0;
    int switches = 0;
    int ports = 0;
};

NetFileSize measureNetFile(const QString &path)
{
    NetFileSize size;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return size;
    while (!f.atEnd()) {
        const QByteArray line = f.readLine().trimmed();
        const bool isSwitch = line.startsWith("Switch");
        if (isSwitch || line.startsWith("Ca") || line.startsWith("Hca") || line.startsWith("Rt")) {
            const QList<QByteArray> parts = line.simplified().split(' ');
            const int ports = parts.size() > 1 ? parts[1].toInt() : 0;
            ++size.nodes;
            size.switches += isSwitch;
            size.ports += ports + 1;
        }
    }
    return size;
}

void stopProcess(QProcess *process)
{
    if (!process || process->state() == QProcess::NotRunning)
        return;
    process->terminate();
    if (!process->waitForFinished(5000)) {
        process->kill();
        process->waitForFinished(2000);
    }
}

}  // namespace

SimulatedFabric::SimulatedFabric(Options options) : m_options(std::move(options)) {}

SimulatedFabric::~SimulatedFabric()
{
    stop();
}

QString SimulatedFabric::weftOsmPluginDirectory()
{
    const QString besideBuild = QCoreApplication::applicationDirPath() + QStringLiteral("/routing");
    if (QFileInfo::exists(besideBuild + QStringLiteral("/libweftosm.so")))
        return besideBuild;
    const QString parentBuild = QCoreApplication::applicationDirPath() + QStringLiteral("/../routing");
    if (QFileInfo::exists(parentBuild + QStringLiteral("/libweftosm.so")))
        return QDir(parentBuild).canonicalPath();
    return {};
}

QString SimulatedFabric::umad2simLibrary()
{
    const QStringList candidates = {
        QStringLiteral("/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so"),
        QStringLiteral("/usr/lib/aarch64-linux-gnu/umad2sim/libumad2sim.so"),
        QStringLiteral("/usr/lib64/umad2sim/libumad2sim.so"),
        QStringLiteral("/usr/lib/umad2sim/libumad2sim.so"),
    };
    for (const QString &c : candidates)
        if (QFileInfo::exists(c))
            return c;
    return {};
}

QString SimulatedFabric::missingTools()
{
    QStringList missing;
    for (const char *tool : {"ibsim", "opensm"})
        if (QStandardPaths::findExecutable(QLatin1String(tool)).isEmpty()
            && QStandardPaths::findExecutable(QLatin1String(tool), {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")}).isEmpty())
            missing << QLatin1String(tool);
    if (umad2simLibrary().isEmpty())
        missing << QStringLiteral("libumad2sim.so (package libumad2sim0)");
    return missing.join(QStringLiteral(", "));
}

static QString findTool(const QString &name)
{
    QString path = QStandardPaths::findExecutable(name);
    if (path.isEmpty())
        path = QStandardPaths::findExecutable(name, {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")});
    return path;
}

Status SimulatedFabric::start()
{
    if (isRunning())
        return Error{{}, 0, QStringLiteral("the simulated fabric is already running")};
    if (const QString missing = missingTools(); !missing.isEmpty())
        return Error{{}, 0, QStringLiteral("cannot simulate a fabric: not installed: %1").arg(missing)};
    if (!QFileInfo::exists(m_options.netFile))
        return Error{m_options.netFile, 0, QStringLiteral("net file does not exist")};

    if (m_options.workDir.isEmpty()) {
        m_tempDir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/weft-lab-XXXXXX"));
        if (!m_tempDir->isValid())
            return Error{{}, 0, QStringLiteral("cannot create a working directory: %1").arg(m_tempDir->errorString())};
        m_workDir = m_tempDir->path();
    } else {
        m_workDir = m_options.workDir;
        if (!QDir().mkpath(m_workDir))
            return Error{m_workDir, 0, QStringLiteral("cannot create the working directory")};
    }
    // Unique per process and per fabric, so that simulated fabrics can run side by side.
    m_socketName = QStringLiteral("weft-%1-%2").arg(QCoreApplication::applicationPid()).arg(QFileInfo(m_workDir).fileName());

    if (Status s = startIbsim(); !s) {
        stop();
        return s;
    }
    if (m_options.startOpenSm) {
        if (Status s = startOpenSm(); !s) {
            stop();
            return s;
        }
    }
    return Done{};
}

Status SimulatedFabric::startIbsim()
{
    const NetFileSize size = measureNetFile(m_options.netFile);
    const QString netCopy = m_workDir + QStringLiteral("/fabric.net");
    QFile::remove(netCopy);
    if (!QFile::copy(m_options.netFile, netCopy))
        return Error{m_options.netFile, 0, QStringLiteral("cannot copy the net file into %1").arg(m_workDir)};

    m_ibsim = std::make_unique<QProcess>();
    m_ibsim->setWorkingDirectory(m_workDir);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("IBSIM_SOCKNAME"), m_socketName);
    m_ibsim->setProcessEnvironment(env);
    // Appending (O_APPEND), so that the console log can be cut short while ibsim runs: a lab
    // driving traffic sends thousands of console commands a minute, each echoed here.
    m_ibsim->setStandardOutputFile(m_workDir + QStringLiteral("/ibsim.out"), QIODevice::Append);
    m_ibsim->setStandardErrorFile(m_workDir + QStringLiteral("/ibsim.out"), QIODevice::Append);
    const QStringList args = {
        QStringLiteral("-s"),
        QStringLiteral("-N"), QString::number(std::max(2048, size.nodes + 64)),
        QStringLiteral("-S"), QString::number(std::max(256, size.switches + 16)),
        QStringLiteral("-P"), QString::number(std::max(13312, size.ports + 1024)),
        QStringLiteral("-L"), QString::number(49152),
        QStringLiteral("fabric.net"),
    };
    m_ibsim->start(findTool(QStringLiteral("ibsim")), args);
    if (!m_ibsim->waitForStarted(10000))
        return Error{{}, 0, QStringLiteral("cannot start ibsim: %1").arg(m_ibsim->errorString())};

    const QString out = m_workDir + QStringLiteral("/ibsim.out");
    QDeadlineTimer deadline(120000);
    while (!deadline.hasExpired()) {
        const QByteArray text = readFrom(out, 0);
        if (text.contains("Network simulator ready"))
            return Done{};
        if (m_ibsim->state() == QProcess::NotRunning) {
            return Error{m_options.netFile, 0, QStringLiteral("ibsim refused the net file: %1")
                                                   .arg(QString::fromUtf8(text.right(600)).trimmed())};
        }
        QThread::msleep(kPollMs);
    }
    return Error{{}, 0, QStringLiteral("ibsim did not become ready within 120 s")};
}

Status SimulatedFabric::startOpenSm()
{
    QStringList args;
    if (!m_options.partitionsConf.isEmpty())
        args << QStringLiteral("-P") << m_options.partitionsConf;
    args << m_options.openSmArgs;
    m_openSm = std::make_unique<QProcess>();
    return launchOpenSm(*m_openSm, m_workDir, m_options.smNode, m_options.openSmConfig, args, "SUBNET UP");
}

Status SimulatedFabric::startStandbyOpenSm(const QString &node, const QByteArray &config, const QStringList &args, const QString &name)
{
    if (!m_openSm)
        return Error{{}, 0, QStringLiteral("a standby needs a master: start the first OpenSM first")};
    if (m_standbys.count(name))
        return Error{{}, 0, QStringLiteral("a standby named %1 runs already").arg(name)};
    const QString dir = m_workDir + QLatin1Char('/') + name;
    if (!QDir().mkpath(dir))
        return Error{dir, 0, QStringLiteral("cannot create the standby's directory")};
    QStringList all;
    if (!m_options.partitionsConf.isEmpty() && !args.contains(QStringLiteral("-P")))
        all << QStringLiteral("-P") << m_options.partitionsConf;
    all << args;
    auto &process = m_standbys[name];
    process = std::make_unique<QProcess>();
    return launchOpenSm(*process, dir, node, m_options.openSmConfig + "\n" + config, all, "Entering STANDBY state");
}

Status SimulatedFabric::launchOpenSm(QProcess &process, const QString &dir, const QString &node, const QByteArray &config,
                                     const QStringList &extraArgs, const QByteArray &ready)
{
    const QString configFile = dir + QStringLiteral("/opensm.conf");
    const QString log = dir + QStringLiteral("/opensm.log");
    {
        QFile f(configFile);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return Error{configFile, 0, QStringLiteral("cannot write: %1").arg(f.errorString())};
        // The log is read while OpenSM runs, so it must not sit in a buffer.
        f.write("force_log_flush TRUE\n");
        f.write("dump_files_dir " + dir.toUtf8() + "\n");
        f.write(config);
        if (!f.flush())
            return Error{configFile, 0, QStringLiteral("cannot write: %1").arg(f.errorString())};
    }
    QStringList args = {
        QStringLiteral("-F"),
        configFile,
        QStringLiteral("-f"),
        log,
        QStringLiteral("-e"),
    };
    args << extraArgs;

    process.setWorkingDirectory(dir);
    QProcessEnvironment env = clientEnvironment();
    if (!node.isEmpty())
        env.insert(QStringLiteral("SIM_HOST"), node);
    env.insert(QStringLiteral("OSM_CACHE_DIR"), dir);
    env.insert(QStringLiteral("OSM_TMP_DIR"), dir);
    for (const QString &setting : m_options.openSmEnvironment) {
        const qsizetype equals = setting.indexOf(QLatin1Char('='));
        if (equals > 0)
            env.insert(setting.left(equals), setting.mid(equals + 1));
    }
    process.setProcessEnvironment(env);
    process.setStandardOutputFile(dir + QStringLiteral("/opensm.out"));
    process.setStandardErrorFile(dir + QStringLiteral("/opensm.out"), QIODevice::Append);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(findTool(QStringLiteral("opensm")), args);
    if (!process.waitForStarted(10000))
        return Error{{}, 0, QStringLiteral("cannot start OpenSM: %1").arg(process.errorString())};

    QDeadlineTimer deadline(m_options.startTimeoutMs);
    while (!deadline.hasExpired()) {
        if (readFrom(log, 0).contains(ready))
            return Done{};
        if (process.state() == QProcess::NotRunning) {
            const QByteArray out = readFrom(dir + QStringLiteral("/opensm.out"), 0);
            return Error{{}, 0, QStringLiteral("OpenSM exited before its log said \"%1\": %2").arg(QString::fromUtf8(ready), QString::fromUtf8(out.right(600)).trimmed())};
        }
        QThread::msleep(kPollMs);
    }
    return Error{{}, 0, QStringLiteral("OpenSM's log did not say \"%1\" within %2 s").arg(QString::fromUtf8(ready)).arg(m_options.startTimeoutMs / 1000)};
}

QString SimulatedFabric::standbyLogPath(const QString &name) const
{
    return m_workDir + QLatin1Char('/') + name + QStringLiteral("/opensm.log");
}

qint64 SimulatedFabric::standbyPid(const QString &name) const
{
    const auto it = m_standbys.find(name);
    return it != m_standbys.end() && it->second ? it->second->processId() : 0;
}

void SimulatedFabric::killOpenSm()
{
    if (m_openSm && m_openSm->state() != QProcess::NotRunning) {
        m_openSm->kill();
        m_openSm->waitForFinished(5000);
    }
}

Status SimulatedFabric::restartOpenSm()
{
    killOpenSm();
    return startOpenSm();
}

void SimulatedFabric::stop()
{
    for (auto &[name, process] : m_standbys)
        stopProcess(process.get());
    m_standbys.clear();
    stopProcess(m_openSm.get());
    m_openSm.reset();
    if (m_ibsim && m_ibsim->state() != QProcess::NotRunning) {
        m_ibsim->write("quit\n");
        m_ibsim->waitForBytesWritten(1000);
        if (!m_ibsim->waitForFinished(2000))
            stopProcess(m_ibsim.get());
    }
    m_ibsim.reset();
    m_tempDir.reset();
}

bool SimulatedFabric::isRunning() const
{
    return m_ibsim && m_ibsim->state() != QProcess::NotRunning;
}

QString SimulatedFabric::openSmLogPath() const
{
    return m_workDir + QStringLiteral("/opensm.log");
}

qint64 SimulatedFabric::openSmPid() const
{
    return m_openSm ? m_openSm->processId() : 0;
}

qint64 SimulatedFabric::ibsimPid() const
{
    return m_ibsim ? m_ibsim->processId() : 0;
}

QProcessEnvironment SimulatedFabric::clientEnvironment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString preload = env.value(QStringLiteral("LD_PRELOAD"));
    env.insert(QStringLiteral("LD_PRELOAD"), preload.isEmpty() ? umad2simLibrary() : umad2simLibrary() + QLatin1Char(':') + preload);
    env.insert(QStringLiteral("IBSIM_SOCKNAME"), m_socketName);
    if (!m_options.smNode.isEmpty())
        env.insert(QStringLiteral("SIM_HOST"), m_options.smNode);
    return env;
}

Result<SimulatedFabric::ClientResult> SimulatedFabric::runClient(const QString &program, const QStringList &args,
                                                                 int timeoutMs, const QString &node) const
{
    if (!isRunning())
        return Error{{}, 0, QStringLiteral("the simulated fabric is not running")};
    const QString tool = findTool(program);
    if (tool.isEmpty())
        return Error{{}, 0, QStringLiteral("%1 is not installed").arg(program)};
    QProcess process;
    process.setWorkingDirectory(m_workDir);
    QProcessEnvironment env = clientEnvironment();
    if (!node.isEmpty())
        env.insert(QStringLiteral("SIM_HOST"), node);
    process.setProcessEnvironment(env);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(tool, args);
    if (!process.waitForStarted(10000))
        return Error{{}, 0, QStringLiteral("cannot start %1: %2").arg(program, process.errorString())};
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(2000);
        return Error{{}, 0, QStringLiteral("%1 did not finish within %2 s").arg(program).arg(timeoutMs / 1000)};
    }
    ClientResult result;
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

qint64 SimulatedFabric::openSmLogSize() const
{
    return QFileInfo(openSmLogPath()).size();
}

Status SimulatedFabric::waitForOpenSmLog(const QString &text, int timeoutMs, qint64 fromOffset) const
{
    return waitForLog(openSmLogPath(), m_openSm.get(), text, timeoutMs, fromOffset);
}

Status SimulatedFabric::waitForStandbyLog(const QString &text, int timeoutMs, qint64 fromOffset, const QString &name) const
{
    const auto it = m_standbys.find(name);
    return waitForLog(standbyLogPath(name), it != m_standbys.end() ? it->second.get() : nullptr, text, timeoutMs, fromOffset);
}

Status SimulatedFabric::waitForLog(const QString &path, const QProcess *process, const QString &text, int timeoutMs, qint64 fromOffset)
{
    const QByteArray needle = text.toUtf8();
    QDeadlineTimer deadline(timeoutMs);
    do {
        if (readFrom(path, fromOffset).contains(needle))
            return Done{};
        if (!process || process->state() == QProcess::NotRunning)
            return Error{{}, 0, QStringLiteral("OpenSM is not running (waiting for \"%1\")").arg(text)};
        QThread::msleep(kPollMs);
    } while (!deadline.hasExpired());
    return Error{{}, 0, QStringLiteral("OpenSM's log did not show \"%1\" within %2 s").arg(text).arg(timeoutMs / 1000)};
}

Status SimulatedFabric::simulatorCommand(const QString &command)
{
    if (!isRunning())
        return Error{{}, 0, QStringLiteral("the simulated fabric is not running")};
    m_ibsim->write(command.toUtf8() + '\n');
    if (!m_ibsim->waitForBytesWritten(5000))
        return Error{{}, 0, QStringLiteral("ibsim did not take the command \"%1\"").arg(command)};
    return Done{};
}

namespace {
constexpr qint64 kConsoleLogLimit = 8 << 20;  // ibsim.out is cut back to empty past 8 MB
}

Status SimulatedFabric::simulatorCommands(const QStringList &commands, int timeoutMs)
{
    if (!isRunning())
        return Error{{}, 0, QStringLiteral("the simulated fabric is not running")};
    // ibsim echoes a console line that starts with '#', after running every line before it.
    const QString out = m_workDir + QStringLiteral("/ibsim.out");
    const qint64 from = QFileInfo(out).size();
    const QByteArray marker = "# weft-batch-" + QByteArray::number(++m_consoleBatches) + "-end";
    QByteArray batch;
    for (const QString &c : commands)
        batch += c.toUtf8() + '\n';
    batch += marker + '\n';
    m_ibsim->write(batch);
    QDeadlineTimer deadline(timeoutMs);
    while (m_ibsim->bytesToWrite() > 0 && !deadline.hasExpired())
        m_ibsim->waitForBytesWritten(100);
    do {
        const QByteArray replies = readFrom(out, from);
        if (replies.contains(marker)) {
            // Refusals are the lines ibsim starts with "# " itself, after its prompt.
            for (const QByteArray &line : replies.split('\n'))
                if (const int at = line.indexOf("sim> # "); at >= 0 && !line.contains("# weft-batch-"))
                    return Error{{}, 0, QStringLiteral("ibsim refused a command: %1").arg(QString::fromUtf8(line.mid(at + 7)))};
            if (from + replies.size() > kConsoleLogLimit)  // read; nothing waits for these lines
                QFile::resize(out, 0);
            return Done{};
        }
        if (!isRunning())
            return Error{{}, 0, QStringLiteral("ibsim exited while running console commands")};
        QThread::msleep(5);
    } while (!deadline.hasExpired());
    return Error{{}, 0, QStringLiteral("ibsim did not run %1 console commands within %2 s").arg(commands.size()).arg(timeoutMs / 1000)};
}

}  // namespace weft
