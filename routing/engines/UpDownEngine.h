#pragma once
// OpenSM 3.3.23's "updn": Up*/Down* routing. Roots are found as OpenSM finds them without a
// root GUID file: a switch is a root when its least-hop distances to the channel adapters form
// one dominant bar (one hop count reached by more than 90% of the CAs and none other by more
// than 5%). Switches are ranked by distance from the nearest root; a link goes "up" towards a
// lower rank (equal ranks: towards the larger GUID; between two roots always up). Hop counts
// are then recomputed per destination switch by a breadth-first search that never turns from
// down to up, and the tables are filled by the same least-loaded port choice as minhop.
// No roots found means refusal, where OpenSM falls back to minhop.

#include "RoutingEngine.h"
#include "SwitchGraph.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace weft {

class UpDownEngine : public RoutingEngine
{
public:
    QString name() const override { return QStringLiteral("updn"); }
    QString description() const override;
    Status prepare(const Fabric &fabric, const Tenancy &tenancy, const RoutingOptions &options) override;
    Result<Routing> route(const RoutingOptions &options) override;

    // Switch indices (fabric switch order) chosen as roots by the last prepare().
    const std::vector<int> &roots() const { return m_roots; }
    // Rank per switch (fabric switch order): 0 for roots, distance to the nearest root
    // otherwise, UINT32_MAX if no root is reachable. A hop goes up when it reaches a lower
    // rank, or an equal rank with a larger node GUID.
    const std::vector<std::uint32_t> &ranks() const { return m_ranks; }

private:
    std::optional<routing::SwitchGraph> m_graph;
    std::vector<int> m_roots;
    std::vector<std::uint32_t> m_ranks;
};

}  // namespace weft
