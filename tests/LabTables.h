#pragma once
// The forwarding tables the real OpenSM installs on a fabric, as the real dump_lfts reads them
// back from the simulated switches, and a readable comparison with Weft's own tables. Shared by
// the lab tests that hold Weft's routing up against OpenSM's.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "LftDump.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QDir>
#include <QString>
#include <QStringList>

namespace weft::test {

// Writes `fabric` as an ibsim net file in `dir` (the subnet manager on the first end node),
// starts ibsim and OpenSM with `openSmArgs`, waits until OpenSM's log says "<engine> tables
// configured", and returns what dump_lfts then reads from every switch (its raw output in
// `rawDump` when given).
inline Result<ForwardingTables> openSmInstalledTables(const Fabric &fabric, const QString &dir, const QStringList &openSmArgs,
                                                      const QString &engine, QByteArray *rawDump = nullptr)
{
    const QString net = QDir(dir).filePath(QStringLiteral("fabric.net"));
    const NodeIndex smHost = fabric.endNodes().front();
    if (Status s = writeFileAtomically(net, writeIbsimNet(fabric, smHost)); !s)
        return s.error();
    SimulatedFabric::Options options;
    options.netFile = net;
    options.smNode = fabric.node(smHost).name;
    options.openSmArgs = openSmArgs;
    SimulatedFabric sim(options);
    if (Status s = sim.start(); !s)
        return s.error();
    if (Status s = sim.waitForOpenSmLog(engine + QStringLiteral(" tables configured"), 30000); !s)
        return s.error();
    const Result<SimulatedFabric::ClientResult> dump = sim.runClient(QStringLiteral("dump_lfts"), {});
    if (!dump)
        return dump.error();
    if (dump->exitCode != 0)
        return Error{{}, 0, QStringLiteral("dump_lfts exited with %1: %2").arg(dump->exitCode).arg(QString::fromUtf8(dump->err))};
    if (rawDump)
        *rawDump = dump->out;
    return readLftDump(dump->out, QStringLiteral("dump_lfts"), &fabric);
}

// The first `limit` entries where the switches' tables differ from Weft's, in words.
inline QString tableDifferences(const ForwardingTables &weft, const ForwardingTables &switches, int limit = 12)
{
    QStringList lines;
    int count = 0;
    for (const SwitchForwardingTable &sw : switches.switches()) {
        const SwitchForwardingTable *mine = weft.find(sw.guid);
        if (!mine) {
            lines << QStringLiteral("switch 0x%1 missing from Weft's tables").arg(sw.guid, 0, 16);
            ++count;
            continue;
        }
        const Lid top = std::max(sw.lft.top(), mine->lft.top());
        for (Lid lid = 0; lid <= top; ++lid) {
            if (sw.lft.port(lid) == mine->lft.port(lid))
                continue;
            if (++count <= limit)
                lines << QStringLiteral("switch 0x%1 (%2) LID %3: switch holds port %4, Weft port %5")
                             .arg(sw.guid, 0, 16).arg(mine->description).arg(lid).arg(sw.lft.port(lid)).arg(mine->lft.port(lid));
        }
    }
    if (count > limit)
        lines << QStringLiteral("... %1 differences in all").arg(count);
    return lines.join(QLatin1Char('\n'));
}

} // namespace weft::test
