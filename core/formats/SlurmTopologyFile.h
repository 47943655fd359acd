#pragma once
// Slurm's topology files as Weft writes them, and the names map it reads: topology.conf for
// topology/tree (`SwitchName=… Nodes=…` for a leaf, `SwitchName=… Switches=…` above), topology.conf
// for topology/block (`BlockName=… Nodes=…` per leaf, `BlockSizes=`), and topology.yaml (Slurm
// 25.05 and later: a list of topologies, one `topology: default` with `cluster_default: true` and a
// `tree:` of `switches:`, each `switch:` with `nodes:` or `children:`). What goes in them is
// worked out from the fabric by slurmTopology (core/analysis/SlurmTopology.h).
//
// Host and switch lists are compressed as Slurm writes them: "node[01-04,07]", zero padding kept.

#include "Fabric.h"
#include "Result.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <set>
#include <vector>

namespace weft {

enum class SlurmTopologyForm { Tree,
                               Block,
                               Yaml };
// "tree", "block", "yaml"; nullopt for anything else.
std::optional<SlurmTopologyForm> slurmTopologyFormFromName(const QString &name);

// The names map: one line "KEY NAME", KEY a node or port GUID (0x optional) or a node
// description (everything before the last word; double quotes around it allowed), NAME the
// host's (or switch's) Slurm name. '#' starts a comment; blank lines are skipped. Errors name
// the file and line: a line without a name, a name Slurm cannot take, a key given twice.
struct SlurmNameEntry
{
    QString name;
    int line = 0;
};
struct SlurmNames
{
    QString fileName;
    std::map<Guid, SlurmNameEntry> byGuid;
    std::map<QString, SlurmNameEntry> byDescription;
};
Result<SlurmNames> readSlurmNames(const QByteArray &data, const QString &fileName);
Result<SlurmNames> readSlurmNamesFile(const QString &path);

// Whether `name` can stand as a Slurm node or switch name in Weft's files: a letter or digit,
// then letters, digits, '-', '_' or '.', at most 64 characters.
bool isSlurmName(const QString &name);

// `names` (duplicates dropped) as one Slurm host list: names of one prefix and a numeric suffix
// grouped in brackets, consecutive numbers of one width as ranges ("node[01-04,07],login1").
QString compressHostList(const QStringList &names);

// The names of a Slurm host list, as SLURM_JOB_NODELIST and `scontrol show hostnames` give
// them: "node[01-04,07],login1" is node01 ... node04, node07, login1; each range keeps the width
// of its first number ("[08-10]": node08, node09, node10); several brackets in one name give every
// combination ("r[1-2]n[1-2]"). Names in the order written, each once. An error (its file
// `what`, its message naming the place) for an unclosed or empty bracket, a range that runs
// down or is not a number, a name Slurm cannot take, or more than kMaxExpandedHosts names.
constexpr int kMaxExpandedHosts = 65536;
Result<QStringList> expandHostList(const QString &list, const QString &what);

struct SlurmSwitch
{
    QString name;
    NodeIndex node = kNoIndex;
    int level = 0;         // 1 for a leaf, as nodeTiers counts
    QStringList hosts;     // a leaf's, sorted
    QStringList children;  // the switches one level below, by name
};

struct SlurmTopology
{
    std::vector<SlurmSwitch> switches;  // leaves first, each level in the tree's order from its roots
    std::size_t hosts = 0;              // hosts listed
    std::size_t excludedEndNodes = 0;   // end nodes left out by role
    QStringList warnings;               // CAs left out, hosts on several leaves, unknown map lines
};

// What a written file says it was made from, in its first comment lines.
struct SlurmTopologyOrigin
{
    QString source;  // "topology file fabric.topo", "the live fabric (mlx5_0 port 1)"
    QDateTime made;
    QString version;  // Weft's
};

// The text of one form. BlockSizes: the smallest leaf's host count, then that doubled while the
// blocks can make it.
QByteArray writeSlurmTopology(const SlurmTopology &topology, SlurmTopologyForm form, const SlurmTopologyOrigin &origin);

// `text` without its leading comment lines: what two files made at different times compare by.
QByteArray slurmTopologyBody(const QByteArray &text);

}  // namespace weft
