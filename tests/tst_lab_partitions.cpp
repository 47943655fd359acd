// The oracle: real OpenSM 3.3.23 on an ibsim fabric reads each partitions.conf of a table of
// good and bad files, and Weft's verdict must equal OpenSM's. OpenSM never refuses a file
// outright; it logs "Partition configuration in error" and falls back to ALL=full in 0x7fff,
// so that log line is its verdict. Files are named accept-* or reject-* for the verdict both
// are expected to reach, so a disagreement shows which side moved.

#include "PartitionsConf.h"
#include "LabTools.h"
#include "SimulatedFabric.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TestLabPartitions : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void sameVerdictAsOpenSm_data();
    void sameVerdictAsOpenSm();
    void writtenFilesAreAccepted();
    void cleanupTestCase();

private:
    int m_accepted = 0;
    int m_rejected = 0;
};

void TestLabPartitions::initTestCase()
{
    const QString openSm = weft::test::openSmVersionProblem();  // once, before any lab starts
    QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
    const QString missing = SimulatedFabric::missingTools();
    QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("lab tools missing: ") + missing));
}

void TestLabPartitions::sameVerdictAsOpenSm_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("expectAccepted");

    const QString oracleDir = QFINDTESTDATA("data/partitions/oracle");
    QVERIFY2(!oracleDir.isEmpty(), "data/partitions/oracle not found");
    const QStringList files = QDir(oracleDir).entryList({QStringLiteral("*.conf")}, QDir::Files, QDir::Name);
    QVERIFY2(files.size() >= 12, "the oracle table has shrunk");
    for (const QString &file : files)
        QTest::addRow("%s", qPrintable(file)) << QDir(oracleDir).filePath(file)
                                              << file.startsWith(QLatin1String("accept-"));
    // The documentation's own examples and the tenants fixture of tst_partitionsconf.
    QTest::addRow("doc-examples.conf") << QFINDTESTDATA("data/partitions/doc-examples.conf") << true;
    QTest::addRow("manpage-examples.conf") << QFINDTESTDATA("data/partitions/manpage-examples.conf") << false;
    QTest::addRow("tenants.conf") << QFINDTESTDATA("data/partitions/tenants.conf") << true;
}

void TestLabPartitions::sameVerdictAsOpenSm()
{
    QFETCH(QString, path);
    QFETCH(bool, expectAccepted);
    QVERIFY2(QFile::exists(path), qPrintable(path));

    const auto weft = readPartitionsConfFile(path);
    const bool weftAccepts = weft.ok();

    SimulatedFabric::Options options;
    options.netFile = QFINDTESTDATA("data/partitions/net.2sw2path4hca");
    QVERIFY(!options.netFile.isEmpty());
    options.partitionsConf = QFileInfo(path).absoluteFilePath();
    options.openSmArgs = {QStringLiteral("-D"), QStringLiteral("0x07")};  // errors, info, verbose
    options.startTimeoutMs = 60000;
    SimulatedFabric fabric(options);
    const Status started = fabric.start();
    QVERIFY2(started.ok(), qPrintable(started.ok() ? QString() : started.error().toString()));
    const QByteArray log = readAll(fabric.openSmLogPath());
    fabric.stop();

    // Proof that OpenSM did read this file, so that "no error" means accepted.
    QVERIFY2(!log.contains("is not accessible"), "OpenSM could not open the partitions file");
    QVERIFY2(log.contains("SUBNET UP"), "OpenSM log has no SUBNET UP");
    const bool openSmAccepts = !log.contains("Partition configuration in error");

    QString details;
    for (const QByteArray &line : log.split('\n'))
        if (line.contains("PARSE") || line.contains("Partition configuration"))
            details += QString::fromUtf8(line) + QLatin1Char('\n');
    details += weftAccepts ? QStringLiteral("Weft: accepted\n") : QStringLiteral("Weft: ") + weft.error().toString();

    QVERIFY2(weftAccepts == openSmAccepts, qPrintable(details));
    QVERIFY2(openSmAccepts == expectAccepted, qPrintable(details));
    (openSmAccepts ? m_accepted : m_rejected)++;
}

// What Weft writes (read, then written back, plus the explicit Default rule) is what OpenSM accepts.
void TestLabPartitions::writtenFilesAreAccepted()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto read = readPartitionsConfFile(QFINDTESTDATA("data/partitions/doc-examples.conf"));
    QVERIFY(read.ok());
    const auto tenants = readPartitionsConfFile(QFINDTESTDATA("data/partitions/tenants.conf"));
    QVERIFY(tenants.ok());
    std::vector<Partition> all = read->partitions;
    all.insert(all.end(), tenants->partitions.begin() + 1, tenants->partitions.end());
    const QString path = dir.filePath(QStringLiteral("written.conf"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(writePartitionsConf(withExplicitDefault(all)));
    out.close();
    QVERIFY(readPartitionsConfFile(path).ok());

    SimulatedFabric::Options options;
    options.netFile = QFINDTESTDATA("data/partitions/net.2sw2path4hca");
    options.partitionsConf = path;
    options.openSmArgs = {QStringLiteral("-D"), QStringLiteral("0x07")};
    options.startTimeoutMs = 60000;
    SimulatedFabric fabric(options);
    const Status started = fabric.start();
    QVERIFY2(started.ok(), qPrintable(started.ok() ? QString() : started.error().toString()));
    const QByteArray log = readAll(fabric.openSmLogPath());
    fabric.stop();
    QVERIFY(!log.contains("is not accessible"));
    QByteArray parseErrors;
    for (const QByteArray &line : log.split('\n'))
        if (line.contains("PARSE") || line.contains("IP MC") || line.contains("Partition configuration"))
            parseErrors += line + '\n';
    QVERIFY2(!log.contains("Partition configuration in error"), parseErrors.constData());
    QVERIFY2(!log.contains("PARSE ERROR"), log.constData());
}

void TestLabPartitions::cleanupTestCase()
{
    // The table is only an oracle if OpenSM said both yes and no.
    QVERIFY(m_accepted >= 3);
    QVERIFY(m_rejected >= 3);
}

QTEST_GUILESS_MAIN(TestLabPartitions)
#include "tst_lab_partitions.moc"
