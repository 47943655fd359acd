#pragma once
// The fat-tree as OpenSM's ftree analysis sees it (ranks, port groups in index order, leaves in
// index order, compute nodes in leaf port order), exported for engines that route fat-trees
// their own way (pftree, pftree-wt, wftree). Computed by FatTreeEngine's analysis so that every
// fat-tree engine agrees on what the tree is; see FatTreeEngine.h for the steps.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "Result.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace weft::routing {

struct FatTreeLayout
{
    struct Cable
    {
        std::uint8_t lowerPort = 0;  // on the lower switch (nearer the leaves)
        std::uint8_t upperPort = 0;  // on the upper switch (nearer the roots)
    };

    // Parallel cables between one lower and one upper switch; a pure tree has no others.
    struct Group
    {
        int lower = -1;  // switch indices
        int upper = -1;
        std::vector<Cable> cables;  // lower port order
    };

    struct Switch
    {
        NodeIndex node = kNoIndex;
        Guid guid = 0;
        Lid lid = 0;
        int rank = 0;  // 0 = roots, leafRank = leaves
        QString description;
        std::vector<int> up;    // group indices, ftree index order of the upper switches
        std::vector<int> down;  // group indices to switches, ftree index order of the lower switches
    };

    // A CA port cabled to a leaf switch.
    struct ComputeNode
    {
        NodeIndex node = kNoIndex;
        Guid nodeGuid = 0;
        Guid portGuid = 0;
        Lid lid = 0;
        int leaf = -1;            // switch index
        std::uint8_t leafPort = 0;
    };

    std::vector<Switch> switches;  // Fabric::switches() order
    std::vector<Group> groups;
    std::vector<ComputeNode> computeNodes;  // leaf by leaf (index order), leaf port order
    std::vector<int> leaves;                // switch indices, ftree index order
    std::vector<std::vector<int>> computeNodesOfSwitch;  // per switch, compute-node indices
    int leafRank = 0;
    Lid maxLid = 0;
};

// ftree's checks and indexing. With requirePure, refuses what OpenSM ftree refuses (degraded
// trees included); without, accepts trees whose switches at one rank differ in group counts.
// Messages start with `engine`.
Result<FatTreeLayout> analyseFatTree(const Fabric &fabric, bool requirePure, const QString &engine);

// The forwarding tables of the layout's switches, in layout order, from one raw column per switch
// (indexed by LID; kNoPath where the switch has no route). LID 0 names no port and is skipped.
ForwardingTables tablesFromColumns(const FatTreeLayout &layout, const std::vector<std::vector<std::uint8_t>> &columns);

// Copies routing state kept by LID, then switch (`rows`: `lids` rows of `tableOf.size()`
// switches, kNoPath where there is no route), into `tables`: switch s of the rows is table
// tableOf[s], already added. LID 0 names no port and is skipped. Reads and writes in order, a
// band of switches at a time.
void copyRowsToTables(const std::uint8_t *rows, std::size_t lids, const std::vector<int> &tableOf, ForwardingTables &tables);

// The forwarding tables of the layout's switches, in layout order, from rows by LID then layout
// switch, as copyRowsToTables reads them.
ForwardingTables tablesFromRows(const FatTreeLayout &layout, const std::uint8_t *rows, std::size_t lids);

}  // namespace weft::routing
