#pragma once
// OpenSM 3.3.23's default engine, "minhop": every switch forwards each destination LID through
// one of its least-hop ports, the one carrying the fewest routes so far (lowest port number on
// ties). Destinations are visited in OpenSM's order (see openSmDestinationOrder), so the tables
// equal OpenSM's when OpenSM starts from empty tables, as it does on its first sweep. Deadlock
// freedom is not promised; that is what updn and ftree add.

#include "RoutingEngine.h"
#include "SwitchGraph.h"

#include <optional>

namespace weft {

class MinHopEngine : public RoutingEngine
{
public:
    QString name() const override { return QStringLiteral("minhop"); }
    QString description() const override;
    Status prepare(const Fabric &fabric, const Tenancy &tenancy, const RoutingOptions &options) override;
    Result<Routing> route(const RoutingOptions &options) override;

private:
    std::optional<routing::SwitchGraph> m_graph;
};

}  // namespace weft
