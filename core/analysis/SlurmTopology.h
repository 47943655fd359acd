#pragma once
// Slurm's view of the fabric: its switches and hosts as Slurm's topology plugins take them, for
// SlurmTopologyFile.h to write.
//
// Levels are the fabric's own (nodeTiers, FabricSummary.h): leaves are the switches with compute
// nodes, each switch above lists the switches one level below it that it is cabled to.
// Host names: a line of the names map (readSlurmNames) for the CA's GUID, a port GUID or its
// node description, else the first word of its node description, as rdma-ndd writes it
// ("node01 HCA-1"): the CAs of one host share it and the host is listed once, on the first of
// its leaves by name. A CA whose description gives no name (empty, a word Slurm cannot take, an
// adapter's factory description "MT4123 ConnectX6 Mellanox Technologies", a word and a number as
// the generator's "host 0007") is left out with a warning; a first word shared by more CAs than
// one host carries refuses the fabric: the descriptions do not name hosts, a names map must.
// Switch names: the names map's, else the node description when it is unique among the
// switches and usable as a Slurm name (runs of other characters made '-'; a managed switch's
// "MF0;ib-sw01:MSB7800/U1" gives its host name "ib-sw01"), else "sw-" and the GUID's 16 digits,
// so that the same fabric gives the same names run after run.

#include "Fabric.h"
#include "Result.h"
#include "SlurmTopologyFile.h"

#include <map>
#include <set>
#include <vector>

namespace weft {

struct SlurmTopologyOptions
{
    SlurmNames names;
    std::set<NodeRole> excluded{NodeRole::Service, NodeRole::IO};  // end nodes left out by role
};

// The fabric as Slurm's topology; an error when the descriptions do not name hosts (above) or
// no host is left to list.
Result<SlurmTopology> slurmTopology(const Fabric &fabric, const SlurmTopologyOptions &options);

// The CAs of each host as slurmTopology names hosts (the names map, else the first word of the
// node description), by Slurm host name; CAs left out by role, or naming no host, are not
// listed. What a job's host list (SLURM_JOB_NODELIST) means on the fabric.
std::map<QString, std::vector<NodeIndex>> slurmHostAdapters(const Fabric &fabric, const SlurmTopologyOptions &options);

}  // namespace weft
