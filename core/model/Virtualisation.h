#pragma once
// SR-IOV vSwitch virtualisation (spec 001): the LID-space arithmetic of §1.4–1.6 and §4, and
// the hypervisors of a fabric as Weft models them.
//
// LID model. Spec 001 §1.4 counts one LID per hypervisor for vSwitch and PF together
// (L = S + H(1+V) prepopulated, S + H + N_vm dynamic). A Weft fabric must be routable by a
// real OpenSM under ibsim, which simulates only switches and CAs, so a hypervisor is a Switch
// (the vSwitch) plus one CA per function, and the vSwitch takes a LID of its own: Weft needs
// L = S + H(2+V) and S + 2H + N_vm. Both are offered (LidModel); the spec's figures (T3, T18)
// are checked with LidModel::Spec, fabrics Weft builds obey LidModel::Weft.
//
// Hypervisor detection follows the spec's rule (§1.3): a vSwitch is a switch with exactly one
// link to another switch (its up-link to the leaf) and at least one CA behind it. Its PF is the
// CA on its lowest-numbered CA port, its VFs the others in port order (VF1, VF2, ...), as the
// generator numbers them. A VM is a VF with a LID; a VF without a LID is free (dynamic scheme).

#include "Fabric.h"
#include "Result.h"

#include <QString>

#include <cstdint>
#include <map>
#include <vector>

namespace weft {

constexpr int kUnicastLidCount = 49151;        // 0x0001..0xBFFF (F1)
constexpr int kFullLftBlocks = 768;            // 49,152 / 64 (F6)
constexpr int kExtendedVLidCount = 196608;     // 18-bit LIDs: 3 x 65,536 vLIDs (F5)
constexpr double kDefaultSmpSeconds = 65.1e-6; // k, fitted to Fig. 7 (F14)

inline int lftBlockOf(int lid) { return lid / 64; }
// B = floor(maxLid/64) + 1 (F6): blocks a full push sends per switch.
inline int lftBlocksInUse(int maxLid) { return maxLid / 64 + 1; }

enum class LidScheme : std::uint8_t { Prepopulated, Dynamic };
enum class LidModel : std::uint8_t { Spec, Weft };  // vSwitch LID = PF LID, or a LID of its own

QString lidSchemeName(LidScheme scheme);  // "prepopulated", "dynamic"

// LIDs a subnet uses (F4), for either model.
std::int64_t lidsNeeded(LidScheme scheme, LidModel model, std::int64_t switches, std::int64_t hypervisors,
                        std::int64_t vfsPerHypervisor, std::int64_t runningVms);
// Prepopulated: most VFs per hypervisor that fit in the unicast space; -1 if not even 0 fit.
std::int64_t maxVfsPerHypervisor(LidModel model, std::int64_t switches, std::int64_t hypervisors);
// Prepopulated: H_max = floor((49151 - S) / (1 + V)) (spec), (2 + V) for Weft.
std::int64_t maxHypervisors(LidModel model, std::int64_t switches, std::int64_t vfsPerHypervisor);
// Dynamic: most VMs that can run at once; negative if the physical fabric alone does not fit.
std::int64_t maxRunningVms(LidModel model, std::int64_t switches, std::int64_t hypervisors);

// One row of Table 2 (§6.2): LIDs = nodes + switches, B, full-RC SMPs S·B, and the swap/copy
// bounds 1 and 2S.
struct ReconfigurationCostRow
{
    std::int64_t nodes = 0;
    std::int64_t switches = 0;
    std::int64_t lids = 0;
    std::int64_t blocksPerSwitch = 0;
    std::int64_t fullSmps = 0;
    std::int64_t minSwapCopySmps = 1;
    std::int64_t maxSwapCopySmps = 0;
    double reduction() const { return 1.0 - double(maxSwapCopySmps) / double(fullSmps); }  // F13
};
ReconfigurationCostRow reconfigurationCost(std::int64_t nodes, std::int64_t switches);

// vSwitch_RC_t = n'·m'·k (F9).
inline double reconfigurationSeconds(std::int64_t smps, double smpSeconds = kDefaultSmpSeconds)
{
    return double(smps) * smpSeconds;
}

struct VirtualFunction
{
    NodeIndex node = kNoIndex;
    std::uint8_t vSwitchPort = 0;  // the vSwitch port it hangs off
    int number = 0;                // 1-based, port order
    Lid lid = 0;                   // 0: free (dynamic scheme)
};

struct Hypervisor
{
    QString name;                 // "hyp0007": the vSwitch description without " vSwitch", else its node id
    NodeIndex vSwitch = kNoIndex;
    Guid vSwitchGuid = 0;
    Lid vSwitchLid = 0;
    std::uint8_t upPort = 0;      // vSwitch port to the leaf
    NodeIndex leaf = kNoIndex;
    std::uint8_t leafPort = 0;    // v.port of Alg. 1: the leaf's entry for every LID on this hypervisor
    NodeIndex pf = kNoIndex;
    std::uint8_t pfPort = 0;
    Lid pfLid = 0;
    std::vector<VirtualFunction> vfs;

    int runningVms() const;
    int freeVfs() const { return int(vfs.size()) - runningVms(); }
};

struct VirtualisedFabric
{
    std::vector<Hypervisor> hypervisors;       // leaf by leaf (node index order), leaf port order
    std::vector<NodeIndex> physicalSwitches;   // Fabric::switches() order without the vSwitches
    std::vector<int> hypervisorOfNode;         // per node: vSwitch, PF or VF -> hypervisor, else -1
    LidScheme scheme = LidScheme::Prepopulated;  // dynamic when some VF has no LID

    // "hyp0007" (or a description prefix of the vSwitch), or a vSwitch GUID "0x..."; -1 if none.
    int findHypervisor(const QString &text) const;
    // A VF by node description ("hyp0003 VF2"), node GUID or port GUID ("0x..."). Sets the
    // hypervisor and VF index (into Hypervisor::vfs); false if none matches.
    bool findVf(const Fabric &fabric, const QString &text, int *hypervisor, int *vf) const;
    std::int64_t runningVms() const;
};

// Finds the hypervisors. Fails if the fabric has none, or a vSwitch has no CA behind it.
Result<VirtualisedFabric> findHypervisors(const Fabric &fabric);

// Per-VM weights (spec 003 §3.2.6, T-WFT-4; the weights vswitch-ftree routes VM LIDs with): a
// vSwitch's weight is divided equally among its running VMs, so every vSwitch with VMs weighs
// its own weight in total, whether it runs one VM or many (vSwitch A with 4 VMs and B with 1,
// both weight 1: A's VMs 0.25 each, B's 1.0). `hypervisorWeights` is keyed by vSwitch GUID
// (Hypervisor::vSwitchGuid); an absent hypervisor weighs 1. The result is keyed by the port
// GUID of each running VM (a VF with a LID); free VFs and PFs have none. Weights must be finite
// and 0 or more (routeVSwitchFatTree checks them; any other caller checks its own).
std::map<Guid, double> vmWeights(const Fabric &fabric, const VirtualisedFabric &virt,
                                 const std::map<Guid, double> &hypervisorWeights = {});

// The same fabric with some CA port LIDs changed (0 removes a LID): VMs moving, booting and
// shutting down change who owns a LID, and Fabric is immutable.
struct LidChange
{
    PortIndex port = kNoIndex;
    Lid lid = 0;
};
Result<Fabric> fabricWithLids(const Fabric &fabric, const std::vector<LidChange> &changes);

}  // namespace weft
