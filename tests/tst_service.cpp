// What Weft's service and its desks share (session/service): the tokens file (hashes only, each
// bad file refused with its line, constant-time lookup by token or certificate), the JSON of the
// fabric, its tables, telemetry and commit reports read back to what they were, and plans made
// from a body: a malformed one refused with its line and column, a desk's plan of tables counted
// exactly as the project it was routed from.

#include "ServiceFormat.h"
#include "ServicePlan.h"
#include "TokenStore.h"

#include "FabricGenerator.h"
#include "LftDump.h"
#include "ProjectFile.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "TenantTrees.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace weft;

class TestService : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tokensAreKeptAsHashes()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tokens.json"));
        Result<TokenStore> store = TokenStore::read(path);
        QVERIFY(store && store->credentials().empty());
        Result<QString> admin = store->addToken(QStringLiteral("alice"), ServiceRole::Admin);
        Result<QString> viewer = store->addToken(QStringLiteral("victor"), ServiceRole::Viewer);
        QVERIFY(admin && viewer);
        QVERIFY(*admin != *viewer);
        QVERIFY(admin->startsWith(QStringLiteral("weft_")) && admin->size() >= 45);
        QVERIFY(!store->addToken(QStringLiteral("alice"), ServiceRole::Viewer));  // the name is taken
        QVERIFY(store->write());
        QCOMPARE(QFile::permissions(path) & (QFile::ReadOther | QFile::ReadGroup), QFile::Permissions());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY2(!file.readAll().contains(admin->toLatin1()), "the token itself is not stored");

        Result<TokenStore> again = TokenStore::read(path);
        QVERIFY(again);
        QCOMPARE(again->byToken(admin->toLatin1())->name, QStringLiteral("alice"));
        QCOMPARE(again->byToken(admin->toLatin1())->role, ServiceRole::Admin);
        QCOMPARE(again->byToken(viewer->toLatin1())->role, ServiceRole::Viewer);
        QVERIFY(!again->byToken("weft_nothing"));
        QVERIFY(!again->byToken(admin->toLatin1().chopped(1)));
        QVERIFY(again->revoke(QStringLiteral("alice")));
        QVERIFY(!again->revoke(QStringLiteral("alice")));
        QVERIFY(!again->byToken(admin->toLatin1()));
    }

    void badTokenFilesAreRefused_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("says");
        QTest::addRow("not JSON") << QByteArray("{\n\"format\": \"weft-tokens\",\n oops\n}") << 3 << QStringLiteral("not a tokens file");
        QTest::addRow("another format") << QByteArray(R"({"format": "weft-project"})") << 1 << QStringLiteral("format");
        QTest::addRow("unknown role") << QByteArray(R"({"format": "weft-tokens", "tokens": [{"name": "a", "role": "root", "sha256": "00"}]})") << 0
                                      << QStringLiteral("tokens[0]");
    }

    void badTokenFilesAreRefused()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tokens.json"));
        QVERIFY(writeFileAtomically(path, text, false));
        const Result<TokenStore> store = TokenStore::read(path);
        QVERIFY(!store);
        QCOMPARE(store.error().file, path);
        QCOMPARE(store.error().line, line);
        QVERIFY2(store.error().message.contains(says), qPrintable(store.error().message));
    }

    void certificatesByFingerprint()
    {
        TokenStore store;
        // Any DER SEQUENCE is taken; its SHA-256 is the fingerprint TLS shows for it.
        const QByteArray der = QByteArray::fromHex("3003020101");
        const QByteArray pem = "-----BEGIN CERTIFICATE-----\n" + der.toBase64() + "\n-----END CERTIFICATE-----\n";
        QVERIFY(store.addCertificate(QStringLiteral("robot"), ServiceRole::Operator, pem));
        const QString fingerprint = QString::fromLatin1(QCryptographicHash::hash(der, QCryptographicHash::Sha256).toHex());
        QCOMPARE(store.byCertificate(fingerprint)->name, QStringLiteral("robot"));
        QCOMPARE(store.byCertificate(fingerprint.toUpper())->role, ServiceRole::Operator);
        QVERIFY(!store.byToken(fingerprint.toLatin1()));
        QVERIFY(!store.addCertificate(QStringLiteral("junk"), ServiceRole::Viewer, "hello"));
    }

    void fabricAndTablesReadBackAsTheyWere()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
        const Fabric &fabric = tree.generated.fabric;
        Result<Routing> routed = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{});
        QVERIFY(routed);
        HeldTables held;
        held.lfts = std::make_shared<const ForwardingTables>(routed->tables);
        held.smPort = fabric.port(fabric.portOf(tree.generated.hosts.front(), 1)).guid;
        const QJsonObject fabricJson = QJsonDocument::fromJson(QJsonDocument(fabricToJson(fabric, 3)).toJson()).object();
        const QJsonObject tablesJson = heldToJson(fabric, held, QStringLiteral("held"), 7, tree.intent.tenancy.partitions);
        QCOMPARE(fabricJson.value(QStringLiteral("switches")).toInt(), int(fabric.switches().size()));
        QCOMPARE(fabricJson.value(QStringLiteral("hosts")).toInt(), int(fabric.channelAdapterCount()));
        QCOMPARE(fabricJson.value(QStringLiteral("fabric_generation")).toInt(), 3);
        Result<LiveState> state = liveStateFromJson(fabricJson, tablesJson);
        QVERIFY2(state, state ? "" : qPrintable(state.error().toString()));
        QCOMPARE(state->fabric->nodes().size(), fabric.nodes().size());
        QCOMPARE(state->fabric->links().size(), fabric.links().size());
        QCOMPARE(writeLftDump(*state->held.lfts, state->fabric.get(), LftDumpForm::Compact),
                 writeLftDump(*held.lfts, &fabric, LftDumpForm::Compact));
        QCOMPARE(state->held.smPort, held.smPort);
        QCOMPARE(state->partitions.size(), tree.intent.tenancy.partitions.size());

        // A topology that does not parse is an error naming the field.
        QJsonObject broken = fabricJson;
        broken.insert(QStringLiteral("topology"), QStringLiteral("Switch 4 \"S-1\"\n[1] garbage"));
        const Result<LiveState> bad = liveStateFromJson(broken, tablesJson);
        QVERIFY(!bad);
        QVERIFY2(bad.error().toString().contains(QStringLiteral("topology")), qPrintable(bad.error().toString()));
    }

    void telemetryAndReportsReadBack()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
        const Fabric &fabric = tree.generated.fabric;
        std::vector<TelemetryRecord> records;
        for (NodeIndex sw : fabric.switches()) {
            TelemetryRecord r;
            r.time = 1000;
            r.portIndex = fabric.portOf(sw, 1);
            r.guid = fabric.node(sw).guid;
            r.port = 1;
            r.seconds = 1;
            r.rates.xmitBytes = CounterRate{1.5e9, CounterGap::None};
            r.rates.rcvBytes = CounterRate{0, CounterGap::Cleared};
            records.push_back(r);
        }
        Result<std::vector<TelemetryRecord>> back = telemetryFromJson(telemetryToJson(fabric, records, 1000, 1), fabric);
        QVERIFY(back);
        QCOMPARE(back->size(), records.size());
        QCOMPARE(back->front().portIndex, records.front().portIndex);
        QCOMPARE(back->front().rates.xmitBytes.value, 1.5e9);
        QCOMPARE(back->front().rates.rcvBytes.gap, CounterGap::Cleared);

        CommitReport report;
        report.outcome = CommitOutcome::RolledBack;
        report.reasons << QStringLiteral("switch S-1 port 3: expected 2, read 4");
        report.diff.changedEntries = 12;
        report.diff.changedBlocks = 3;
        report.stageTimes.push_back(CommitStageTime{QStringLiteral("discovery"), 0.5, CommitStageTime::Kind::Fabric});
        const CommitReport read = commitReportFromJson(report.toJson());
        QCOMPARE(read.outcome, CommitOutcome::RolledBack);
        QCOMPARE(read.reasons, report.reasons);
        QCOMPARE(read.diff.smps(), report.diff.smps());
        QCOMPARE(read.stageTimes.size(), std::size_t(1));
        QCOMPARE(read.stageTimes.front().kind, CommitStageTime::Kind::Fabric);
    }

    void plansFromBodies()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
        const Fabric &fabric = tree.generated.fabric;
        const PartitionsState inForce;
        const Result<ServicePlan> bad = makeServicePlan("{\n  \"format\": \"weft-project\",\n  nope: 1\n}", fabric, HeldTables{}, inForce, false);
        QVERIFY(!bad);
        QCOMPARE(bad.error().line, 3);
        QVERIFY2(bad.error().message.startsWith(QStringLiteral("column ")) && bad.error().message.contains(QStringLiteral("not JSON")), qPrintable(bad.error().message));

        const Result<ServicePlan> fromProject = makeServicePlan(writeProject(tree.intent), fabric, HeldTables{}, inForce, false);
        QVERIFY2(fromProject, fromProject ? "" : qPrintable(fromProject.error().toString()));
        QCOMPARE(fromProject->origin, QStringLiteral("project"));
        QVERIFY(fromProject->review.diff.smps() > 0);
        QVERIFY(fromProject->check.reasons.isEmpty());

        // The desk's way: its plan of tables, counted as the project it came from.
        const QByteArray body = QJsonDocument(planRequestJson(fromProject->commit)).toJson();
        const Result<ServicePlan> fromTables = makeServicePlan(body, fabric, HeldTables{}, inForce, false);
        QVERIFY2(fromTables, fromTables ? "" : qPrintable(fromTables.error().toString()));
        QCOMPARE(fromTables->origin, QStringLiteral("tables"));
        QCOMPARE(fromTables->review.diff.changedEntries, fromProject->review.diff.changedEntries);
        QCOMPARE(fromTables->review.diff.smps(), fromProject->review.diff.smps());
        QCOMPARE(fromTables->commit.partitionsConf, fromProject->commit.partitionsConf);
        QCOMPARE(fromTables->check.violations, fromProject->check.violations);
        const QJsonObject json = servicePlanJson(*fromTables, QStringLiteral("open"), {});
        QCOMPARE(json.value(QStringLiteral("smps")).toDouble(), double(fromProject->review.diff.smps()));
        QCOMPARE(json.value(QStringLiteral("partitions")).toArray().size(), qsizetype(fromTables->check.partitions.size()));

        // A target that installs intents takes projects only.
        QVERIFY(!makeServicePlan(body, fabric, HeldTables{}, inForce, true));
    }
};

QTEST_GUILESS_MAIN(TestService)
#include "tst_service.moc"
