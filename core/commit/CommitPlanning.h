#pragma once
// One way from what is approved to what a commit installs, and one way to count what that
// costs against what the fabric holds.
//
// Every front end builds its CommitPlan with buildCommitPlan: the desk's Approve and its
// autopilot, `weft commit`, `weft lab` and `weft adapt`. The figures a review shows come from
// planCommitChange on what the session holds; the commit counts with the same function on what it
// reads from the fabric just before writing. The two agree whenever the fabric still holds what
// the plan was made against, and when it does not, the commit refuses the plan as stale
// (CommitPlan::expectedHeld) rather than install something nobody reviewed.

#include "Commit.h"
#include "ReconfigurationPlan.h"

#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace weft {

// What is asked to be installed.
struct ChangeRequest
{
    std::shared_ptr<const ForwardingTables> tables;  // never null
    // The partitions the fabric should hold; OpenSM's Default partition is made explicit here
    // (plannedPartitions), so the file installed shows what the ports will hold.
    std::vector<Partition> partitions;
    // The policies and mode the commit judges the plan by (a project's or the desk's tenancy);
    // unset: every partition as def-isolation.
    std::optional<Tenancy> intent;
    std::map<std::uint16_t, int> serviceLevels;  // P_Key -> SL, written as `sl=`
    QString summary;                             // one line for the journal; empty: from the plan
    QString partitionsFileName;                  // names the planned partitions.conf in errors
    QString whatIf;                              // CommitPlan::whatIf
};

// The plan a commit installs: `change` made for `madeFor` (null: any fabric; else the commit
// refuses it as stale when the fabric differs), against `against` (what the fabric holds as far
// as the caller knows: the commit refuses the plan if it holds anything else; an empty
// HeldTables installs over whatever it holds).
CommitPlan buildCommitPlan(const Fabric *madeFor, const ChangeRequest &change, const HeldTables &against);

// What installing `plan` on `fabric` sends when the fabric holds `held` and OpenSM reads
// `inForce` now: the LFT and P_Key blocks and SMPs, the partitions.conf written and its diff,
// and the P_Key tables the ports hold afterwards. Unknown tables count as empty switches;
// unknown P_Key tables as those OpenSM programs for `inForce`. A plan whose partitions.conf does
// not parse gets the LFT figures only (the commit refuses it before counting).
ReconfigurationPlan planCommitChange(const Fabric &fabric, const HeldTables &held, const PartitionsState &inForce,
                                     const CommitPlan &plan);

// The partitions.conf the target's OpenSM reads now, as the commit's diff shows it: as Weft
// writes it when it parses, else (missing, or one OpenSM would reject) as the text it is.
PartitionsState partitionsOnTarget(const CommitTarget &target);

}  // namespace weft
