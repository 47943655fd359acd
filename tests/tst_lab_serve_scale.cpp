// `weft serve` keeping its plans and its tables in step with the fabric (issue 42), on a small
// lab: a plan stays committable across discoveries that found the same fabric holding the same
// tables, and is stale while the fabric is not the one it was made for, its answer naming what
// changed, at which generation and when; GET tables in the compact form, compressed, and as a
// delta from a generation the client holds, which carries exactly the switches a commit changed
// and which the desk's client (app/remote/ServiceClient) makes into the tables dump_lfts reads.

#include "ServeLab.h"

#include "LftDump.h"
#include "ProjectFile.h"
#include "ServiceClient.h"
#include "ServiceFormat.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <memory>
#include <set>

using namespace weft;

class TestLabServeScale : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<test::ServeLab> m_lab;

    test::HttpAnswer call(const QByteArray &method, const QString &path, const QByteArray &token, const QByteArray &body = {})
    {
        return test::httpsCall(m_lab->cert, m_lab->url() + path, method, token, body);
    }
    QString serviceLog() const { return QString::fromUtf8(test::readAll(m_dir.filePath(QStringLiteral("serve.log"))).right(4000)); }
    QJsonObject status() { return call("GET", QStringLiteral("/api/v1/status"), m_lab->viewerToken).json(); }
    // Asks for a discovery and waits until the service is at fabric generation `generation`
    // (a changed topology makes it discover anew once more) with nothing under way.
    bool discoverUntilFabricGeneration(double generation)
    {
        (void)call("POST", QStringLiteral("/api/v1/discover"), m_lab->adminToken, "{}");
        return QTest::qWaitFor(
            [&] {
                const QJsonObject now = status();
                return now.value(QStringLiteral("fabric_generation")).toDouble() >= generation && !now.value(QStringLiteral("discovering")).toBool();
            },
            120000);
    }
    // The fabric as the service has it (its topology).
    Fabric servedFabric()
    {
        const QJsonObject json = call("GET", QStringLiteral("/api/v1/fabric"), m_lab->viewerToken).json();
        Result<Fabric> fabric = readTopology(json.value(QStringLiteral("topology")).toString().toUtf8(), QStringLiteral("served"));
        return fabric ? std::move(*fabric) : Fabric();
    }
    // What the switches hold, read by dump_lfts, on the fabric ibnetdiscover sees.
    std::pair<Fabric, ForwardingTables> dumpLfts(const QString &name)
    {
        Result<Fabric> live = test::discoverWithIbnetdiscover(*m_lab->sim, m_dir.filePath(name + QStringLiteral(".topo")));
        if (!live)
            return {};
        Result<ForwardingTables> tables = test::installedTables(*m_lab->sim, *live);
        return {std::move(*live), tables ? std::move(*tables) : ForwardingTables()};
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (const QString problem = test::labToolsProblem(); !problem.isEmpty())
            QFAIL(qPrintable(problem));
        QVERIFY(m_dir.isValid());
        Result<std::unique_ptr<test::ServeLab>> lab = test::startServeLab(m_dir.path(), test::osmPluginDirectory());
        QVERIFY2(lab, lab ? "" : qPrintable(lab.error().toString()));
        m_lab = std::move(*lab);
    }

    // A host's cable pulled and put back, each seen by a discovery: the fabric generation moves
    // on twice. While the host is gone the plan is stale and says why; once the fabric is again
    // the one it was made for, holding what it held, the plan commits. (Before issue 42 any new
    // fabric generation made every plan stale for good.)
    void aPlanOutlivesDiscoveriesOfTheSameFabric()
    {
        const double start = status().value(QStringLiteral("fabric_generation")).toDouble();
        QVERIFY(start >= 1);
        const test::HttpAnswer made = call("POST", QStringLiteral("/api/v1/plans"), m_lab->adminToken, test::readAll(m_lab->project));
        QVERIFY2(made.status == 201, made.body.left(2000).constData());
        const QString id = made.json().value(QStringLiteral("id")).toString();
        QCOMPARE(made.json().value(QStringLiteral("state")).toString(), QStringLiteral("open"));

        // A host that runs no SM (the first and the last run the two OpenSMs).
        const Fabric fabric = servedFabric();
        QVERIFY(fabric.switches().size() > 0);
        const Guid hostGuid = m_lab->tree.generated.fabric.node(m_lab->tree.generated.hosts[1]).guid;
        const NodeIndex host = fabric.nodeByGuid(hostGuid);
        QVERIFY(host != kNoIndex);
        const Port &leafPort = fabric.port(fabric.port(fabric.portOf(host, 1)).remote);
        const QString cable = QStringLiteral("\"%1\"[%2]").arg(fabric.node(leafPort.node).name).arg(leafPort.number);

        QVERIFY(m_lab->sim->simulatorCommand(QStringLiteral("Unlink ") + cable));
        QVERIFY2(discoverUntilFabricGeneration(start + 1), qPrintable(serviceLog()));
        const QJsonObject stale = call("GET", QStringLiteral("/api/v1/plans/%1").arg(id), m_lab->viewerToken).json();
        QCOMPARE(stale.value(QStringLiteral("state")).toString(), QStringLiteral("stale"));
        const QString why = stale.value(QStringLiteral("refusal")).toString();
        QVERIFY2(why.contains(QStringLiteral("fabric changed")) && why.contains(QStringLiteral("gone")), qPrintable(why));
        QVERIFY2(why.contains(QStringLiteral("fabric generation %1").arg(start + 1)), qPrintable(why));
        // The commit is refused with the generations since the plan, each with when and why.
        const test::HttpAnswer refused = call("POST", QStringLiteral("/api/v1/plans/%1/commit").arg(id), m_lab->adminToken, "{}");
        QCOMPARE(refused.status, 409);
        const QJsonArray changes = refused.json().value(QStringLiteral("changes")).toArray();
        QVERIFY2(!changes.isEmpty(), refused.body.constData());
        QCOMPARE(changes.last().toObject().value(QStringLiteral("fabric_generation")).toDouble(), start + 1);
        QVERIFY(!changes.last().toObject().value(QStringLiteral("at")).toString().isEmpty());
        QVERIFY2(changes.last().toObject().value(QStringLiteral("cause")).toString().contains(QStringLiteral("topology")), refused.body.constData());

        QVERIFY(m_lab->sim->simulatorCommand(QStringLiteral("Relink ") + cable));
        QVERIFY(::kill(pid_t(m_lab->sim->openSmPid()), SIGHUP) == 0);
        // OpenSM brings the port up again: the host answers ibnetdiscover.
        QVERIFY(QTest::qWaitFor(
            [&] {
                Result<Fabric> seen = test::discoverWithIbnetdiscover(*m_lab->sim, m_dir.filePath(QStringLiteral("relinked.topo")));
                return seen && seen->nodeByGuid(hostGuid) != kNoIndex && seen->nodeLid(seen->nodeByGuid(hostGuid)) != 0;
            },
            60000));
        QVERIFY2(discoverUntilFabricGeneration(start + 2), qPrintable(serviceLog()));
        const QJsonObject again = call("GET", QStringLiteral("/api/v1/plans/%1").arg(id), m_lab->viewerToken).json();
        QVERIFY2(again.value(QStringLiteral("state")).toString() == QLatin1String("open"), qPrintable(again.value(QStringLiteral("refusal")).toString()));
        const test::HttpAnswer committed = call("POST", QStringLiteral("/api/v1/plans/%1/commit").arg(id), m_lab->adminToken, R"({"accept_violations": true})");
        QVERIFY2(committed.status == 200, qPrintable(QString::fromUtf8(committed.body.left(3000)) + serviceLog()));
        QCOMPARE(committed.json().value(QStringLiteral("outcome")).toString(), QStringLiteral("committed"));
    }

    // The desk's client reads the tables compact and compressed, then after a commit as a delta
    // from the generation it holds: the delta carries exactly the switches whose tables the
    // commit changed (dump_lfts before and after), and the client's tables are dump_lfts's.
    void tablesComeCompactAndByDelta()
    {
        QTemporaryDir home;
        remote::ServiceClient client(m_lab->url(), remote::ServiceCredential{m_lab->adminToken, {}, {}}, home.filePath(QStringLiteral("known")));
        Result<remote::ServiceContact> contact = client.contact();
        QVERIFY2(contact, contact ? "" : qPrintable(contact.error().toString()));
        QVERIFY(client.pin(contact->fingerprint));

        Result<LiveState> first = client.liveState();
        QVERIFY2(first, first ? "" : qPrintable(first.error().toString()));
        const remote::ServiceClient::Transfer whole = client.lastTransfer();
        QVERIFY(whole.fabricRead);
        QVERIFY(!whole.tablesDelta);
        const auto [fabricBefore, before] = dumpLfts(QStringLiteral("before"));
        QVERIFY(before.size() > 0);
        QVERIFY(first->held.lfts);
        QCOMPARE(test::firstRouteDifference(fabricBefore, before, *first->held.lfts), QString());
        // Compressed on the wire (Content-Length) below what the client decoded.
        QVERIFY2(whole.wireBytes < whole.bytes, qPrintable(QStringLiteral("%1 >= %2").arg(whole.wireBytes).arg(whole.bytes)));

        // The generation the client holds, and the instance that numbered it.
        const QJsonObject now = status();
        const double held = now.value(QStringLiteral("held_generation")).toDouble();
        const QString instance = now.value(QStringLiteral("instance")).toString();
        QVERIFY(!instance.isEmpty());

        // Another engine routes the same tenants: a commit that changes some switches' tables.
        Result<Project> project = readProjectFile(m_lab->project);
        QVERIFY(project);
        project->routingEngine = project->routingEngine == QLatin1String("updn") ? QStringLiteral("minhop") : QStringLiteral("updn");
        const test::HttpAnswer made = call("POST", QStringLiteral("/api/v1/plans"), m_lab->adminToken, writeProject(*project));
        QVERIFY2(made.status == 201, made.body.left(2000).constData());
        const QString id = made.json().value(QStringLiteral("id")).toString();
        const test::HttpAnswer committed = call("POST", QStringLiteral("/api/v1/plans/%1/commit").arg(id), m_lab->adminToken, R"({"accept_violations": true})");
        QVERIFY2(committed.status == 200 && committed.json().value(QStringLiteral("outcome")).toString() == QLatin1String("committed"),
                 qPrintable(QString::fromUtf8(committed.body.left(3000)) + serviceLog()));
        const auto [fabricAfter, after] = dumpLfts(QStringLiteral("after"));
        QVERIFY(after.size() > 0);
        std::set<Guid> changed;
        for (const SwitchForwardingTable &s : after.switches()) {
            const SwitchForwardingTable *then = before.find(s.guid);
            ForwardingTables one, other;
            one.lft(std::size_t(one.addSwitch(s.guid))) = s.lft;
            if (then)
                other.lft(std::size_t(other.addSwitch(s.guid))) = then->lft;
            else
                other.addSwitch(s.guid);
            if (!test::firstRouteDifference(fabricAfter, one, other).isEmpty())
                changed.insert(s.guid);
        }
        QVERIFY(!changed.empty());

        // The delta as any HTTP client gets it.
        const test::HttpAnswer delta = call("GET", QStringLiteral("/api/v1/tables?form=compact&since=%1&instance=%2").arg(held).arg(instance), m_lab->viewerToken);
        QCOMPARE(delta.status, 200);
        Result<CompactTables> read = readCompactTables(delta.body, &fabricAfter);
        QVERIFY2(read, read ? "" : qPrintable(read.error().toString()));
        QCOMPARE(read->header.value(QStringLiteral("since")).toDouble(), held);
        std::set<Guid> sent;
        for (const SwitchForwardingTable &s : read->lfts.switches())
            sent.insert(s.guid);
        QCOMPARE(sent, changed);
        // From another instance's generation: the whole tables.
        const test::HttpAnswer other = call("GET", QStringLiteral("/api/v1/tables?form=compact&since=%1&instance=0").arg(held), m_lab->viewerToken);
        Result<CompactTables> whole2 = readCompactTables(other.body, &fabricAfter);
        QVERIFY(whole2);
        QVERIFY(!whole2->header.contains(QStringLiteral("since")));
        QCOMPARE(whole2->lfts.size(), after.size());

        // The client asks for the delta and makes dump_lfts's tables of it.
        Result<LiveState> second = client.liveState();
        QVERIFY2(second, second ? "" : qPrintable(second.error().toString()));
        const remote::ServiceClient::Transfer moved = client.lastTransfer();
        QVERIFY(!moved.fabricRead);
        QVERIFY(moved.tablesDelta);
        QCOMPARE(moved.tablesSwitches, int(changed.size()));
        QCOMPARE(test::firstRouteDifference(fabricAfter, after, *second->held.lfts), QString());
        QCOMPARE(second->held.lfts->size(), after.size());
    }

    void cleanupTestCase() { m_lab.reset(); }
};

QTEST_GUILESS_MAIN(TestLabServeScale)
#include "tst_lab_serve_scale.moc"
