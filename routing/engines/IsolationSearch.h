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
// On a degraded tree a class's candidates are the paths that every one of its senders reaches
// by going up (a failed leaf uplink, middle-top link or middle switch can leave a sender below
// no switch of a path): the engine's router sends such a sender's flows down another path the
// model does not count, so a path that strands one would look cheaper than it is. Only where a
// class has no such path does it take any, and the plan is then not exact.
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
};

struct IsolationPlan
{
    bool ran = false;     // false: too many candidate paths; nothing below is set
    bool proven = false;  // the branch and bound finished within its budget
    bool exact = false;   // every class had a path all its senders reach: `proven` is the minimum
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

}  // namespace weft::routing
