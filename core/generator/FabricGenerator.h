#pragma once
// Generated fat-trees: k-ary n-trees, XGFTs and folded Clos trees from a switch radix, optionally
// with SR-IOV hypervisors (vSwitch model) and optionally degraded. The result is an ordinary
// Fabric built through FabricBuilder, so every later stage treats it like a discovered one.
//
// Every shape is built as an XGFT in the notation of spec 001 §1.7 (levels 0..h, roots at 0,
// hosts at h; a level-i node has m_{i+1} children and w_i parents):
//   k-ary n-tree          = XGFT(n; k,..,k; k,..,k,1), switches of 2k ports
//   radix r, n levels     = XGFT(n; r,r/2,..,r/2; r/2,..,r/2,1), switches of r ports
//                           (the m-port-n-tree: 2(r/2)^n hosts, (2n-1)(r/2)^(n-1) switches;
//                           36 ports, 3 levels: 11,664 hosts, 1,620 switches)
//
// Numbering, written down because files, tests and routing tie-breaks depend on it:
// - A level-l node is the tuple (x_1..x_h); x_j counts to m_j for j <= l and to w_j for j > l.
//   Its position within the level is that tuple in mixed radix, x_1 most significant, so the
//   hosts of one leaf, and the leaves of one sub-tree, are consecutive.
// - Switch ports: down-links first (port c+1 goes to child c), then up-links (port m+1+p goes
//   to parent p). Hosts hang off their leaf in port order. Unused ports stay unlinked.
// - Node GUIDs: switch n (level order, from 0) 0x0002c90000000000 + n. End side h (host or
//   hypervisor, in host order) owns the block 0x0002c91000000000 + 0x400·h: a plain host CA
//   is block + 0; a hypervisor's vSwitch is block + 0, its PF block + 2, VF v block + 2 + 2v.
//   A CA's port GUID is its node GUID + port number, as FabricBuilder does by default.
// - Node ids (Node::name) are what ibnetdiscover prints for such a fabric: "S-<guid>" for
//   switches, "H-<guid>" for CAs. Descriptions say role and position: "L0 spine 3",
//   "L1 aggr 5", "L2 leaf 17", "host 0042"; hypervisors "hyp0001 vSwitch", "hyp0001 PF",
//   "hyp0001 VF2" (hosts and hypervisors from 0, VFs from 1). Ids and descriptions are unique.
// - LIDs (unless disabled): physical switches in level order from firstLid, then each host
//   in host order; a hypervisor takes vSwitch, PF, VF1..VFV in turn. CA ports get
//   2^lmc LIDs with an aligned base; switches LMC 0. Such a fabric is routable without an SM.
// - Hypervisors: ibsim simulates only switches and CAs, so a hypervisor is a Switch (the
//   vSwitch: port 1 up to its leaf, port 2 the PF, port 2+v VF v) plus one single-port CA per
//   function. The vSwitch needs a LID of its own as a switch, so a hypervisor uses 2 + V LIDs
//   where spec 001 §1.4 counts 1 + V (it treats vSwitch LID = PF LID).
// - Links default to 4x QDR (ibsim reports SDR whatever the file says). Linked ports are
//   Active, unlinked ones Down.
// - Random degradation removes links between two fabric switches only, never one whose loss
//   would split the fabric, chosen by std::mt19937_64(seed) with our own uniform mapping (so
//   every standard library gives the same links). Named removals happen first, exactly as
//   asked, and may cut hosts off; the result then carries a warning.

#include "Fabric.h"

#include <QStringList>

#include <cstdint>
#include <vector>

namespace weft {

// XGFT(h; m_1..m_h; w_1..w_h) in the notation of spec 001 §1.7.
struct XgftShape
{
    int height = 0;
    std::vector<int> children;  // m_1..m_h: a level-(i-1) node has m_i children
    std::vector<int> parents;   // w_1..w_h: a level-i node has w_i parents

    // Nodes at `level` (0 = roots, height = hosts): (Π_{j<=level} m_j)(Π_{j>level} w_j).
    // Saturates at UINT64_MAX rather than overflowing.
    std::uint64_t nodesAtLevel(int level) const;
    std::uint64_t switchCount() const;
    std::uint64_t hostCount() const { return nodesAtLevel(height); }
    // Ports a level-l switch uses: m_{l+1} down plus w_l up (none at the roots).
    int portsUsedAtLevel(int level) const;
    QString toString() const;  // "XGFT(4; 2,2,2,2; 2,2,2,1)"
    bool operator==(const XgftShape &o) const
    {
        return height == o.height && children == o.children && parents == o.parents;
    }
};

// "h;m1,..,mh;w1,..,wh", optionally wrapped in "XGFT(...)". Checks counts and positivity only;
// generateFabric checks the rest.
Result<XgftShape> parseXgft(const QString &text);

XgftShape karyNTreeShape(int k, int levels);
XgftShape switchRadixShape(int radix, int levels);

// One end of a cable, named by node id or description: "L1 leaf 3[5]" or "S-0002c90000000004[5]".
struct LinkEndName
{
    QString node;
    int port = 0;
};
Result<LinkEndName> parseLinkEnd(const QString &text);

enum class FabricShapeKind : std::uint8_t { KaryNTree, Xgft, SwitchRadix };

struct GeneratorOptions
{
    FabricShapeKind shape = FabricShapeKind::KaryNTree;
    int arity = 2;         // k of a k-ary n-tree
    int levels = 2;        // n of a k-ary n-tree, or switch levels of a radix tree
    int radix = 0;         // switch ports of a radix tree (even)
    XgftShape xgft;        // for FabricShapeKind::Xgft
    int switchPorts = 0;   // ports per physical switch; 0: 2k, the radix, or what the XGFT needs

    bool hypervisors = false;  // hosts become hypervisors: vSwitch + PF + VFs
    int vfsPerHypervisor = 0;

    std::vector<LinkEndName> removeLinks;  // removed first, exactly as named
    int removeRandomLinks = 0;
    std::uint64_t seed = 1;

    bool assignLids = true;
    int firstLid = 1;
    int lmc = 0;           // CA ports only
    int linkWidth = 4;     // lanes: 1, 2, 4, 8 or 12
    LinkSpeed linkSpeed = LinkSpeed::QDR;
};

struct RemovedLink
{
    QString nodeA;  // descriptions, as an operator reads them
    int portA = 0;
    QString nodeB;
    int portB = 0;
    QString toString() const;  // "L2 leaf 3[5] -- L1 aggr 0[2]"
};

struct GeneratedFabric
{
    Fabric fabric;
    XgftShape xgft;                     // the shape built, whatever option named it
    QString summary;                    // one line: shape, counts, removals
    std::vector<int> switchesPerLevel;  // physical switches, index 0 = roots
    // Per NodeIndex: 0..h-1 fabric switches, h hosts and vSwitches, h+1 PFs and VFs.
    std::vector<int> nodeLevel;
    // The node on each leaf down-port in indexing order: host CAs, or vSwitches.
    std::vector<NodeIndex> hosts;
    std::vector<RemovedLink> removedLinks;  // named ones first, then random ones
    QStringList warnings;                   // e.g. hosts cut off by a named removal
};

Result<GeneratedFabric> generateFabric(const GeneratorOptions &options);

}  // namespace weft
