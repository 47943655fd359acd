// Integration: `weft check` as a client of the real ibsim, with the real OpenSM managing the
// subnet. The fabric as generated is its design; ibsim runs one of its leaf-to-spine cables at 1x:
// - the fabric checks clean (exit 0), alone and against the as-built `--save-design` writes;
// - against the generated design, that cable alone is below the design, named by both ends;
// - an error counter set through ibsim's console (PerformanceSet) during the window, over its
//   threshold on one port, is reported for that port alone, and so is its symbol error rate over
//   --ber-threshold; one under both is not;
// - a host's cable moved to another port of its leaf and another host's cable pulled (ibsim's
//   Link and Unlink) are reported as miswired and missing, each with the right nodes and ports.

#include "FabricGenerator.h"
#include "LabTools.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"
#include "WeftRunner.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <memory>

using namespace weft;

namespace {

QString weftBinary()
{
    return qEnvironmentVariable("WEFT_BINARY");
}

// The findings of a `weft check --json` run.
QJsonArray findingsOf(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object().value(QStringLiteral("findings")).toArray();
}

QStringList kindsOf(const QJsonArray &findings)
{
    QStringList kinds;
    for (const QJsonValue &f : findings)
        kinds << f.toObject().value(QStringLiteral("kind")).toString();
    return kinds;
}

// "GUID[port]" of each place of a finding.
QStringList placesOf(const QJsonObject &finding)
{
    QStringList places;
    for (const QJsonValue &v : finding.value(QStringLiteral("places")).toArray()) {
        const QJsonObject p = v.toObject();
        places << QStringLiteral("%1[%2]").arg(p.value(QStringLiteral("guid")).toString()).arg(p.value(QStringLiteral("port")).toInt(-1));
    }
    return places;
}

}  // namespace

