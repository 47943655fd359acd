// Telemetry in the desk against the real ibsim and OpenSM: the test runs its own binary as a
// client of the simulation (libumad2sim preloaded, offscreen platform); there the main window
// discovers the fabric (Fabric > Discover's worker), starts Fabric > Sample Port Counters at a
// 1 s interval and waits for two ticks of rates. Meanwhile the parent advances one switch
// port's PortXmitData through ibsim's console (PerformanceSet), as the lab's traffic driver
// does: the dock's busiest link must be that port's cable, and the map colours it hottest.

#include "FabricScene.h"
#include "GeneratedFabrics.h"
#include "LabTools.h"
#include "MainWindow.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TelemetryDock.h"
#include "TelemetrySampler.h"
#include "TopologyFile.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>
#include <memory>

using namespace weft;

namespace {

const QLatin1String kChildFlag("--telemetry-child");

int childFails(const QString &message)
{
    fprintf(stderr, "telemetry child: %s\n", qPrintable(message));
    return 1;
}

// The GUI half, inside the simulation: argv = flag, hot node GUID, hot port, screenshot path.
int runChild(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("WeftTests"));
    QCoreApplication::setApplicationName(QStringLiteral("telemetry-desk-lab"));
    QSettings().clear();
    if (argc < 4)
        return childFails(QStringLiteral("usage: %1 GUID PORT [PICTURE]").arg(QString::fromLocal8Bit(kChildFlag.data())));
    bool ok = false;
    const Guid hotGuid = QString::fromLocal8Bit(argv[2]).toULongLong(&ok, 16);
    const int hotPort = QString::fromLocal8Bit(argv[3]).toInt();
    const QString picture = argc > 4 ? QString::fromLocal8Bit(argv[4]) : QString();

    MainWindow window;
    if (window.telemetryAction()->isEnabled())
        return childFails(QStringLiteral("Sample Port Counters is enabled before any fabric was discovered"));
    QSignalSpy discovered(&window, &MainWindow::discoveryFinished);
    if (!window.startDiscovery(QString(), 0, false))
        return childFails(QStringLiteral("the discovery did not start"));
    if (discovered.isEmpty() && !discovered.wait(120000))
        return childFails(QStringLiteral("the discovery did not finish"));
    if (!discovered.at(0).at(0).toBool())
        return childFails(QStringLiteral("the discovery failed: ") + discovered.at(0).at(1).toString());
    if (!window.isSceneReady()) {
        QSignalSpy ready(&window, &MainWindow::sceneReady);
        if (!ready.wait(60000))
            return childFails(QStringLiteral("the map was not drawn"));
    }
    if (!window.telemetryAction()->isEnabled())
        return childFails(QStringLiteral("Sample Port Counters is disabled on the discovered fabric: ") + window.telemetryAction()->toolTip());

    TelemetrySampler *sampler = window.telemetrySampler();
    sampler->setInterval(1.0);
    QSignalSpy sampled(sampler, &TelemetrySampler::sampled);
    QSignalSpy failed(sampler, &TelemetrySampler::failed);
    window.telemetryAction()->trigger();
    if (!sampler->isRunning())
        return childFails(QStringLiteral("the sampler did not start"));
    QElapsedTimer clock;
    clock.start();
    while (sampled.count() < 2 && failed.isEmpty() && clock.elapsed() < 60000)
        QTest::qWait(100);
    if (!failed.isEmpty())
        return childFails(QStringLiteral("the sampler failed: ") + failed.at(0).at(0).toString());
    if (sampled.count() < 2)
        return childFails(QStringLiteral("fewer than two ticks in 60 s"));
    sampler->stop();

