#pragma once
// P-SSSP ("sssp") and P²-SSSP ("sssp2") of Hoefler, Schneider and Lumsdaine, as spec 002 §3
// states them: one single-destination Dijkstra per destination end port (per ordered pair for
// P²-SSSP) over the directed channel multigraph, every channel weighted by the routes already on
// it, so that routes are balanced globally rather than per switch as minhop does.
//
// Written down, so that the same fabric always gives byte-identical tables (spec §3.2.2, §3.7):
// - cost of a path: (hops, sum of directed route counts) compared lexicographically by default,
//   which keeps every route minimal; `PaperP2` (P² + load, OpenSM's weights) and
//   `PaperUnconstrained` (1 + load) on request;
// - among equally cheap next hops: the one whose far node has the lowest fabric node index, then
//   the lowest port. `PaperExample` first compares a third component, the sum of both
//   directions' route counts: the rule that reproduces the paper's network X (spec §8.4);
// - destinations in ascending port-GUID order, or OpenSM's dfsssp order;
// - switch LIDs routed after all end ports, their routes counted apart so that they do not
//   disturb the end-port balance.
//
// Deadlock: the channel dependency graph of all end-port pairs is checked. Where it has a cycle
// the pairs are layered onto service levels as OpenSM's dfsssp does: all pairs start on SL 0;
// while a layer's graph has a cycle, the pairs behind the cycle's dependency carried by the
// fewest pairs move to the next layer. The result is per (source, destination) pair, which
// Routing's per-P_Key table cannot hold: read it with serviceLevel().

#include "RoutingEngine.h"
#include "SwitchGraph.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace weft {

struct SsspSettings
{
    enum class Cost : std::uint8_t { Lexicographic, PaperP2, PaperUnconstrained };
    enum class TieBreak : std::uint8_t { LowestHead, PaperExample };
    enum class Order : std::uint8_t { PortGuid, OpenSm };

    Cost cost = Cost::Lexicographic;
    TieBreak tieBreak = TieBreak::LowestHead;
    Order order = Order::PortGuid;
    bool layerVirtualLanes = true;   // break credit loops with service levels (dfsssp)
    int maxServiceLevels = 8;        // layers available; more needed is a routing failure
    int maxLayeredEndPorts = 1024;   // layering keeps every pair's path; beyond this, only warn
    int perPairEndPortLimit = 2000;  // sssp2 refuses larger fabrics (spec §3.3)
};

class SsspEngine : public RoutingEngine
{
public:
    enum class Variant : std::uint8_t { PerDestination, PerPair };

    explicit SsspEngine(Variant variant = Variant::PerDestination, SsspSettings settings = {});

    QString name() const override;
    QString description() const override;
    Status prepare(const Fabric &fabric, const Tenancy &tenancy, const RoutingOptions &options) override;
    Result<Routing> route(const RoutingOptions &options) override;

    // After a successful route(): end-port routes per directed channel, indexed by the fabric
    // PortIndex the channel leaves from (switch ports only; 0 elsewhere). Switch-LID routes are
    // not counted. This is l(c) of spec §2.3.
    const std::vector<std::uint64_t> &channelLoads() const { return m_channelLoads; }
    // Whether the end-port routes had a credit loop before layering, and the layers used.
    bool hadCreditLoops() const { return m_hadCreditLoops; }
    int serviceLevelsUsed() const { return m_serviceLevelsUsed; }
    // SL of the path from one end-port LID to another; 0 for unknown LIDs and when no layering
    // was needed.
    int serviceLevel(Lid source, Lid destination) const;

private:
    Variant m_variant;
    SsspSettings m_settings;
    std::optional<routing::SwitchGraph> m_graph;
    std::vector<PortIndex> m_slotPort;  // fabric port of every switch slot
    std::vector<std::uint64_t> m_channelLoads;
    std::size_t m_fabricPorts = 0;
    bool m_hadCreditLoops = false;
    int m_serviceLevelsUsed = 1;
    std::vector<int> m_endPortOfLid;     // LID -> end-port index, -1
    std::vector<std::uint8_t> m_pairLevels;  // source * endPorts + destination; empty: all 0
};

}  // namespace weft
