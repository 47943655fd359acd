#pragma once
// One way from what is approved to what a commit installs, and one way to count what that
// costs against what the fabric holds.
//
// Every front end builds its CommitPlan with one of the named builders below: the desk's Approve
// and its autopilot, `weft commit`, `weft lab`, `weft adapt` and the service. The figures a review shows come from
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

// What a routing proposes: the tables of every switch and the service level it gave each
// partition (P_Key -> SL, written as `sl=` and kept on separate VLs by OpenSM's QoS).
struct ProposedRouting
{
    std::shared_ptr<const ForwardingTables> tables;  // never null
    std::map<std::uint16_t, int> serviceLevels;
};

// How the plan is named: one line for the journal (empty: from the plan), the name of its
// partitions.conf in errors, and the what-if events it was made for (CommitPlan::whatIf).
struct PlanLabel
{
    QString summary;
    QString partitionsFileName;
    QString whatIf;
};

// The plan builders. Every plan is made for `madeFor` (null: any fabric; else the commit refuses
// it as stale when the fabric differs), against `against` (what the fabric holds as far as the
// caller knows: the commit refuses the plan if it holds anything else; an empty HeldTables
// installs over whatever it holds). OpenSM's Default partition is made explicit
// (plannedPartitions), so the file installed shows what the ports will hold.

// A routing for a tenancy (the desk's proposal, the autopilot's candidate, `weft lab`'s plan):
// the routing's tables, the tenancy's partitions with the routing's service levels, judged by the
// tenancy's policies.
CommitPlan planFromTenancy(const Fabric *madeFor, const ProposedRouting &routing, const Tenancy &tenancy,
                           const PlanLabel &label, const HeldTables &against);

// Plan files (`weft commit --plan-*`, a desk's plan sent to the service): the tables and the
// partitions.conf as written. A partitions.conf OpenSM would reject is kept as its text, for the
// commit to refuse with the reason, journalled. Judged by `policies` when given (a project's
// tenancy), else every partition as def-isolation.
CommitPlan planFromFiles(const Fabric *madeFor, const ProposedRouting &routing, const QByteArray &partitionsConf,
                         std::optional<Tenancy> policies, const PlanLabel &label, const HeldTables &against);

// A project routed by its own engine on `fabric` (`weft route --project`; `POST plans` with a
// project): as planFromTenancy, named after the engine that routed it.
CommitPlan planFromProject(const Fabric &fabric, const ProposedRouting &routing, const Tenancy &tenancy,
                           const QString &method, const QString &projectName, const HeldTables &against);

// An intent for Weft's engine inside OpenSM: the commit installs `intentFile`, and the switches
// must then hold `routing`'s tables (what that engine computes from it for `fabric`) with the
// intent's partitions. The partitions carry no service levels (the engine answers path_sl).
CommitPlan planFromIntent(const Fabric &fabric, const ProposedRouting &routing, const Tenancy &tenancy,
                          const QByteArray &intentFile, const QString &method, const QString &intentName,
                          const HeldTables &against);

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
