#pragma once
// The Weft project file: JSON, versioned. It saves what the operator decided (tenancy, policies,
// weights, the routing engine and its options), tied to a fabric by GUIDs rather than by
// position, so it can be reopened against a rediscovered fabric.

#include "Fabric.h"
#include "Result.h"
#include "Tenancy.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <map>

namespace weft {

constexpr int kProjectFormatVersion = 1;

struct Project
{
    Tenancy tenancy;
    QString routingEngine;      // e.g. "pftree"; empty = not chosen
    QJsonObject routingOptions; // engine-specific, kept as given
    QString fabricSource;       // where the fabric came from (a path, "demo", "live"), informative
    // End nodes' roles as the operator set them, by node or port GUID ("node_roles": [{"guid":
    // "0x...", "role": "compute|service|io"}]); the others keep the role recognised (NodeRoles.h).
    std::map<Guid, NodeRole> nodeRoles;
};

QByteArray writeProject(const Project &project);
Result<Project> readProject(const QByteArray &data, const QString &fileName);
Result<Project> readProjectFile(const QString &path);

// A project applied to a fabric: every member, tenant host and weight whose port GUID the fabric
// lacks is dropped from `project` and named in `missing` (one line per GUID), the rest is kept.
struct BoundProject
{
    Project project;
    QStringList missing;
};

BoundProject bindProject(const Project &project, const Fabric &fabric);

}  // namespace weft
