// The desk on a fabric it reaches only through `weft serve` (issue 29): a lab subnet (ibsim, two
// real OpenSMs) served by `weft serve`, and the desk in this process, which is no client of the
// simulation (no libumad2sim) and must not even try to open a MAD port. Connected with a token,
// the server's certificate pinned on first use, it discovers, partitions hosts, previews pftree
// and approves; the switches then hold the plan (dump_lfts, smpquery), the desk shows what they
// hold, and the journal names the token. A second service joins the subnet switcher.
//
// WEFT_REMOTE_DESK_SCREENSHOT=FILE keeps the picture of the desk connected (1366x768),
// WEFT_REMOTE_DIALOG_SCREENSHOT=FILE that of File ▸ Connect to Fabric Service… over the desk.

#include "ConnectServiceDialog.h"
#include "DeskDocks.h"
#include "DeskDriving.h"
#include "DiffReview.h"
#include "FabricDocument.h"
#include "FabricSession.h"
#include "JobTenants.h"
#include "MadPort.h"
#include "MainWindow.h"
#include "PartitionPanel.h"
#include "SceneReady.h"
#include "TenantListModel.h"
#include "FabricScene.h"
#include "MapOverlays.h"
#include "Screenshots.h"
#include "TelemetrySampler.h"
#include "ServeLab.h"

#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QItemSelectionModel>
#include <QTreeView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <set>

using namespace weft;

namespace {

}  // namespace

class TestLabRemoteDesk : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<test::ServeLab> m_lab;
    std::map<QString, QString> m_hostOf;  // Slurm name -> node description, as the names map says