class TestLabCheck : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<SimulatedFabric> m_sim;
    Fabric m_fabric;  // as generated: the design
    QString m_design;
    NodeIndex m_smHost = kNoIndex;

    std::pair<NodeIndex, int> m_narrow{kNoIndex, 0};      // the cable at 1x: one end,
    std::pair<NodeIndex, int> m_narrowPeer{kNoIndex, 0};  // and the other

    // In the record of switch `node`, the line of `port` (cabled to `peer`) says 1x: ibsim takes
    // a link's width and speed from the comment ibnetdiscover's form ends the line with ("4xSDR").
    static bool narrowCable(QByteArray *net, const QString &node, int port, const QString &peer)
    {
        // The record's header line names the node followed by a tab; port lines name peers with "[".
        const qsizetype at = net->indexOf("\"" + node.toUtf8() + "\"\t");
        if (at < 0)
            return false;
        const QByteArray start = "\n[" + QByteArray::number(port) + "]\t\"" + peer.toUtf8() + "\"[";
        const qsizetype found = net->indexOf(start, at);
        const qsizetype end = found < 0 ? -1 : net->indexOf('\n', found + 1);
        const qsizetype width = end < 0 ? -1 : net->lastIndexOf(" 4x", end);
        if (width < found)
            return false;
        (*net)[width + 1] = '1';
        return true;
    }

    QString place(NodeIndex node, int port) const { return QStringLiteral("%1[%2]").arg(guidText(m_fabric.node(node).guid)).arg(port); }

    // A host cable of a leaf, away from the SM's host: the leaf, its port and the host.
    struct HostCable
    {
        NodeIndex leaf = kNoIndex;
        int port = 0;
        NodeIndex host = kNoIndex;
    };
    std::vector<HostCable> hostCables() const
    {
        std::vector<HostCable> cables;
        for (NodeIndex host : m_fabric.endNodes()) {
            if (host == m_smHost)
                continue;
            const Port &p = m_fabric.port(m_fabric.portOf(host, 1));
            cables.push_back({m_fabric.port(p.remote).node, m_fabric.port(p.remote).number, host});
        }
        return cables;
    }

    Result<SimulatedFabric::ClientResult> check(const QStringList &args) const
    {
        return m_sim->runClient(weftBinary(), QStringList{QStringLiteral("check")} + args, 60000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString lab = test::labToolsProblem();
        QVERIFY2(lab.isEmpty(), qPrintable(lab));
        QVERIFY2(QFileInfo(weftBinary()).isExecutable(), "WEFT_BINARY must name the weft executable");
        // A 2-ary 2-tree on 6-port switches: every switch has two free ports for a cable to move to.
        GeneratorOptions options;
        options.shape = FabricShapeKind::KaryNTree;
        options.arity = 2;
        options.levels = 2;
        options.switchPorts = 6;
        options.linkSpeed = LinkSpeed::SDR;  // what ibsim reports
        Result<GeneratedFabric> generated = generateFabric(options);
        QVERIFY2(generated, generated ? "" : qPrintable(generated.error().toString()));
        m_narrow = test::lastUplink(*generated);
        m_fabric = std::move(generated->fabric);
        m_smHost = m_fabric.endNodes().front();
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_design = m_dir->filePath(QStringLiteral("design.topo"));
        QVERIFY(writeFileAtomically(m_design, writeIbnetdiscover(m_fabric), false).ok());
        // The lab's net file, with one leaf-to-spine cable at 1x where the design has 4x.
        QVERIFY(m_narrow.first != kNoIndex);
        const Port &up = m_fabric.port(m_fabric.portOf(m_narrow.first, m_narrow.second));
        m_narrowPeer = {m_fabric.port(up.remote).node, m_fabric.port(up.remote).number};
        QByteArray net = writeIbsimNet(m_fabric, m_smHost);
        QVERIFY(narrowCable(&net, m_fabric.node(m_narrow.first).name, m_narrow.second, m_fabric.node(m_narrowPeer.first).name));
        QVERIFY(narrowCable(&net, m_fabric.node(m_narrowPeer.first).name, m_narrowPeer.second, m_fabric.node(m_narrow.first).name));
        const QString netFile = m_dir->filePath(QStringLiteral("fabric.net"));
        QVERIFY(writeFileAtomically(netFile, net, false).ok());
        SimulatedFabric::Options so;
        so.netFile = netFile;
        so.smNode = m_fabric.node(m_smHost).name;
        so.openSmArgs = {QStringLiteral("-s"), QStringLiteral("0")};
        m_sim = std::make_unique<SimulatedFabric>(so);
        const Status started = m_sim->start();
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().toString()));
    }

    void cleanupTestCase()
    {
        if (m_sim)
            m_sim->stop();
    }

    void cleanFabricExitsZero()
    {
        QElapsedTimer timer;
        timer.start();
        const QString asBuilt = m_dir->filePath(QStringLiteral("as-built.topo"));
        auto run = check({QStringLiteral("--save-design"), asBuilt});
        QVERIFY2(run && run->exitCode == 0, qPrintable(test::describe(run)));
        QVERIFY2(run->out.contains("clean: no findings"), run->out.constData());
        QVERIFY2(run->out.contains("(identities, links, tables, partitions, counters, subnet-managers)"), run->out.constData());
        run = check({QStringLiteral("--design"), asBuilt, QStringLiteral("--json")});
        QVERIFY2(run && run->exitCode == 0, qPrintable(test::describe(run)));
        QVERIFY(QJsonDocument::fromJson(run->out).object().value(QStringLiteral("clean")).toBool());
        qInfo("two clean checks in %.1f s", timer.elapsed() / 1000.0);
    }

    // Against the generated design the one cable ibsim runs at 1x is below it, and nothing else.
    void narrowerCableBelowDesign()
    {
        auto run = check({QStringLiteral("--design"), m_design, QStringLiteral("--json")});
        QVERIFY2(run && run->exitCode == 1, qPrintable(test::describe(run)));
        const QJsonArray findings = findingsOf(run->out);
        QCOMPARE(kindsOf(findings), QStringList{QStringLiteral("link-below-design")});
        QStringList places = placesOf(findings.at(0).toObject());
        places.sort();
        QStringList expected{place(m_narrow.first, m_narrow.second), place(m_narrowPeer.first, m_narrowPeer.second)};
        expected.sort();
        QCOMPARE(places, expected);
        QVERIFY2(findings.at(0).toObject().value(QStringLiteral("message")).toString().contains(QLatin1String("runs at 1xSDR; the design has 4xSDR")),
                 run->out.constData());
    }

    // SymbolErrorCounter set during the window: 50 on one port (threshold 10), 5 on another.
    void errorCountersOverThresholdDuringWindow()
    {
        const QString thresholds = m_dir->filePath(QStringLiteral("error_thresholds"));
        QVERIFY(writeFileAtomically(thresholds, "# as ibqueryerrors reads them\nSymbolErrorCounter=10\n", false).ok());
        const std::vector<HostCable> cables = hostCables();
        QVERIFY(cables.size() >= 2);
        const HostCable over = cables[0], under = cables[1];

        QProcess weft;
        weft.setProcessEnvironment(m_sim->clientEnvironment());
        weft.setWorkingDirectory(m_sim->workDir());
        // 50 symbol errors in about 2 s on a 4xSDR port (10 Gb/s on the wire) are a rate of about
        // 2.5e-9, over 1e-9; 5 are about 2.5e-10, under it.
        weft.start(weftBinary(), {QStringLiteral("check"), QStringLiteral("--thresholds"), thresholds, QStringLiteral("--window"),
                                  QStringLiteral("2"), QStringLiteral("--ber-threshold"), QStringLiteral("1e-9"), QStringLiteral("--json")});
        QVERIFY(weft.waitForStarted());
        QByteArray err;
        QElapsedTimer waited;
        waited.start();
        while (!err.contains("reading them again") && weft.state() != QProcess::NotRunning && waited.elapsed() < 30000) {
            weft.waitForReadyRead(100);
            err += weft.readAllStandardError();
        }
        QVERIFY2(err.contains("reading them again"), err.constData());
        const QString at = QStringLiteral("PerformanceSet \"%1\"[%2] PortCounters.SymbolErrorCounter=%3");
        const Status set = m_sim->simulatorCommands({at.arg(m_fabric.node(over.leaf).name).arg(over.port).arg(50),
                                                     at.arg(m_fabric.node(under.leaf).name).arg(under.port).arg(5)});
        QVERIFY2(set.ok(), set.ok() ? "" : qPrintable(set.error().toString()));
        QVERIFY(weft.waitForFinished(30000));
        const QByteArray out = weft.readAllStandardOutput();
        QCOMPARE(weft.exitCode(), 1);
        const QJsonArray findings = findingsOf(out);
        QCOMPARE(kindsOf(findings), (QStringList{QStringLiteral("port-errors"), QStringLiteral("symbol-error-rate")}));
        const QJsonObject finding = findings.at(0).toObject();
        QCOMPARE(placesOf(finding), (QStringList{place(over.leaf, over.port), place(over.host, 1)}));
        QVERIFY2(finding.value(QStringLiteral("message")).toString().contains(QLatin1String("SymbolErrorCounter 50 > 10")), out.constData());
        const QJsonObject rate = findings.at(1).toObject();
        QCOMPARE(placesOf(rate), (QStringList{place(over.leaf, over.port), place(over.host, 1)}));
        QVERIFY2(rate.value(QStringLiteral("message")).toString().contains(QLatin1String("(50 symbol errors in ")), out.constData());
        QVERIFY2(rate.value(QStringLiteral("message")).toString().contains(QLatin1String(" at 4xSDR)")), out.constData());

        // Put back as found, so that the checks below judge the design alone.
        QVERIFY(m_sim->simulatorCommands({at.arg(m_fabric.node(over.leaf).name).arg(over.port).arg(0),
                                          at.arg(m_fabric.node(under.leaf).name).arg(under.port).arg(0)})
                    .ok());
    }

    // One host's cable moved to a free port of its leaf, another host's pulled.
    void movedAndMissingCablesNamed()
    {
        const std::vector<HostCable> cables = hostCables();
        const HostCable moved = cables[0];
        const HostCable pulled = cables.back();
        QVERIFY(moved.host != pulled.host);
        int free = 0;
        for (int p = 1; p <= m_fabric.node(moved.leaf).portCount && !free; ++p)
            if (m_fabric.port(m_fabric.portOf(moved.leaf, p)).remote == kNoIndex)
                free = p;
        QVERIFY(free);
        const QString leaf = m_fabric.node(moved.leaf).name;
        const Status changed = m_sim->simulatorCommands(
            {QStringLiteral("Unlink \"%1\"[%2]").arg(m_fabric.node(pulled.leaf).name).arg(pulled.port),
             QStringLiteral("Unlink \"%1\"[%2]").arg(leaf).arg(moved.port),
             QStringLiteral("Link \"%1\"[%2] \"%3\"[1]").arg(leaf).arg(free).arg(m_fabric.node(moved.host).name)});
        QVERIFY2(changed.ok(), changed.ok() ? "" : qPrintable(changed.error().toString()));

        // ibsim runs the console's commands as they come; the check is taken once it sees them.
        QJsonArray findings;
        for (int attempt = 0; attempt < 20; ++attempt) {
            auto run = check({QStringLiteral("--design"), m_design, QStringLiteral("--json")});
            QVERIFY2(run && (run->exitCode == 0 || run->exitCode == 1), qPrintable(test::describe(run)));
            findings = findingsOf(run->out);
            if (kindsOf(findings).contains(QStringLiteral("missing-cable")) && kindsOf(findings).contains(QStringLiteral("miswired-cable")))
                break;
            QTest::qWait(250);
        }
        QJsonObject miswired, missing;
        for (const QJsonValue &v : findings) {
            const QJsonObject f = v.toObject();
            const QString kind = f.value(QStringLiteral("kind")).toString();
            if (kind == QLatin1String("miswired-cable")) {
                QVERIFY2(miswired.isEmpty(), "one cable moved, one miswiring");
                miswired = f;
            } else if (kind == QLatin1String("missing-cable")) {
                QVERIFY2(missing.isEmpty(), "one cable pulled, one missing");
                missing = f;
            }
        }
        QVERIFY2(!miswired.isEmpty() && !missing.isEmpty(), qPrintable(kindsOf(findings).join(QLatin1Char(' '))));
        // Where the design has the moved cable, then where the fabric has it.
        QCOMPARE(placesOf(miswired), (QStringList{place(moved.leaf, moved.port), place(moved.host, 1), place(moved.leaf, free),
                                                  place(moved.host, 1)}));
        // The pulled host is gone from the fabric with its only cable: named by the design.
        QCOMPARE(placesOf(missing), (QStringList{place(pulled.leaf, pulled.port), place(pulled.host, 1)}));
        QVERIFY2(missing.value(QStringLiteral("message")).toString().contains(QLatin1String("is not in the fabric")),
                 qPrintable(missing.value(QStringLiteral("message")).toString()));
        QVERIFY2(!kindsOf(findings).contains(QStringLiteral("extra-cable")), qPrintable(kindsOf(findings).join(QLatin1Char(' '))));
    }
};

QTEST_GUILESS_MAIN(TestLabCheck)
#include "tst_lab_check.moc"
