#pragma once
// OpenSM 3.3.23's fat-tree routing ("ftree", osm_ucast_ftree.c), reproduced so that on the
// same fabric (same GUIDs, port numbers and LIDs) the tables are the ones OpenSM computes,
// entry for entry. Configuration as OpenSM's defaults: no root/CN/IO GUID files (so every CA
// port is a compute node and the tree must be pure), no quasi-fat-tree indexing, LMC 0,
// connect_roots off.
//
// What it does, in OpenSM's order (spec 003 §2.12):
//  1. Rank: switches next to CAs are leaves; breadth-first ranks upwards; the switches furthest
//     from the CAs become roots (rank 0) and everything is re-ranked from them.
//  2. Port groups: parallel links to the same neighbour form one group, keyed by its LID.
//  3. Validate: ranks 2..8 levels, every CA on a leaf, equal up/down group counts and group
//     sizes per rank (a degraded tree is refused here, as OpenSM then falls back to minhop).
//  4. Index: tuples assigned breadth-first from the first leaf in OpenSM's switch order
//     (byte-swapped GUID, see openSmMapKey); port groups sorted by the neighbour's tuple; leaf
//     switches ordered by tuple.
//  5. Route each CN of each leaf (leaf port order): down-going entries by climbing through the
//     least-loaded up group (counter_down, then tuple) and its least-loaded port (first in
//     port order); up-going entries by descending every other down group in counter_up order,
//     taking its least-loaded port; non-main paths fill the other up groups without counting.
//     Missing CNs of a leaf are routed as dummies so that balance counts a full tree.
//  6. Route every switch's own LID the same way without counting (port 0 locally).
// LIDs nothing reaches stay kNoRoute.

#include "RoutingEngine.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace weft {

class FatTreeEngine : public RoutingEngine
{
public:
    FatTreeEngine();
    ~FatTreeEngine() override;

    QString name() const override { return QStringLiteral("ftree"); }
    QString description() const override;
    Status prepare(const Fabric &fabric, const Tenancy &tenancy, const RoutingOptions &options) override;
    Result<Routing> route(const RoutingOptions &options) override;

    // After a successful prepare(): per fabric switch (Fabric::switches() order), OpenSM's rank
    // (0 = roots, leaves the highest), and the node GUIDs of the leaf switches in routing order.
    std::vector<int> switchRanks() const;
    std::vector<Guid> leafOrder() const;

    struct Model;

private:
    std::unique_ptr<Model> m_model;
};

}  // namespace weft