private Q_SLOTS:
    void initTestCase()
    {
        if (const QString problem = test::labToolsProblem(); !problem.isEmpty())
            QFAIL(qPrintable(problem));
        QVERIFY(m_dir.isValid());
        QVERIFY2(qEnvironmentVariable("LD_PRELOAD").isEmpty(), "the desk's process must not be a client of the simulation");
        qputenv("WEFT_KNOWN_SERVICES", m_dir.filePath(QStringLiteral("known_services")).toUtf8());
        // Jobs get partitions (issue 47); the lab's hosts named node01, node02, ... by a names map,
        // as in tst_lab_slurm_jobs: the tree ServeLab makes.
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
        QByteArray map = "# the lab's hosts\n";
        int number = 0;
        for (NodeIndex h : tree.generated.hosts) {
            const QString name = QStringLiteral("node%1").arg(++number, 2, 10, QLatin1Char('0'));
            m_hostOf[name] = tree.generated.fabric.node(h).description;
            map += QStringLiteral("\"%1\" %2\n").arg(m_hostOf[name], name).toUtf8();
        }
        const QString mapPath = m_dir.filePath(QStringLiteral("names.map"));
        QVERIFY(writeFileAtomically(mapPath, map, false));
        Result<std::unique_ptr<test::ServeLab>> lab = test::startServeLab(
            m_dir.path(), test::osmPluginDirectory(), {QStringLiteral("--job-pkeys"), QStringLiteral("0x2000-0x2fff"), QStringLiteral("--slurm-names"), mapPath});
        QVERIFY2(lab, lab ? "" : qPrintable(lab.error().toString()));
        m_lab = std::move(*lab);
    }

    void discoversPartitionsPreviewsAndApprovesThroughTheService()
    {
        const int attemptsBefore = madPortAttempts();
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        remote::ServiceConnections *services = window.serviceConnections();
        QVERIFY(services);
        QVERIFY(services->connectAction()->parent());

        // File ▸ Connect to Fabric Service… asks for the address and a credential (kept as a
        // picture over the desk, WEFT_REMOTE_DIALOG_SCREENSHOT); the test then connects directly.
        QMenu *fileMenu = window.menuBar()->actions().value(0)->menu();
        QVERIFY(fileMenu && fileMenu->actions().contains(services->connectAction()));
        QVERIFY(fileMenu->actions().contains(services->disconnectAction()));
        QVERIFY(!services->disconnectAction()->isEnabled());
        services->connectAction()->trigger();
        auto *dialog = window.findChild<remote::ConnectServiceDialog *>();
        QVERIFY(dialog && QTest::qWaitForWindowExposed(dialog));
        auto *addressEdit = dialog->findChild<QLineEdit *>(QStringLiteral("serviceAddress"));
        auto *tokenEdit = dialog->findChild<QLineEdit *>(QStringLiteral("serviceToken"));
        QVERIFY(addressEdit && tokenEdit);
        QCOMPARE(tokenEdit->echoMode(), QLineEdit::Password);
        addressEdit->setText(QStringLiteral("127.0.0.1:%1").arg(m_lab->port));
        tokenEdit->setText(QString::fromLatin1(m_lab->adminToken));
        QCOMPARE(dialog->address(), addressEdit->text());
        QCOMPARE(dialog->credential().token, m_lab->adminToken);
        {
            QPixmap shot = window.grab();
            const QPixmap over = dialog->grab();
            QPainter painter(&shot);
            const QRect where((shot.width() - over.width()) / 2, (shot.height() - over.height()) / 3, over.width(), over.height());
            painter.drawPixmap(where.topLeft(), over);
            painter.setPen(QPen(window.palette().color(QPalette::Dark), 2));  // the frame a window manager would draw
            painter.drawRect(where.adjusted(-1, -1, 0, 0));
            painter.end();
            const QString dialogShot = qEnvironmentVariable("WEFT_REMOTE_DIALOG_SCREENSHOT", m_dir.filePath(QStringLiteral("connect-dialog.png")));
            QVERIFY(shot.save(dialogShot));
        }
        dialog->reject();

        // Connected with the admin's token; the certificate seen for the first time is pinned.
        QSignalSpy connected(services, &remote::ServiceConnections::connected);
        QSignalSpy discovered(&window, &MainWindow::discoveryFinished);
        services->connectTo(m_lab->url(), remote::ServiceCredential{m_lab->adminToken, {}, {}}, true);
        QVERIFY(connected.wait(60000));
        QVERIFY2(connected.first().at(0).toBool(), qPrintable(connected.first().at(1).toString()));
        const QByteArray pins = test::readAll(m_dir.filePath(QStringLiteral("known_services")));
        QVERIFY2(pins.contains(QStringLiteral("127.0.0.1:%1 ").arg(m_lab->port).toUtf8()), pins.constData());
        QVERIFY(discovered.count() > 0 || discovered.wait(120000));
        QVERIFY2(discovered.first().at(0).toBool(), qPrintable(discovered.first().at(1).toString()));
        QVERIFY(test::waitForScene(window, 60000));
        const Fabric &lab = m_lab->tree.generated.fabric;
        QVERIFY(window.fabric());
        QCOMPARE(window.fabric()->switches().size(), lab.switches().size());
        QCOMPARE(window.fabric()->channelAdapterCount(), lab.channelAdapterCount());
        QCOMPARE(window.fabric()->links().size(), lab.links().size());
        FabricSession *session = window.document()->session();
        QVERIFY(session->isLive());
        QVERIFY(session->currentTables());
        QVERIFY(session->remoteTarget().has_value());
        QVERIFY2(session->commitTargetText().contains(QStringLiteral("subnet lab")), qPrintable(session->commitTargetText()));

        // Two partitions, previewed with pftree and approved.
        PartitionPanel *partitions = window.partitionPanel();
        QVERIFY(partitions->createPartition(QStringLiteral("red"), QStringLiteral("0x0001")).ok());
        QVERIFY(partitions->createPartition(QStringLiteral("blue"), QStringLiteral("0x0002")).ok());
        const std::vector<NodeIndex> red = test::everyOtherHost(*window.fabric(), 0);
        QVERIFY(test::dropHostsOnPartition(window, red, 0x0001));
        QVERIFY(test::dropHostsOnPartition(window, test::everyOtherHost(*window.fabric(), 1), 0x0002));
        QVERIFY(runPreviewAndWait(window, QStringLiteral("pftree"), 120000));
        DeskDocks::raise(window.diffDock());
        const long long reviewedSmps = session->plan()->review.diff.smps();
        QVERIFY(reviewedSmps > 0);
        discovered.clear();
        const std::optional<CommitReport> report = test::clickApprove(window);
        QVERIFY2(report, "no commit report");
        QVERIFY2(report->ok(), qPrintable(report->toText()));
        QCOMPARE(report->diff.smps(), reviewedSmps);  // what the review showed is what went out

        // The desk reads the fabric again through the service, and shows what the switches hold.
        QVERIFY(discovered.count() > 0 || discovered.wait(120000));
        QVERIFY(!session->isDiscovering() || QTest::qWaitFor([&] { return !session->isDiscovering(); }, 60000));
        Result<Fabric> live = test::discoverWithIbnetdiscover(*m_lab->sim, m_dir.filePath(QStringLiteral("after.topo")));
        QVERIFY2(live, live ? "" : qPrintable(live.error().toString()));
        Result<ForwardingTables> installed = test::installedTables(*m_lab->sim, *live);
        QVERIFY2(installed, installed ? "" : qPrintable(installed.error().toString()));
        QVERIFY(session->currentTables());
        const QStringList differences = compareReadBack(*live, *session->currentTables(), *installed, PKeyTables{}, PKeyTables{});
        QVERIFY2(differences.isEmpty(), qPrintable(differences.join(QLatin1Char('\n'))));
        const Guid redPort = window.fabric()->port(window.fabric()->portOf(red.front(), 1)).guid;
        const PortIndex onLive = live->portByGuid(redPort);
        QVERIFY(onLive != kNoIndex);
        const auto pkeys = m_lab->sim->runClient(QStringLiteral("smpquery"), {QStringLiteral("pkeys"), QString::number(live->port(onLive).lid), QStringLiteral("1")});
        QVERIFY2(pkeys && pkeys->exitCode == 0, qPrintable(test::describe(pkeys)));
        QVERIFY2(test::smpqueryPKeys(pkeys->out).count(0x8001), pkeys->out.constData());

        // The journal on the service names the token that approved.
        const test::HttpAnswer journal = test::httpsCall(m_lab->cert, m_lab->url() + QStringLiteral("/api/v1/journal"), "GET", m_lab->viewerToken);
        const QJsonArray entries = journal.json().value(QStringLiteral("entries")).toArray();
        QVERIFY(!entries.isEmpty());
        QCOMPARE(entries.last().toObject().value(QStringLiteral("user")).toString(), QStringLiteral("alice-admin"));

        // A second service (another subnet's, here the same lab under another name) joins the
        // switcher; the first is made current again from it.
        QJsonObject other = QJsonDocument::fromJson(test::readAll(m_lab->target)).object();
        other.insert(QStringLiteral("subnet"), QStringLiteral("lab-b"));
        const QString otherTarget = m_dir.filePath(QStringLiteral("subnet-b.json"));
        QVERIFY(writeFileAtomically(otherTarget, QJsonDocument(other).toJson(), false));
        auto second = test::startService(*m_lab, otherTarget, QStringLiteral("serve-b.log"),
                                         {QStringLiteral("--history"), m_dir.filePath(QStringLiteral("history-b"))});
        QVERIFY2(second, second ? "" : qPrintable(second.error().toString()));
        QVERIFY(QTest::qWaitFor([&] {
            return test::httpsCall(m_lab->cert, QStringLiteral("https://127.0.0.1:%1/api/v1/fabric").arg(second->second), "GET", m_lab->viewerToken).status == 200;
        },
                                120000));
        connected.clear();
        discovered.clear();
        services->connectTo(QStringLiteral("127.0.0.1:%1").arg(second->second), remote::ServiceCredential{m_lab->viewerToken, {}, {}}, true);
        QVERIFY(connected.wait(60000));
        QVERIFY2(connected.first().at(0).toBool(), qPrintable(connected.first().at(1).toString()));
        QCOMPARE(services->serviceCount(), 2);
        QCOMPARE(services->switcher()->count(), 3);  // the local fabric and the two subnets
        QVERIFY2(services->switcher()->currentText().startsWith(QStringLiteral("lab-b")), qPrintable(services->switcher()->currentText()));
        QVERIFY(discovered.count() > 0 || discovered.wait(120000));
        discovered.clear();
        services->makeCurrent(0);
        QVERIFY2(services->switcher()->currentText().startsWith(QStringLiteral("lab ")), qPrintable(services->switcher()->currentText()));
        QVERIFY2(session->commitTargetText().contains(QStringLiteral("subnet lab ")), qPrintable(session->commitTargetText()));
        QVERIFY(discovered.count() > 0 || discovered.wait(120000));
        QVERIFY(test::waitForScene(window, 60000));
        // Discovered afresh, the desk shows the partitions the ports hold, by their names.
        std::vector<QString> names;
        for (const Partition &p : window.tenancy().partitions)
            names.push_back(p.name);
        QVERIFY2(std::count(names.begin(), names.end(), QStringLiteral("red")) == 1 && std::count(names.begin(), names.end(), QStringLiteral("blue")) == 1,
                 qPrintable(QStringList(names.begin(), names.end()).join(QLatin1Char(' '))));
        const QString label = window.diffReview()->findChild<QLabel *>(QStringLiteral("commitTargetLabel"))->text();
        QVERIFY2(label.contains(QStringLiteral("fabric service at 127.0.0.1:%1").arg(m_lab->port)), qPrintable(label));

        // Port counters come from the service's ticks (Fabric ▸ Sample Port Counters).
        TelemetrySampler *sampler = session->sampler();
        QVERIFY(sampler->hasSource());
        QSignalSpy sampled(sampler, &TelemetrySampler::sampled);
        if (!sampler->isRunning())
            window.telemetryAction()->trigger();
        QVERIFY(sampler->isRunning());
        QVERIFY(sampled.count() > 0 || sampled.wait(30000));
        QVERIFY(!sampler->latest().empty());
        QCOMPARE(sampler->latest().front().portIndex == kNoIndex, false);

        const QString shot = qEnvironmentVariable("WEFT_REMOTE_DESK_SCREENSHOT", m_dir.filePath(QStringLiteral("remote-desk.png")));
        QCoreApplication::processEvents();
        QVERIFY(window.grab().save(shot));

        // Disconnect: the desk works locally again, the other service still in the switcher, and
        // nothing local is read unasked.
        sampler->stop();
        QVERIFY(services->disconnectAction()->isEnabled());
        services->disconnectAction()->trigger();
        QCOMPARE(services->serviceCount(), 1);
        QCOMPARE(services->currentService(), -1);
        QCOMPARE(services->switcher()->currentIndex(), 0);
        QVERIFY2(services->switcher()->itemText(1).startsWith(QStringLiteral("lab-b")), qPrintable(services->switcher()->itemText(1)));
        QVERIFY(!session->remoteTarget());
        QVERIFY(!sampler->hasSource());
        QVERIFY(!services->disconnectAction()->isEnabled());
        QVERIFY(!session->isDiscovering());

        // Nothing of this opened, or tried to open, a MAD port here.
        QCOMPARE(madPortAttempts(), attemptsBefore);
        second->first->terminate();
        second->first->waitForFinished(10000);
    }

    void slurmJobsAreTenants()
    {
        // A job started through the service (as the prolog starts it) is a tenant on the desk,
        // read-only, its hosts listed; chosen, its hosts are selected on the map and its links'
        // load shown; after the epilog's DELETE it is gone.
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        remote::ServiceConnections *services = window.serviceConnections();
        QSignalSpy connected(services, &remote::ServiceConnections::connected);
        QSignalSpy discovered(&window, &MainWindow::discoveryFinished);
        services->connectTo(m_lab->url(), remote::ServiceCredential{m_lab->viewerToken, {}, {}}, true);
        QVERIFY(connected.wait(60000));
        QVERIFY2(connected.first().at(0).toBool(), qPrintable(connected.first().at(1).toString()));
        QVERIFY(discovered.count() > 0 || discovered.wait(120000));
        QVERIFY(test::waitForScene(window, 60000));
        PartitionPanel *partitions = window.partitionPanel();
        TenantListModel *tenants = partitions->tenantModel();
        QVERIFY(tenants->jobs().empty());

        QElapsedTimer timer;
        timer.start();
        const QString jobUrl = m_lab->url() + QStringLiteral("/api/v1/jobs/4242");
        const test::HttpAnswer started = test::httpsCall(m_lab->cert, jobUrl, "PUT", m_lab->adminToken, R"({"nodes": "node[02-03,07,11]", "user": "carol"})");
        QVERIFY2(started.status == 200, started.body.constData());
        services->refreshJobs();
        QVERIFY(QTest::qWaitFor([&] { return tenants->indexOfJob(QStringLiteral("4242")).isValid(); }, 20000));
        const QModelIndex row = tenants->indexOfJob(QStringLiteral("4242"));
        const JobTenant *job = tenants->jobAt(row);
        QVERIFY(job);
        QCOMPARE(job->hosts, (QStringList{QStringLiteral("node02"), QStringLiteral("node03"), QStringLiteral("node07"), QStringLiteral("node11")}));
        QCOMPARE(job->user, QStringLiteral("carol"));
        QVERIFY(job->started.isValid());
        QVERIFY2(job->pkey >= 0x2000 && job->pkey <= 0x2fff, qPrintable(pkeyText(job->pkey)));
        QVERIFY2(tenants->data(row).toString().startsWith(QStringLiteral("Slurm job 4242")), qPrintable(tenants->data(row).toString()));
        QVERIFY(!(tenants->flags(row) & Qt::ItemIsDragEnabled));
        QCOMPARE(tenants->rowCount(row), 4);
        std::set<NodeIndex> jobHosts;
        for (Guid port : tenants->portsAt(row)) {
            const PortIndex p = window.fabric()->portByGuid(port);
            QVERIFY(p != kNoIndex);
            jobHosts.insert(window.fabric()->port(p).node);
        }
        std::set<QString> descriptions;
        for (NodeIndex n : jobHosts)
            descriptions.insert(window.fabric()->node(n).description);
        std::set<QString> expected;
        for (const char *name : {"node02", "node03", "node07", "node11"})
            expected.insert(m_hostOf[QLatin1String(name)]);
        QCOMPARE(descriptions, expected);

        // Chosen: its hosts are the map's selection, and the cables show the load of its links.
        DeskDocks::raise(window.findChild<QDockWidget *>(QStringLiteral("partitionsDock")));
        partitions->tenantView()->selectionModel()->select(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        const std::vector<NodeIndex> selected = window.fabricScene()->selectedNodes();
        QCOMPARE(std::set<NodeIndex>(selected.begin(), selected.end()), jobHosts);
        QVERIFY(QTest::qWaitFor([&] { return window.mapOverlays()->cableLoadsOwner() == partitions; }, 20000));
        const std::vector<double> loads = jobLinkLoads(*window.fabric(), *window.document()->session()->currentTables(), job->ports);
        // Hosts on three leaves: their traffic crosses links between switches, and not every one.
        const Fabric &shown = *window.fabric();
        std::size_t loaded = 0, betweenSwitches = 0;
        for (const Link &link : shown.links()) {
            if (shown.node(shown.port(link.a).node).type != NodeType::Switch || shown.node(shown.port(link.b).node).type != NodeType::Switch)
                continue;
            ++betweenSwitches;
            if (loads[std::size_t(link.a)] > 0 || loads[std::size_t(link.b)] > 0)
                ++loaded;
        }
        QVERIFY2(loaded > 0 && loaded < betweenSwitches, qPrintable(QStringLiteral("%1 of %2").arg(loaded).arg(betweenSwitches)));
        if (const QString shot = qEnvironmentVariable("WEFT_REMOTE_JOBS_SCREENSHOT"); !shot.isEmpty()) {
            QCoreApplication::processEvents();
            QVERIFY(window.grab().save(shot));
        }

        const test::HttpAnswer ended = test::httpsCall(m_lab->cert, jobUrl, "DELETE", m_lab->adminToken, R"({"user": "carol"})");
        QVERIFY2(ended.status == 200, ended.body.constData());
        services->refreshJobs();
        QVERIFY(QTest::qWaitFor([&] { return !tenants->indexOfJob(QStringLiteral("4242")).isValid(); }, 20000));
        QVERIFY(window.mapOverlays()->cableLoadsOwner() != partitions);
        qInfo("job shown and gone in %lld ms", timer.elapsed());
        services->disconnectAction()->trigger();
    }

    void aChangedCertificateIsRefused()
    {
        // The pin on file no longer matches: nothing is sent, and the operator is told.
        const QString pins = m_dir.filePath(QStringLiteral("known_services"));
        QVERIFY(writeFileAtomically(pins, QStringLiteral("127.0.0.1:%1 00:11:22\n").arg(m_lab->port).toUtf8(), false));
        remote::ServiceClient client(m_lab->url(), remote::ServiceCredential{m_lab->adminToken, {}, {}}, pins);
        const Result<remote::ServiceContact> contact = client.contact();
        QVERIFY2(contact, contact ? "" : qPrintable(contact.error().toString()));
        QCOMPARE(contact->pin, remote::ServiceContact::Pin::Changed);
        QVERIFY(contact->status.isEmpty());
        const Result<QJsonObject> refused = client.call("GET", QStringLiteral("fabric"));
        QVERIFY(!refused);
        // A viewer's token is refused a plan, in the service's words.
        QVERIFY(client.pin(contact->fingerprint));
        remote::ServiceClient viewer(m_lab->url(), remote::ServiceCredential{m_lab->viewerToken, {}, {}}, pins);
        const Result<QJsonObject> plan = viewer.call("POST", QStringLiteral("plans"), QJsonObject{{QStringLiteral("format"), QStringLiteral("weft-project")}});
        QVERIFY(!plan);
        QVERIFY2(plan.error().message.contains(QStringLiteral("403")) && plan.error().message.contains(QStringLiteral("operator")),
                 qPrintable(plan.error().message));
    }

    void cleanupTestCase() { m_lab.reset(); }
};

QTEST_MAIN(TestLabRemoteDesk)
#include "tst_lab_remote_desk.moc"
