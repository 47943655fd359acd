#include "Fabric.h"
#include "FabricSummary.h"
#include "NodeQuery.h"
#include "Parallel.h"
#include "SafeFile.h"
#include "WarningSummary.h"

#include <QtTest>

#include <sys/resource.h>
#include <sys/stat.h>

#include <atomic>
#include <csignal>
#include <stdexcept>
#include <thread>

using namespace weft;

namespace {

// sw (4 ports) with two single-port hosts on ports 1 and 2.
struct Small
{
    FabricBuilder b;
    NodeIndex sw = kNoIndex, h1 = kNoIndex, h2 = kNoIndex;
    Small()
    {
        FabricBuilder::NodeSpec s{NodeType::Switch, 0x100, 4, QStringLiteral("sw"), QStringLiteral("switch")};
        FabricBuilder::NodeSpec a{NodeType::ChannelAdapter, 0x200, 1, QStringLiteral("h1"), QStringLiteral("host 1")};
        FabricBuilder::NodeSpec c{NodeType::ChannelAdapter, 0x300, 1, QStringLiteral("h2"), QStringLiteral("host 2")};
        QVERIFY(b.addNode(s, &sw).isEmpty());
        QVERIFY(b.addNode(a, &h1).isEmpty());
        QVERIFY(b.addNode(c, &h2).isEmpty());
    }
};

}  // namespace

