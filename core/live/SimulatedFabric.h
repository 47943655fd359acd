#pragma once
// A simulated subnet: ibsim on a net file plus, optionally, the real OpenSM, each in a private
// working directory with its own IBSIM_SOCKNAME so that several can run side by side. Clients
// (ibnetdiscover, dump_lfts, smpquery, Weft's own discovery) run with libumad2sim preloaded
// and talk to it as to hardware. Used by `weft lab` and by the integration tests.

#include "Result.h"

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <map>
#include <memory>

namespace weft {

class SimulatedFabric
{
public:
    struct Options
    {
        QString netFile;             // ibsim net file; ibnetdiscover output works too
        QString smNode;              // node id the SM and clients attach to (SIM_HOST); empty: the
                                     // node of the first port in the file, as ibsim does
        bool startOpenSm = true;
        QStringList openSmArgs;      // extra arguments, e.g. {"-R", "file", "-U", lfts}
        QString partitionsConf;      // passed with -P; empty: OpenSM's default partitioning
        int startTimeoutMs = 180000; // until OpenSM says SUBNET UP
        QString workDir;             // empty: a fresh temporary directory, removed on stop
        QByteArray openSmConfig;     // more lines for OpenSM's options file (e.g. event_plugin_name)
        QStringList openSmEnvironment;  // NAME=VALUE set for OpenSM alone (e.g. LD_LIBRARY_PATH)
    };

    struct ClientResult
    {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };

    explicit SimulatedFabric(Options options);
    ~SimulatedFabric();
    SimulatedFabric(const SimulatedFabric &) = delete;
    SimulatedFabric &operator=(const SimulatedFabric &) = delete;

    // Empty if ibsim, OpenSM and libumad2sim are installed; otherwise what is missing.
    static QString missingTools();
    static QString umad2simLibrary();
    // Where libweftosm.so (Weft's engine inside OpenSM) is, for OpenSM's LD_LIBRARY_PATH: beside
    // the running weft in a build tree (build/routing); empty when it is installed where the
    // dynamic linker finds it by name (the package's /usr/lib/<multiarch>).
    static QString weftOsmPluginDirectory();

    // Starts ibsim, then OpenSM (if asked), and waits until OpenSM reports SUBNET UP.
    Status start();
    void stop();
    bool isRunning() const;

    QString workDir() const { return m_workDir; }
    QString socketName() const { return m_socketName; }
    QString openSmLogPath() const;
    qint64 openSmPid() const;
    qint64 ibsimPid() const;

    // The environment a client needs: LD_PRELOAD=libumad2sim, IBSIM_SOCKNAME, SIM_HOST.
    QProcessEnvironment clientEnvironment() const;

    // Runs a client to completion in the working directory, on the SM's adapter or on `node`'s.
    Result<ClientResult> runClient(const QString &program, const QStringList &args,
                                   int timeoutMs = 120000, const QString &node = {}) const;

    // Waits until OpenSM's log, read from byte `fromOffset` on, contains `text`.
    Status waitForOpenSmLog(const QString &text, int timeoutMs, qint64 fromOffset = 0) const;
    qint64 openSmLogSize() const;

    // Another OpenSM, on adapter `node` (SIM_HOST), in `name/` of the working directory, with the
    // options file of the first plus `config` (e.g. its sm_priority; a later line overrides an
    // earlier one, as OpenSM reads them) and the same -P file unless `args` give one: it finds
    // the master and stays standby. Waits until its log says so. Several run side by side under
    // different names (a third, rogue SM).
    Status startStandbyOpenSm(const QString &node, const QByteArray &config, const QStringList &args = {},
                              const QString &name = QStringLiteral("standby"));
    QString standbyLogPath(const QString &name = QStringLiteral("standby")) const;
    qint64 standbyPid(const QString &name = QStringLiteral("standby")) const;
    // Waits until the standby's log, from byte `fromOffset` on, contains `text`.
    Status waitForStandbyLog(const QString &text, int timeoutMs, qint64 fromOffset = 0,
                             const QString &name = QStringLiteral("standby")) const;
    // The first OpenSM dies at once (SIGKILL), as in a crash; the standby, if any, takes over.
    void killOpenSm();
    // The first OpenSM killed and started again with the same options and files, as a supervisor
    // restarts it (a new pid, its log started afresh); waits until the new one reports SUBNET UP.
    Status restartOpenSm();

    // Sends one console command to ibsim (e.g. `Unlink "S-..."[3]`).
    Status simulatorCommand(const QString &command);
    // Sends a batch of console commands and waits until ibsim has run them all (a `#` line it
    // echoes marks the end); the first command ibsim refused is the error.
    Status simulatorCommands(const QStringList &commands, int timeoutMs = 30000);

private:
    Status startIbsim();
    Status startOpenSm();
    // One OpenSM in `dir`, attached to `node`, until its log shows `ready`.
    Status launchOpenSm(QProcess &process, const QString &dir, const QString &node, const QByteArray &config,
                        const QStringList &args, const QByteArray &ready);
    static Status waitForLog(const QString &path, const QProcess *process, const QString &text, int timeoutMs, qint64 fromOffset);

    Options m_options;
    std::unique_ptr<QTemporaryDir> m_tempDir;
    QString m_workDir;
    QString m_socketName;
    std::unique_ptr<QProcess> m_ibsim;
    std::unique_ptr<QProcess> m_openSm;
    std::map<QString, std::unique_ptr<QProcess>> m_standbys;
    quint64 m_consoleBatches = 0;
};

}  // namespace weft
