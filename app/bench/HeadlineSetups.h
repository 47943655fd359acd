#pragma once
// What `weft bench results`' sections share: the seeds' section names, the generated fabrics
// and flows they set their rows on, and the seeded draws (our own mapping of mt19937_64, so a
// re-run on another library gives the same figures). Each seed's rows are in its own file,
// Headline<Seed>.cpp; headlineResults (BenchResults.cpp) runs them in RESULTS.md's order.

#include "BenchResults.h"
#include "FabricGenerator.h"
#include "FluidThroughput.h"
#include "RoutingEngine.h"
#include "Tenancy.h"

#include <QString>

#include <cstdint>
#include <random>
#include <vector>

namespace weft::cli::headline {

inline const QString kSeedPftree = QStringLiteral("000 pFTree");
inline const QString kSeedVswitch = QStringLiteral("001 vSwitch");
inline const QString kSeedPsssp = QStringLiteral("002 P-SSSP");
inline const QString kSeedThesis = QStringLiteral("003 thesis");
inline const QString kSeedKeys = QStringLiteral("004 routing keys");

// A uniform draw below `bound` (random() % bound).
std::uint64_t draw(std::mt19937_64 &random, std::uint64_t bound);
// `count` of `items` picked without replacement, in their original order.
std::vector<int> pick(std::vector<int> items, int count, std::mt19937_64 &random);

// Generated fabrics: an XGFT ("2;18,18;18,1"), or the m-port-n-tree of `radix`-port switches
// less `removeLinks` random switch-to-switch links (seed 1); optionally every host a hypervisor
// of `vfs` virtual functions.
Result<GeneratedFabric> xgftFabric(const QString &spec, bool hypervisors = false, int vfs = 0);
Result<GeneratedFabric> radixFabric(int radix, int levels, int removeLinks = 0, bool hypervisors = false, int vfs = 0);

// Host `host`'s port (its port 1).
PortIndex hostPort(const GeneratedFabric &g, int host);
// A partition of `hosts`, every one a full member.
Partition fullPartition(const QString &name, std::uint16_t pkey, IsolationPolicy policy, const GeneratedFabric &g,
                        const std::vector<int> &hosts);
// `engine` routed on `fabric`; "pftree-base" is pFTree's Base algorithm (the paper's pFTree),
// every other name an engine of routeFabric (pftree is pFTree-Ext).
Result<Routing> routeWith(const QString &engine, const Fabric &fabric, const Tenancy &tenancy);
// Σ of the fluid rates of flows [0, count) when all `flows` run together, or with `slowest`
// the least of them (what an all-to-all waits for).
Result<double> rateOfFirst(const Fabric &fabric, const ForwardingTables &tables, const std::vector<FluidFlow> &flows,
                           std::size_t count, bool slowest = false);
// Every ordered pair of `hosts`, one unit each.
std::vector<FluidFlow> allToAll(const GeneratedFabric &g, const std::vector<int> &hosts);
// The mean eBB of `tables` over `samples` one-way random bisections in the papers' model (every
// link equal), among `participants` (port GUIDs; empty: every end port), on two threads.
Result<double> paperEbb(const Fabric &fabric, const ForwardingTables &tables, int samples,
                        const std::vector<Guid> &participants = {});

// The sections, each appending its rows; headlineResults runs them in RESULTS.md's order.
// 000 pFTree (HeadlinePftree.cpp)
Status pftreeFig7(std::vector<HeadlineRow> &rows, bool quick);
Status pftreeTable3(std::vector<HeadlineRow> &rows, bool quick);
Status pftreeTable4(std::vector<HeadlineRow> &rows, bool quick);
Status pftreeWeighted(std::vector<HeadlineRow> &rows, bool quick);
// 001 vSwitch (HeadlineVswitch.cpp)
Status vswitchRows(std::vector<HeadlineRow> &rows, bool quick);
Status vswitchFig8(std::vector<HeadlineRow> &rows, bool quick);
// 002 P-SSSP (HeadlinePsssp.cpp)
Status pssspRows(std::vector<HeadlineRow> &rows, bool quick);
// 003 the thesis (HeadlineThesis.cpp)
Status wftreeRows(std::vector<HeadlineRow> &rows, bool quick);
Status reconfigurationRows(std::vector<HeadlineRow> &rows, bool quick);
// 004 routing keys (HeadlineKeys.cpp)
Status keysRows(std::vector<HeadlineRow> &rows, bool quick);

}  // namespace weft::cli::headline
