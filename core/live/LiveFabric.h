#pragma once
// A live fabric, read through rdma-core's libraries as the diagnostic tools read it: the
// topology by libibnetdisc (ibnetdiscover's engine), the unicast forwarding tables and P_Key
// tables by SubnGet SMPs through libibmad (what ibroute and `smpquery pkeys` send).
//
// Every function blocks until done and opens its own MAD port, so the GUI calls them from a
// worker thread; `progress` reports along the way and cancels when it returns false. Without an
// adapter, without umad access, or when the fabric does not answer, the result is an Error
// saying which; nothing is half-built.
//
// Tables are read with many SMPs in flight (SmpReader.h): LID-routed where the fabric has LIDs,
// by directed route (worked out on the Fabric from the port Weft runs on) where it has none and
// for any SMP whose LID route goes unanswered, so that tables can be read even where LIDs or
// routes are wrong (that is when one wants to look). A read returns every table whole or refuses,
// naming the nodes that did not answer.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "PKeyTables.h"
#include "PKeyTableFile.h"  // writePKeyTables: the text of what readPKeyTables reads
#include "FabricChanges.h"
#include "LocalAdapters.h"
#include "QosConfig.h"
#include "Result.h"
#include "SubnetTarget.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>

namespace weft {

struct LiveOptions
{
    QString caName;       // empty: the first adapter, as the diagnostic tools choose it
    int caPort = 0;       // 0: the first active port
    int timeoutMs = 200;  // per SMP
    int retries = 3;
    // SMPs the discovery scan keeps in flight. ibnetdiscover defaults to 2; OpenSM sends up to 4
    // at once (max_wire_smps), which every subnet already tolerates from its SM.
    int maxSmpsInFlight = 4;
    // SMPs the table reads (LFT blocks, P_Key and SL2VL tables; SmpReader.h) keep in flight on
    // their one MAD port at most, at most 4 of them at one node.
    int maxTableSmpsInFlight = 64;
    // Called with work done so far and the total; returning false cancels. For discovery the
    // library scans in one call, so a cancel there takes effect when the scan returns.
    std::function<bool(int done, int total)> progress;
};

// An Error (as discovery would give it) without umad access or without an adapter.
Result<std::vector<LocalAdapter>> listLocalAdapters();

// The subnet as libibnetdisc sees it from the local port: nodes with GUIDs and descriptions,
// ports with GUIDs, LIDs, LMC, state, active width and speed, and every cable.
Result<Fabric> discoverFabric(const LiveOptions &options);

// Every switch's linear forwarding table: SwitchInfo:LinearFDBTop, then LinearForwardingTable
// blocks 0..top/64. LIDs above the top are left without a route, as ibroute shows them.
Result<ForwardingTables> readForwardingTables(const Fabric &fabric, const LiveOptions &options);

// Both at once, in one pass of SMPs (what a commit reads back before and after its reload).
struct LiveHeldTables
{
    ForwardingTables lfts;
    PKeyTables pkeys;
};
Result<LiveHeldTables> readHeldTables(const Fabric &fabric, const LiveOptions &options);

// What the table reads on this thread read since the last call ("47520 LFT blocks of 720
// switches, ...: 61200 SMPs, 0 retries, 0.41 s"), and forgets it; empty when nothing was read.
QString takeTableReadSummary();

// Sets one entry of a switch's linear forwarding table behind the subnet manager's back: reads
// the 64-entry block holding `lid`, changes that entry to `port` and writes the block back with
// a SubnSet SMP. For tests and fault drills (OpenSM only rewrites blocks that differ from its own
// cached copy, so such a change survives its sweeps). `previousPort` receives the entry it held.
Status writeForwardingTableEntry(const Fabric &fabric, Guid switchGuid, Lid lid, std::uint8_t port,
                                 const LiveOptions &options, std::uint8_t *previousPort = nullptr);

// Writes tables back without the subnet manager, by SubnSet SMPs: every LinearForwardingTable
// block of the switches in `tables` that differs from what `heldTables` says they hold, and every
// 32-entry P_Key block of the ports in `pkeys` that differs from `heldPKeys`. For a rollback
// whose OpenSM died in the middle of its sweep, leaving the switches half-programmed.
Status writeTables(const Fabric &fabric, const ForwardingTables &tables, const ForwardingTables &heldTables,
                   const PKeyTables &pkeys, const PKeyTables &heldPKeys, const LiveOptions &options);

// The P_Key tables of the ports computePKeyTables models: CA and router ports with a link, switch
// port 0, and the switch ports facing a CA or router (marked packed). Each table is read up to the
// port's capacity (NodeInfo:PartitionCap, or SwitchInfo:PartitionEnforcementCap for a switch's
// external port) and then cut after its last non-empty 32-entry block (at least one block).
Result<PKeyTables> readPKeyTables(const Fabric &fabric, const LiveOptions &options);

// The port the master subnet manager runs on: the local port's PortInfo:MasterSMLID, then
// SMInfo asked at that LID (its GUID is the SM's port GUID); where SMInfo does not answer, the
// port `fabric` gives that LID. An Error when the local port knows no SM or the LID is not the
// fabric's.
Result<Guid> findMasterSmPort(const Fabric &fabric, const LiveOptions &options);

// Every subnet manager on the subnet: SubnGet(SMInfo) at each port discovery found with IsSM in
// its CapabilityMask (master, standbys and inactive SMs alike). A port that does not answer is
// listed with `answered` false.
Result<std::vector<SubnetManagerInfo>> readSubnetManagers(const Fabric &fabric, const LiveOptions &options);

// Every linked port's SL2VL table (SubnGet SLtoVLMappingTable, 0x0017): a CA port's, and a
// switch's for every pair of linked ports (modifier in << 8 | out), as OpenSM programs them.
Result<std::vector<PortSlToVl>> readSlToVlTables(const Fabric &fabric, const LiveOptions &options);

// The SL the subnet administrator (OpenSM's SA) gives in a PathRecord (SubnAdmGet, SLID, DLID and
// P_Key given), asked of the master SM named by the local port's MasterSMLID.
Result<int> queryPathServiceLevel(Lid source, Lid destination, std::uint16_t pkey, const LiveOptions &options);

}  // namespace weft
