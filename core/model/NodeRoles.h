#pragma once
// What each end node of a fabric is for: a compute node, a switch-attached service node (a SHArP
// Aggregation Node, a switch's management CA), or an I/O node (storage, login, management).
// Levels, the fat-tree engines' leaves and the traffic models count compute nodes only, so that
// the CA every SHArP-enabled switch carries on an internal port does not make every switch a
// leaf; every engine still routes every LID, service and I/O nodes included.
//
// Recognised, in this order, when the fabric is built (FabricBuilder::build):
//  - service: a NodeDescription naming an Aggregation Node (the SHArP AN's own description,
//    "Mellanox Technologies Aggregation Node"); a CA whose device ID is a switch ASIC's (the
//    switch's own CA behind an internal port); a CA all of whose cables go to switch ASICs of
//    its own system (the same system image GUID; a vSwitch's PF and VFs are hosts);
//  - I/O: a description with a word starting "login", "storage", "lustre", "gpfs", "nsd", "oss",
//    "mds", "mgs", "mgmt", "gateway" or "io" followed by a digit or the end of the word;
//  - compute: everything else.
// An operator's choice (the project's node roles, OpenSM's cn_guid_file and io_guid_file) wins
// over what is recognised: fabricWithRoles gives it to the fabric.

#include "Fabric.h"
#include "Result.h"

#include <QByteArray>
#include <QString>

#include <map>
#include <vector>

namespace weft {

// The role of end node `node` from its description, device and attachment (switches: Compute).
NodeRole classifyNodeRole(const Fabric &fabric, NodeIndex node);
// Why classifyNodeRole gave `node` its role, in a few words ("description names an Aggregation
// Node"); empty for a compute node.
QString nodeRoleReason(const Fabric &fabric, NodeIndex node);

// A GUID list as OpenSM reads cn_guid_file and io_guid_file: one GUID a line (0x optional),
// anything after it and lines starting with '#' ignored. Errors name the file and line.
Result<std::vector<Guid>> readGuidList(const QByteArray &data, const QString &fileName);

// Roles by node GUID or port GUID, as the operator set them.
using NodeRoleChoices = std::map<Guid, NodeRole>;

// OpenSM's files as role choices: every end port listed in `computeGuids` a compute node and,
// when that list is not empty, every other end node not recognised as a service node an I/O
// node (as ftree then treats them: not CNs); every one in `ioGuids` an I/O node. A GUID the
// fabric does not have is named in `unknown`.
NodeRoleChoices roleChoicesFromGuidFiles(const Fabric &fabric, const std::vector<Guid> &computeGuids,
                                         const std::vector<Guid> &ioGuids, QStringList *unknown = nullptr);

// `fabric` with the roles chosen (by node or port GUID); others keep theirs. A GUID that names
// no end node is named in `unknown`.
Result<Fabric> fabricWithRoles(const Fabric &fabric, const NodeRoleChoices &choices, QStringList *unknown = nullptr);

struct RoleCounts
{
    std::size_t compute = 0;
    std::size_t service = 0;
    std::size_t io = 0;
};
RoleCounts countRoles(const Fabric &fabric);

}  // namespace weft