    const Fabric &f = *window.fabric();
    const std::vector<TelemetryDock::LinkRow> &rows = window.telemetryDock()->rows();
    if (rows.empty())
        return childFails(QStringLiteral("the dock lists no link"));
    const Link &busiest = f.links()[std::size_t(rows.front().link)];
    bool hotEnd = false;
    QStringList ends;
    for (PortIndex p : {busiest.a, busiest.b}) {
        const Node &node = f.node(f.port(p).node);
        hotEnd = hotEnd || (node.guid == hotGuid && f.port(p).number == hotPort);
        ends << QStringLiteral("%1 %2[%3]").arg(node.description, guidText(node.guid)).arg(f.port(p).number);
    }
    fprintf(stderr, "busiest link: %s, utilisation %.4f\n", qPrintable(ends.join(QStringLiteral(" <-> "))), rows.front().utilisation);
    if (!hotEnd)
        return childFails(QStringLiteral("the busiest link is not the cable of %1[%2]").arg(guidText(hotGuid)).arg(hotPort));
    if (!(rows.front().utilisation > 0))
        return childFails(QStringLiteral("the busiest link has no utilisation"));
    if (window.fabricScene()->linkColouring() != LinkColouring::Measured)
        return childFails(QStringLiteral("the map is not coloured by measured load"));
    if (window.fabricScene()->cableColour(rows.front().link) != FabricScene::hottestLoadColour())
        return childFails(QStringLiteral("the busiest cable is not drawn in the hottest colour"));
    if (!picture.isEmpty()) {
        window.resize(1600, 1000);
        window.telemetryDock()->selectLink(rows.front().link);
        QTest::qWait(200);
        if (!window.grab().save(picture))
            return childFails(QStringLiteral("cannot save the picture %1").arg(picture));
    }
    return 0;
}

}  // namespace

class TestTelemetryDeskLab : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void busiestLinkIsThePortDriven()
    {
        const QString openSm = test::openSmVersionProblem();
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        const QString missing = SimulatedFabric::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("integration tests need: ") + missing));

        GeneratorOptions options = test::shapeOptions({FabricShapeKind::SwitchRadix, 4, 2});
        options.linkSpeed = LinkSpeed::SDR;  // what ibsim reports
        const Fabric fabric = test::generateOrFail(options).fabric;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString net = dir.filePath(QStringLiteral("fabric.net"));
        const NodeIndex smHost = fabric.endNodes().front();
        QVERIFY(writeFileAtomically(net, writeIbsimNet(fabric, smHost)).ok());
        SimulatedFabric::Options so;
        so.netFile = net;
        so.smNode = fabric.node(smHost).name;
        so.openSmArgs = {QStringLiteral("-s"), QStringLiteral("0")};  // no periodic sweeps
        SimulatedFabric sim(so);
        const Status started = sim.start();
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().toString()));

        // The hot port: the first switch-to-switch cable's end at a switch, sending.
        PortIndex hot = kNoIndex;
        for (const Link &link : fabric.links())
            if (fabric.node(fabric.port(link.a).node).type == NodeType::Switch
                && fabric.node(fabric.port(link.b).node).type == NodeType::Switch) {
                hot = link.a;
                break;
            }
        QVERIFY(hot != kNoIndex);
        const Node &hotNode = fabric.node(fabric.port(hot).node);
        const QString at = QStringLiteral("PerformanceSet \"%1\"[%2] ").arg(hotNode.name).arg(fabric.port(hot).number);

        QProcess child;
        child.setProcessEnvironment(sim.clientEnvironment());
        child.setWorkingDirectory(sim.workDir());
        const QString picture = qEnvironmentVariable("WEFT_TELEMETRY_LAB_SHOT");
        QStringList args{kChildFlag, QString::number(hotNode.guid, 16), QString::number(fabric.port(hot).number)};
        if (!picture.isEmpty())
            args << picture;
        child.start(QCoreApplication::applicationFilePath(), args);
        QVERIFY(child.waitForStarted());
        // 4 MB every 0.2 s: 20 MB/s, well within a 4x SDR link, far above the MADs' own traffic.
        quint64 units = 0;
        QElapsedTimer clock;
        clock.start();
        while (!child.waitForFinished(200) && clock.elapsed() < 300000) {
            units += 1000000;
            QVERIFY(sim.simulatorCommand(at + QStringLiteral("PortCountersExtended.PortXmitData=%1").arg(units)).ok());
        }
        if (child.state() != QProcess::NotRunning) {
            child.kill();
            child.waitForFinished();
        }
        const QByteArray err = child.readAllStandardError();
        QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, err.constData());
        qInfo("%s", err.constData());
        sim.stop();
    }
};

int main(int argc, char **argv)
{
    if (argc > 1 && kChildFlag == QLatin1String(argv[1]))
        return runChild(argc, argv);
    QApplication app(argc, argv);
    TestTelemetryDeskLab test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_telemetry_desk_lab.moc"
