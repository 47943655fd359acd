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
#include "PKeyTables.h"
#include "ProjectFile.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "TenantTrees.h"

#include <QFile>
#include <QJsonArray>
#include <QProcess>
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
        // The service writes the same object as bytes, the dump escaped a piece at a time.
        QJsonObject withInstance = tablesJson;
        withInstance.insert(QStringLiteral("instance"), QStringLiteral("a\"b\\c"));
        QJsonParseError parsed{};
        const QJsonDocument bytes = QJsonDocument::fromJson(heldToJsonBytes(fabric, held, QStringLiteral("held \"now\"\n"), 7, tree.intent.tenancy.partitions,
                                                                            QStringLiteral("a\"b\\c")),
                                                            &parsed);
        QCOMPARE(parsed.error, QJsonParseError::NoError);
        withInstance.insert(QStringLiteral("name"), QStringLiteral("held \"now\"\n"));
        QCOMPARE(bytes.object(), withInstance);

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

    // GET tables?form=compact: the switches' tables as records, read back to the same routes, with
    // the header's fields; a body cut short, a port the switch lacks or a GUID that is no switch
    // refused with the record; a delta of the changed switches alone adds up to the new tables.
    void compactTablesAndDeltas()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
        const Fabric &fabric = tree.generated.fabric;
        Result<Routing> routed = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{});
        QVERIFY(routed);
        const ForwardingTables &tables = routed->tables;
        const QJsonObject header{{QStringLiteral("held_generation"), 4.0}, {QStringLiteral("instance"), QStringLiteral("abc")}};
        const QByteArray body = writeCompactTables(header, tables);
        QVERIFY(body.startsWith("WEFTTBL1"));
        Result<CompactTables> read = readCompactTables(body, &fabric);
        QVERIFY2(read, read ? "" : qPrintable(read.error().toString()));
        QCOMPARE(read->lfts, tables);
        QCOMPARE(read->lfts.size(), tables.size());
        QCOMPARE(read->header.value(QStringLiteral("held_generation")).toInt(), 4);
        QCOMPARE(read->header.value(QStringLiteral("switches")).toInt(), int(tables.size()));
        QCOMPARE(read->header.value(QStringLiteral("lfts_digest")).toString(), tablesDigest(tables));
        // The same routes as the LFT dump the JSON answer carries, with the fabric's names.
        QCOMPARE(writeLftDump(read->lfts, &fabric, LftDumpForm::Compact), writeLftDump(tables, &fabric, LftDumpForm::Compact));
        // Smaller than that dump by far.
        QVERIFY(body.size() * 4 < writeLftDump(tables, &fabric, LftDumpForm::Compact).size());

        const Result<CompactTables> cut = readCompactTables(body.left(body.size() - 3), &fabric);
        QVERIFY(!cut);
        QVERIFY2(cut.error().message.contains(QStringLiteral("record")), qPrintable(cut.error().toString()));
        QVERIFY(!readCompactTables(QByteArray("WEFTTBL2") + body.mid(8), &fabric));
        ForwardingTables wrongPort = tables;
        wrongPort.lft(0).setPort(1, 200);
        const Result<CompactTables> badPort = readCompactTables(writeCompactTables(header, wrongPort), &fabric);
        QVERIFY(!badPort);
        QVERIFY2(badPort.error().message.contains(QStringLiteral("port 200")), qPrintable(badPort.error().toString()));
        ForwardingTables stranger = tables;
        stranger.addSwitch(0x1234, 9);
        stranger.lft(stranger.size() - 1).setPort(1, 1);
        const Result<CompactTables> notSwitch = readCompactTables(writeCompactTables(header, stranger), &fabric);
        QVERIFY(!notSwitch);
        QVERIFY2(notSwitch.error().message.contains(QStringLiteral("not a switch")), qPrintable(notSwitch.error().toString()));

        // Two switches changed: the delta carries them alone and makes the new tables.
        ForwardingTables after = tables;
        after.lft(1).setPort(after.at(1).lft.top(), after.at(1).lft.port(after.at(1).lft.top()) == 1 ? 2 : 1);
        after.lft(3).clear(after.at(3).lft.top());
        std::vector<std::size_t> changed;
        for (std::size_t i = 0; i < after.size(); ++i)
            if (switchTableDigest(after.at(i).lft) != switchTableDigest(tables.at(i).lft))
                changed.push_back(i);
        QCOMPARE(changed, (std::vector<std::size_t>{1, 3}));
        QJsonObject deltaHeader = header;
        deltaHeader.insert(QStringLiteral("since"), 3.0);
        deltaHeader.insert(QStringLiteral("removed"), QJsonArray());
        Result<CompactTables> delta = readCompactTables(writeCompactTables(deltaHeader, after, &changed), &fabric);
        QVERIFY(delta);
        QCOMPARE(delta->lfts.size(), std::size_t(2));
        QCOMPARE(delta->header.value(QStringLiteral("lfts_switches")).toInt(), int(after.size()));
        Result<ForwardingTables> merged = applyTablesDelta(tables, *delta, &fabric);
        QVERIFY2(merged, merged ? "" : qPrintable(merged.error().toString()));
        QCOMPARE(*merged, after);
        // Applied to other tables than its base, it does not add up, and says so.
        const Result<ForwardingTables> wrongBase = applyTablesDelta(wrongPort, *delta, &fabric);
        QVERIFY(!wrongBase);
        QVERIFY2(wrongBase.error().message.contains(QStringLiteral("digest")), qPrintable(wrongBase.error().toString()));
        // A switch gone: named in `removed`, taken out.
        ForwardingTables fewer;
        for (std::size_t i = 1; i < after.size(); ++i) {
            const int k = fewer.addSwitch(after.at(i).guid, after.at(i).lid);
            fewer.lft(std::size_t(k)) = after.at(i).lft;
        }
        const std::vector<std::size_t> none;
        deltaHeader.insert(QStringLiteral("removed"), QJsonArray{guidText(after.at(0).guid)});
        Result<CompactTables> gone = readCompactTables(writeCompactTables(deltaHeader, fewer, &none), &fabric);
        QVERIFY(gone);
        Result<ForwardingTables> withoutFirst = applyTablesDelta(after, *gone, &fabric);
        QVERIFY2(withoutFirst, withoutFirst ? "" : qPrintable(withoutFirst.error().toString()));
        QCOMPARE(*withoutFirst, fewer);

        // What a discovery reads, from the fabric and the header.
        QJsonObject full = header;
        full.insert(QStringLiteral("sm_port"), guidText(fabric.port(fabric.portOf(tree.generated.hosts.front(), 1)).guid));
        Result<LiveState> state = liveStateFromCompact(std::make_shared<const Fabric>(fabric), full, std::make_shared<const ForwardingTables>(tables));
        QVERIFY(state);
        QCOMPARE(*state->held.lfts, tables);
        QCOMPARE(state->held.smPort, fabric.port(fabric.portOf(tree.generated.hosts.front(), 1)).guid);
    }

    // Answers compressed as the client's Accept-Encoding allows: gzip as gzip(1) reads it, else
    // deflate (zlib), else as they are; small answers as they are.
    void answersCompressedAsAccepted()
    {
        QByteArray text;
        for (int i = 0; i < 5000; ++i)
            text += "Unicast lids [0x0-0x" + QByteArray::number(i, 16) + "] of switch\n";
        QByteArray encoding;
        const QByteArray gz = compressForHttp(text, "deflate, gzip;q=1.0, br", &encoding);
        QCOMPARE(encoding, QByteArray("gzip"));
        QVERIFY(gz.size() * 5 < text.size());
        QProcess gunzip;
        gunzip.start(QStringLiteral("gzip"), {QStringLiteral("-dc")});
        QVERIFY(gunzip.waitForStarted());
        gunzip.write(gz);
        gunzip.closeWriteChannel();
        QVERIFY(gunzip.waitForFinished());
        QCOMPARE(gunzip.exitCode(), 0);
        QCOMPARE(gunzip.readAllStandardOutput(), text);

        const QByteArray deflated = compressForHttp(text, "gzip;q=0, deflate", &encoding);
        QCOMPARE(encoding, QByteArray("deflate"));
        QByteArray withLength(4, '\0');
        withLength[0] = char((text.size() >> 24) & 0xff);
        withLength[1] = char((text.size() >> 16) & 0xff);
        withLength[2] = char((text.size() >> 8) & 0xff);
        withLength[3] = char(text.size() & 0xff);
        QCOMPARE(qUncompress(withLength + deflated), text);

        QCOMPARE(compressForHttp(text, "identity", &encoding), text);
        QVERIFY(encoding.isEmpty());
        QCOMPARE(compressForHttp(text, QByteArray(), &encoding), text);
        QCOMPARE(compressForHttp("{}", "gzip", &encoding), QByteArray("{}"));
        QVERIFY(encoding.isEmpty());
    }

    // A plan stays committable while what it was made from is what the service has, however often
    // it was discovered since (another Fabric object of the same topology, other tables objects of
    // the same routes); otherwise what changed is named: the topology, the switches' LFTs, the
    // ports' P_Key tables, the SM's port.
    void aPlanIsStaleOnlyWhenItsBasisChanged()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
        const Fabric &fabric = tree.generated.fabric;
        Result<Routing> routed = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{});
        QVERIFY(routed);
        HeldTables held;
        held.lfts = std::make_shared<const ForwardingTables>(routed->tables);
        held.pkeys = std::make_shared<const PKeyTables>(computePKeyTables(fabric, tree.intent.tenancy.partitions, PKeyTableOptions{}));
        held.smPort = fabric.port(fabric.portOf(tree.generated.hosts.front(), 1)).guid;
        const Result<ServicePlan> plan = makeServicePlan(writeProject(tree.intent), fabric, held, PartitionsState{}, false);
        QVERIFY2(plan, plan ? "" : qPrintable(plan.error().toString()));

        // Discovered again: other objects, the same content.
        const Fabric again = fabric;
        HeldTables readAgain;
        readAgain.lfts = std::make_shared<const ForwardingTables>(*held.lfts);
        readAgain.pkeys = std::make_shared<const PKeyTables>(*held.pkeys);
        readAgain.smPort = held.smPort;
        QCOMPARE(planBasisChange(*plan, again, readAgain), QString());

        // One switch's table changed.
        ForwardingTables changed = *held.lfts;
        changed.lft(2).setPort(changed.at(2).lft.top(), changed.at(2).lft.port(changed.at(2).lft.top()) == 1 ? 2 : 1);
        HeldTables otherTables = readAgain;
        otherTables.lfts = std::make_shared<const ForwardingTables>(changed);
        const QString lfts = planBasisChange(*plan, again, otherTables);
        QVERIFY2(lfts.contains(QStringLiteral("LFTs of 1 switch")) && lfts.contains(guidText(changed.at(2).guid)), qPrintable(lfts));

        // A port's P_Keys changed.
        std::vector<PortPKeyTable> ports = held.pkeys->ports();
        QVERIFY(!ports.empty());
        ports.front().entries[1] = 0x8123;
        HeldTables otherPKeys = readAgain;
        otherPKeys.pkeys = std::make_shared<const PKeyTables>(PKeyTables::fromPorts(ports));
        const QString pkeys = planBasisChange(*plan, again, otherPKeys);
        QVERIFY2(pkeys.contains(QStringLiteral("P_Key tables of 1 port")), qPrintable(pkeys));

        // The SM elsewhere.
        HeldTables otherSm = readAgain;
        otherSm.smPort = fabric.port(fabric.portOf(tree.generated.hosts.back(), 1)).guid;
        QVERIFY(planBasisChange(*plan, again, otherSm).contains(QStringLiteral("master SM")));

        // Another topology.
        const test::Tree smaller = test::makeTree(FabricShapeKind::KaryNTree, 2, 2);
        const QString topology = planBasisChange(*plan, smaller.generated.fabric, readAgain);
        QVERIFY2(topology.contains(QStringLiteral("fabric changed")), qPrintable(topology));
    }
};

QTEST_GUILESS_MAIN(TestService)
#include "tst_service.moc"