class TestFabric : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void buildsAndIndexes()
    {
        Small s;
        QVERIFY(s.b.connect(s.sw, 1, s.h1, 1).isEmpty());
        QVERIFY(s.b.connect(s.h2, 1, s.sw, 2).isEmpty());
        QVERIFY(s.b.connect(s.sw, 1, s.h1, 1).isEmpty());  // the same cable from the other end
        QVERIFY(s.b.setPortLid(s.sw, 0, 1, 0).isEmpty());
        QVERIFY(s.b.setPortLid(s.h1, 1, 4, 1).isEmpty());  // LIDs 4 and 5
        QVERIFY(s.b.setPortLid(s.h2, 1, 2, 0).isEmpty());
        Result<Fabric> f = std::move(s.b).build();
        QVERIFY(f.ok());
        QCOMPARE(f->links().size(), std::size_t(2));
        QCOMPARE(f->switches().size(), std::size_t(1));
        QCOMPARE(f->endNodes().size(), std::size_t(2));
        QCOMPARE(f->nodeByGuid(0x200), s.h1);
        QCOMPARE(f->nodeByName(QStringLiteral("h2")), s.h2);
        QCOMPARE(f->portByGuid(0x201), f->portOf(s.h1, 1));  // CA port GUID = node GUID + port
        QCOMPARE(f->portByGuid(0x100), f->portOf(s.sw, 0));  // a switch is addressed by port 0
        QCOMPARE(f->portByLid(5), f->portOf(s.h1, 1));      // inside the LMC range
        QCOMPARE(f->portByLid(3), kNoIndex);
        QCOMPARE(f->maxLid(), Lid(5));
        QCOMPARE(f->nodeLid(s.sw), Lid(1));
        QCOMPARE(f->portOf(s.sw, 5), kNoIndex);
        const Port &p = f->port(f->portOf(s.sw, 2));
        QCOMPARE(f->port(p.remote).node, s.h2);

        const FabricSummary sum = summarize(*f);
        QCOMPARE(sum.tiers, 1);
        QCOMPARE(sum.links, std::size_t(2));
        QCOMPARE(sum.endNodeLinks, std::size_t(2));
        QCOMPARE(sum.minLid, Lid(1));
        QCOMPARE(sum.maxLid, Lid(5));
    }

    // What the find box (find) and the node table's search (matches) make of typed text.
    void nodeQueryReadsTypedText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("found");           // node id, empty for none
        QTest::addColumn<QStringList>("matching");    // node ids, in node order
        const QStringList all = {QStringLiteral("sw"), QStringLiteral("h1"), QStringLiteral("h2")};
        const QStringList h1 = {QStringLiteral("h1")};
        const QStringList h2 = {QStringLiteral("h2")};
        QTest::addRow("lid N") << QStringLiteral("lid 4") << QStringLiteral("h1") << h1;
        QTest::addRow("lid in hex") << QStringLiteral("LID:0x4") << QStringLiteral("h1") << h1;
        QTest::addRow("LMC range") << QStringLiteral("lid 5") << QStringLiteral("h1") << h1;
        QTest::addRow("lid nobody has") << QStringLiteral("lid 3") << QString() << QStringList();
        QTest::addRow("bare LID") << QStringLiteral("2") << QStringLiteral("h2") << h2;
        QTest::addRow("node GUID") << QStringLiteral("0x200") << QStringLiteral("h1") << h1;
        QTest::addRow("GUID without 0x") << QStringLiteral("200") << QStringLiteral("h1") << QStringList();
        QTest::addRow("port GUID") << QStringLiteral("0x201") << QStringLiteral("h1") << h1;
        QTest::addRow("GUID with colons") << QStringLiteral("00:00:00:00:00:00:02:00") << QStringLiteral("h1") << h1;
        QTest::addRow("GUID fragment") << QStringLiteral("0300") << QStringLiteral("h2") << h2;
        QTest::addRow("node id") << QStringLiteral("h2") << QStringLiteral("h2") << h2;
        QTest::addRow("description, any case") << QStringLiteral("HOST 2") << QStringLiteral("h2") << h2;
        QTest::addRow("part of descriptions") << QStringLiteral("host") << QStringLiteral("h1") << QStringList{QStringLiteral("h1"), QStringLiteral("h2")};
        QTest::addRow("nothing") << QStringLiteral("no such node") << QString() << QStringList();
        QTest::addRow("empty") << QStringLiteral("  ") << QString() << all;
    }

    void nodeQueryReadsTypedText()
    {
        QFETCH(QString, text);
        QFETCH(QString, found);
        QFETCH(QStringList, matching);
        Small s;
        QVERIFY(s.b.connect(s.sw, 1, s.h1, 1).isEmpty());
        QVERIFY(s.b.connect(s.sw, 2, s.h2, 1).isEmpty());
        QVERIFY(s.b.setPortLid(s.sw, 0, 1, 0).isEmpty());
        QVERIFY(s.b.setPortLid(s.h1, 1, 4, 1).isEmpty());  // LIDs 4 and 5
        QVERIFY(s.b.setPortLid(s.h2, 1, 2, 0).isEmpty());
        Result<Fabric> f = std::move(s.b).build();
        QVERIFY(f.ok());
        const NodeQuery query(text);
        const NodeIndex n = query.find(*f);
        QCOMPARE(n == kNoIndex ? QString() : f->node(n).name, found);
        QStringList matched;
        for (NodeIndex i = 0; i < NodeIndex(f->nodes().size()); ++i)
            if (query.matches(*f, i))
                matched << f->node(i).name;
        QCOMPARE(matched, matching);
    }

    void refusesInconsistentFabrics_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("message");
        QTest::addRow("port cabled elsewhere") << 0 << QStringLiteral("already cabled");
        QTest::addRow("port out of range") << 1 << QStringLiteral("has no port 9");
        QTest::addRow("duplicate LID") << 2 << QStringLiteral("LID 3 is used twice");
        QTest::addRow("LMC range past unicast") << 3 << QStringLiteral("leaves the unicast range");
        QTest::addRow("duplicate port GUID") << 4 << QStringLiteral("duplicate port GUID");
        QTest::addRow("cabled to itself") << 5 << QStringLiteral("cabled to itself");
    }

    void refusesInconsistentFabrics()
    {
        QFETCH(int, kind);
        QFETCH(QString, message);
        Small s;
        QString error;
        switch (kind) {
        case 0:
            QVERIFY(s.b.connect(s.sw, 1, s.h1, 1).isEmpty());
            error = s.b.connect(s.sw, 1, s.h2, 1);
            break;
        case 1: error = s.b.connect(s.sw, 9, s.h1, 1); break;
        case 5: error = s.b.connect(s.sw, 1, s.sw, 1); break;
        default: break;
        }
        if (kind == 2 || kind == 3 || kind == 4) {
            if (kind == 2) {
                QVERIFY(s.b.setPortLid(s.h1, 1, 3, 0).isEmpty());
                QVERIFY(s.b.setPortLid(s.h2, 1, 3, 0).isEmpty());
            } else if (kind == 3) {
                QVERIFY(s.b.setPortLid(s.h1, 1, kMaxUnicastLid - 1, 2).isEmpty());
            } else {
                QVERIFY(s.b.setPortGuid(s.h2, 1, 0x201).isEmpty());
            }
            Result<Fabric> f = std::move(s.b).build();
            QVERIFY(!f.ok());
            error = f.error().message;
        }
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void refusesDuplicateNodes()
    {
        Small s;
        FabricBuilder::NodeSpec again{NodeType::Switch, 0x100, 4, QStringLiteral("other"), {}};
        QVERIFY(s.b.addNode(again).contains(QStringLiteral("duplicate node GUID")));
        FabricBuilder::NodeSpec name{NodeType::Switch, 0x999, 4, QStringLiteral("sw"), {}};
        QVERIFY(s.b.addNode(name).contains(QStringLiteral("duplicate node id")));
        FabricBuilder::NodeSpec ports{NodeType::Switch, 0x998, 0, QStringLiteral("x"), {}};
        QVERIFY(s.b.addNode(ports).contains(QStringLiteral("1 to 254")));
    }

    void linkSpeedNames()
    {
        for (LinkSpeed s : {LinkSpeed::SDR, LinkSpeed::DDR, LinkSpeed::QDR, LinkSpeed::FDR10, LinkSpeed::FDR,
                            LinkSpeed::EDR, LinkSpeed::HDR, LinkSpeed::NDR, LinkSpeed::XDR})
            QCOMPARE(linkSpeedFromName(linkSpeedName(s)), s);
        QCOMPARE(linkSpeedFromName(QStringLiteral("WARP")), LinkSpeed::Unknown);
        QVERIFY(linkSpeedGbps(LinkSpeed::EDR) > linkSpeedGbps(LinkSpeed::FDR));
    }

    void atomicWriteKeepsBackup()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("lfts.dump"));
        QVERIFY(writeFileAtomically(path, "first\n").ok());
        QVERIFY(!QFile::exists(backupPath(path)));  // nothing was replaced
        QVERIFY(writeFileAtomically(path, "second\n").ok());
        QFile now(path), backup(backupPath(path));
        QVERIFY(now.open(QIODevice::ReadOnly) && backup.open(QIODevice::ReadOnly));
        QCOMPARE(now.readAll(), QByteArray("second\n"));
        QCOMPARE(backup.readAll(), QByteArray("first\n"));
    }

    // A pipe (as /dev/null or /dev/stdout) is written into, never replaced by a renamed file, and
    // gets no backup; a directory is refused.
    void atomicWriteIntoAPipe()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QByteArray read;
        std::thread reader([&] {
            QFile in(fifo);
            if (in.open(QIODevice::ReadOnly))
                read = in.readAll();
        });
        const Status written = writeFileAtomically(fifo, "through the pipe\n");
        reader.join();
        QVERIFY2(written.ok(), written.ok() ? "" : qPrintable(written.error().toString()));
        QCOMPARE(read, QByteArray("through the pipe\n"));
        struct stat after
        {
        };
        QCOMPARE(::stat(QFile::encodeName(fifo).constData(), &after), 0);
        QVERIFY(S_ISFIFO(after.st_mode));
        QVERIFY(!QFile::exists(backupPath(fifo)));
        const Status refused = writeFileAtomically(dir.path(), "x");
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().toString().contains(QLatin1String("directory")), qPrintable(refused.error().toString()));
    }

    // The undo of a write: the backup goes back in place and stays a backup.
    void backupIsRestored()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("lfts.dump"));
        QVERIFY(!restoreBackup(path).ok());  // none yet
        QVERIFY(writeFileAtomically(path, "first\n").ok());
        QVERIFY(writeFileAtomically(path, "second\n").ok());
        QVERIFY(restoreBackup(path).ok());
        QFile now(path), backup(backupPath(path));
        QVERIFY(now.open(QIODevice::ReadOnly) && backup.open(QIODevice::ReadOnly));
        QCOMPARE(now.readAll(), QByteArray("first\n"));
        QCOMPARE(backup.readAll(), QByteArray("first\n"));
        QVERIFY(!QFile::exists(path + QStringLiteral(".restoring")));
        // A later write still keeps what it replaces.
        QVERIFY(writeFileAtomically(path, "third\n").ok());
        QFile again(backupPath(path));
        QVERIFY(again.open(QIODevice::ReadOnly));
        QCOMPARE(again.readAll(), QByteArray("first\n"));
    }

    // A disk that runs out of room (here the file size limit, which fails a write the same way and
    // needs no file system of its own): whether it shows while writing or only at the final flush,
    // the error names the file and the cause, and nothing changes: the file, its backup, no
    // temporary file left.
    void writeThatRunsOutOfRoomChangesNothing_data()
    {
        QTest::addColumn<int>("size");
        QTest::addRow("fails at the flush") << 300;
        QTest::addRow("fails while writing") << (1 << 20);
    }

    void writeThatRunsOutOfRoomChangesNothing()
    {
        QFETCH(int, size);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("partitions.conf"));
        const QByteArray before("Default=0x7fff, ipoib : ALL=full;\n");
        QVERIFY(writeFileAtomically(path, before).ok());
        struct rlimit old
        {
        };
        QCOMPARE(::getrlimit(RLIMIT_FSIZE, &old), 0);
        struct rlimit small = old;
        small.rlim_cur = 100;
        const auto previous = std::signal(SIGXFSZ, SIG_IGN);
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &small), 0);
        const Status s = writeFileAtomically(path, QByteArray(size, 'x'));
        ::setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, previous);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().file, path);
        QVERIFY2(s.error().message.contains(QLatin1String("File too large")), qPrintable(s.error().toString()));
        QFile now(path);
        QVERIFY(now.open(QIODevice::ReadOnly));
        QCOMPARE(now.readAll(), before);
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{QStringLiteral("partitions.conf")});
    }

    // An exception on one of the threads comes back to the caller once every share is done (on
    // a thread of its own it would end the process: OpenSM's, inside the plugin).
    void parallelWorkRethrowsHere()
    {
        std::atomic<int> ran{0};
        bool caught = false;
        try {
            runOnThreads(4, [&](std::size_t i) {
                ++ran;
                if (i == 2)
                    throw std::runtime_error("share 2 failed");
            });
        } catch (const std::runtime_error &e) {
            caught = QByteArray(e.what()) == "share 2 failed";
        }
        QVERIFY(caught);
        QCOMPARE(ran.load(), 4);
        std::vector<int> done(3, 0);
        runOnThreads(3, [&](std::size_t i) { done[i] = int(i) + 1; });
        QCOMPARE(done, (std::vector<int>{1, 2, 3}));
    }

    void failedWriteChangesNothing()
    {
        QTemporaryDir dir;
        const Status s = writeFileAtomically(dir.filePath(QStringLiteral("no/such/dir/file")), "x");
        QVERIFY(!s.ok());
        QVERIFY(s.error().message.startsWith(QStringLiteral("cannot write")));
    }

    // Warnings that differ only in names, numbers and quoted text are one kind: a kind with more
    // members than the examples shown becomes one line with its count; others stay as they are,
    // in order of first appearance.
    void warningsAreSummarisedByKind()
    {
        QStringList warnings;
        for (int s = 0; s < 48; ++s)
            warnings << QStringLiteral("switch 0x%1 (\"L0 spine %2\") has no entry for 12 of the fabric's 4176 LIDs").arg(s, 16, 16, QLatin1Char('0')).arg(s);
        warnings.insert(1, QStringLiteral("partition \"a\" (phy-isolation) of the intent is not in the planned partitions.conf"));
        warnings << QStringLiteral("partition \"b\" (phy-isolation) of the intent is not in the planned partitions.conf");
        const QStringList lines = summarizeWarnings(warnings, 3, QStringLiteral(" (see all)"));
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[0].startsWith(QStringLiteral("48 alike (see all), e.g. switch 0x0000000000000000 (\"L0 spine 0\")")), qPrintable(lines[0]));
        QCOMPARE(lines[0].count(QStringLiteral(" | ")), 2);
        QCOMPARE(lines[1], warnings[1]);
        QCOMPARE(lines[2], warnings.last());
        QCOMPARE(warningKind(warnings[0]), warningKind(warnings[5]));
        QVERIFY(warningKind(warnings[0]) != warningKind(warnings[1]));
    }
};

QTEST_GUILESS_MAIN(TestFabric)
#include "tst_fabric.moc"
