#pragma once
// A plan as Weft's service makes it (POST /api/v1/plans, docs/service-api.md): from a Weft
// project, routed on the fabric the service holds by the project's engine (or, when the target
// runs Weft's engine inside OpenSM, as the intent OpenSM's engine routes), or from a desk's plan
// of tables; counted against what the fabric holds exactly as the commit will count it, with the
// plan's validity and each partition's policy, so that what a client reviews is what a commit
// of the plan installs.

#include "CommitPlanning.h"
#include "ReconfigurationPlan.h"
#include "Result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace weft {

struct ServicePlan
{
    QString id;                  // "p1", "p2", ... in the order made
    QDateTime madeAt;            // UTC
    QString by;                  // the credential's name
    QString origin;              // "project" or "tables"
    CommitPlan commit;           // what a commit installs
    ReconfigurationPlan review;  // its cost against what the fabric held (planCommitChange)
    PlanCheck check;             // validity and policies (checkPlan)
    QStringList notes;           // the project's GUIDs the fabric lacks, left out
    quint64 fabricGeneration = 0;
    quint64 heldGeneration = 0;
    bool committed = false;
    // What the plan was made from changed (planBasisChange, with when and why), as the service
    // found at the generations checked; empty when nothing did (the plan is then carried over to
    // them). Checked again at each new generation: a change undone leaves the plan committable.
    QString staleBecause;
    quint64 checkedFabricGeneration = 0;
    quint64 checkedHeldGeneration = 0;
};

// The plan a POST plans body asks for on `fabric` holding `held`, with `inForce` the partitions
// OpenSM reads now. `pluginMode`: the target installs intents, so the body must be a project.
// A body that does not parse is an error whose file is "request body" and whose message says
// where (line and column); nothing else is touched.
Result<ServicePlan> makeServicePlan(const QByteArray &body, const Fabric &fabric, const HeldTables &held,
                                    const PartitionsState &inForce, bool pluginMode);

// The plan's JSON (docs/service-api.md, "A plan"); `state` is "open", "committed" or "stale",
// `refusal` why a commit would refuse it now.
QJsonObject servicePlanJson(const ServicePlan &plan, const QString &state, const QString &refusal);

// What differs between what `plan` was made from (its fabric and what the fabric held) and
// `fabric` holding `held` now: the topology (compareFabrics), the LFTs switch by switch, the
// P_Key tables port by port (by node GUID and port number, whatever the ports' order), the SM's
// port; empty when nothing does, so a plan stays committable across a discovery that found the
// same fabric holding the same tables.
QString planBasisChange(const ServicePlan &plan, const Fabric &fabric, const HeldTables &held);

// Why the plan a service made of a desk's `plan` (its JSON answer to POST plans) is not the plan
// as the desk counts it against what it held (the LFT entries, blocks and SMPs the review
// showed); empty when they agree. A desk commits only a plan whose figures agree, so that what
// its operator reviewed is what the service installs.
QString servicePlanDisagreement(const CommitPlan &plan, const QJsonObject &servicePlan);

}  // namespace weft
