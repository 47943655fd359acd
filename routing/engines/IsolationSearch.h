#pragma once
// The isolation search behind pftree (docs/pftree-isolation.md): which top switch, and on three
// levels which middle switch, each destination's down path takes, so that no directed switch
// link carries flows of two phy-isolated partitions where an assignment without one exists.
//
// The space searched is the one every fat-tree engine here routes in: destination-based
// up*/down* routing where each destination LID has one down path (leaf up to a root) and every
// other switch forwards towards it as ftree's "route up by going down" does. Destinations on one
// leaf that receive in the same partitions (a destination class) take the same path in the
// search: any other choice only adds links, so this loses no isolating assignment and no
// minimum. Links are counted per port group (parallel cables count as one; a pure tree has none).
// On a degraded tree a failed leaf uplink, middle-top link or middle switch can leave a sender
// below no switch of a path: the engine's router sends its flows down a second path (the first
// its walk from the leaf reaches, in cable order), which the model follows and counts. A path
// that leaves some sender reached by nothing is no candidate; only where a class has no other
// does it take any, and the plan is then not exact. Second paths other than the router's are
// not searched (docs/pftree-isolation.md: the open gap of issue 41).
//
// Objective, lexicographic: (1) directed links carrying two or more phy partitions, (2) links
// carrying a phy partition and any other. Classes holding a phy partition are placed by an exact
// branch and bound (most spread partitions first; candidates tried cheapest first, then least
// loaded, then in ftree's up-port order; of paths through switches no choice touches yet, only
// the first of each kind is tried: roots with the same switches below are interchangeable, and
// on three levels so are whole columns of the same shape, roots and middle switches: the same
// leaves below each middle switch and no cable out of the column, so a failed link or switch
// makes its column unlike every other). The other classes
// then take, one at a time in class order, the path adding the least of (1), (2), (3) links
// shared by any two partitions, then the least loaded. Last, each class's hosts spread over
// every path that changes none of these counts, least loaded first, ties in ftree order.

#include <cstdint>
#include <vector>

namespace weft::routing {

struct IsolationProblem
{
    struct Group
    {
        int lower = -1;  // switch indices
        int upper = -1;
        int cables = 1;  // parallel cables in the group
    };
    // Flows of `partition` towards a class arrive from these leaves (the class's own excluded).
    struct Demand
    {
        int partition = 0;
        std::vector<int> senderLeaves;
    };
    struct DestinationClass
    {
        int leaf = -1;
        std::vector<Demand> demands;  // empty: the class needs no path of its own
        int hosts = 1;
    };

    int switchCount = 0;
    std::vector<Group> groups;
    std::vector<std::vector<int>> upGroups;    // per switch, in ftree's order
    std::vector<std::vector<int>> downGroups;  // per switch, in ftree's order
    std::vector<char> physical;                // per partition
    std::vector<DestinationClass> classes;
    std::int64_t budget = 400000;       // branch-and-bound nodes
    int maxCandidates = 256;            // up paths per leaf beyond which no search runs
    double seconds = 0;                 // time the search may take (0: no limit but `budget`)
    // Tests only (PartitionAwareOptions::assumeSymmetry): the symmetry cut as if nothing failed.
    bool assumeSymmetry = false;
};

struct IsolationPlan
{
    bool ran = false;     // false: too many candidate paths; nothing below is set
    bool proven = false;  // the branch and bound finished within its budget
    bool outOfTime = false;  // it stopped at its time budget (`seconds`)
    bool exact = false;   // every class had a path whose every sender is reached: `proven` is the minimum
    std::int64_t nodes = 0;
    // The branch and bound's least (1) and (2) over the phy classes alone: when proven and
    // exact, no routing the search covers shares fewer, whatever the other classes do.
    int leastPhyShared = 0;
    int leastPhyConflicts = 0;
    int phyShared = 0;     // objective (1) of the plan
    int phyConflicts = 0;  // objective (2)
    // Per class, per host (in class order): the up groups from the leaf to a root.
    std::vector<std::vector<std::vector<int>>> hostPaths;
};

IsolationPlan searchIsolation(const IsolationProblem &problem);

// Issue 42: the isolation search at scale.
//
// A lower bound that holds for every routing, in the search's space or not: at each leaf, the
// phy partitions receiving there from other leaves all come down its down-going cables, and
// those sending from it to other leaves all go up its up-going cables; more partitions than
// cables make one cable carry two (pigeonhole), and a phy partition beside others where the
// cables cannot give each phy partition one of its own (and the others one more) makes one
// carry a phy partition with another.
struct IsolationBound
{
    int phyShared = 0;     // (1): directed links carrying two or more phy partitions
    int phyConflicts = 0;  // (2): links carrying a phy partition and any other
};
IsolationBound isolationBound(const IsolationProblem &problem);

// A constructive assignment for two- and three-level trees: columns (a top switch on two
// levels; on three, the top switches and middle switches joined by cables below them) given to
// phy partitions, as many as their hosts' share, so that partitions meeting on a leaf get columns
// of their own (partitions that never meet may share one, on three levels on different top
// switches of it), each only among the columns every one of its leaves reaches; vlane and def
// partitions take the columns no phy partition on their leaves holds. Each destination then goes
// down through a top switch of its partition's columns that all its senders reach, the least
// loaded. `ran` is false where the tree has more than three levels; `proven` is never set (the
// caller compares the tables' count with isolationBound), `exact` says whether every class found
// such a top switch. Linear in the classes' hosts and senders.
IsolationPlan constructIsolation(const IsolationProblem &problem);

// A rough count of the steps searchIsolation's set-up takes (candidate paths times the switches
// and senders each one's flows are traced through), to decide whether it is worth running.
std::int64_t searchWork(const IsolationProblem &problem);

}  // namespace weft::routing
