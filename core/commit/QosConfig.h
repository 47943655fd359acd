#pragma once
// Service levels on the wire: what OpenSM needs so that partitions with their own SL (pFTree's
// vlane-isolation) really travel on separate virtual lanes, and how the commit checks it.
//
// What OpenSM 3.3.23 does (read in its source):
//  - A partition's SL is the `sl=N` flag of its header in partitions.conf (osm_prtn_config.c
//    partition_create). With QoS off OpenSM overrides it to SL 0 ("Overriding SL ... as QoS is
//    not enabled"), so `sl=` alone changes nothing. The SA answers a PathRecord with the SL of the
//    partition of the P_Key (osm_sa_path_record.c, "use partition SL") unless a QoS policy level
//    or the request names one; with QoS on it refuses an SL that some SL2VL table on the path
//    maps to VL 15.
//  - SL2VL tables are programmed by osm_qos_setup (osm_qos.c) on every heavy sweep, only when the
//    option `qos` is TRUE: each CA port from `qos_ca_sl2vl`, each switch in/out port pair from
//    `qos_swe_sl2vl` (port 0 from `qos_sw0_sl2vl`, routers `qos_rtr_sl2vl`), each falling back
//    to `qos_sl2vl` (16 comma-separated VLs; default "0,1,...,14,7"). A port is programmed only
//    if its CapabilityMask has IsSLMappingSupported (0x40); each VL is masked by the port's
//    OperationalVLs (`(1 << (OpVLs - 1)) - 1`), so a VL above what the port operates folds onto
//    a lower one. Only a Set for a table that differs from OpenSM's copy is sent.
//  - A SIGHUP forces a heavy sweep, which first re-reads the options file given with -F
//    (osm_subn_rescan_conf_files, from osm_state_mgr.c do_sweep): only options marked
//    "can be changed at runtime" change. `qos`, `qos_max_vls`, `qos_*_sl2vl` and `qos_*_vlarb_*`
//    are (osm_subnet.c opt_tbl, can_update 1); `qos_policy_file` is not (its content, though, is
//    re-parsed by every osm_qos_setup). Every `qos_*` option is reset before the file is read,
//    so a line taken out returns to OpenSM's default; `qos` is not: once TRUE it stays TRUE
//    until a line says FALSE. partitions.conf is re-read by every heavy sweep after the
//    options, so its `sl=` is judged with the new `qos`.
//  - ibsim 0.10 (sim_mad.c do_sl2vl, sim_net.c) keeps a SL2VL table per CA port and per switch
//    in/out pair, answers Get and Set of SLtoVLMappingTable (0x0017, modifier in << 8 | out on
//    switches), reports VLCap VL0-7 and accepts OperationalVLs up to it, and sets
//    IsSLMappingSupported: what OpenSM programs can be read back there as on hardware.
// So the commit manages the QoS lines of OpenSM's options file (-F): `qos TRUE` and one
// `qos_sl2vl` that gives every planned SL its own VL (SLs not planned stay on VL 0), removing the
// per-port-type sl2vl lines that would override it; the rest of the file is kept as it is. The
// SL2VL options need no restart; only the path of the options file is fixed at start.

#include "Fabric.h"
#include "ReconfigurationPlan.h"
#include "Result.h"
#include "Tenancy.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <array>
#include <map>
#include <vector>

namespace weft {

constexpr int kServiceLevels = 16;
constexpr int kSl2VlAttribute = 0x0017;  // SLtoVLMappingTable
using SlToVl = std::array<std::uint8_t, kServiceLevels>;

// The SL2VL table that keeps each SL of `levels` on its own VL: the planned SLs, ascending, get
// VL 1, 2, ...; every other SL (SL 0 included) VL 0. An Error when more SLs are planned than
// `dataVls - 1` (VL 0 stays for everything else), e.g. 7 on ibsim's VL0-7.
Result<SlToVl> planSlToVl(const std::map<std::uint16_t, int> &levels, int dataVls = 8);

QString slToVlText(const SlToVl &table);  // "0,1,2,0,..." as OpenSM's qos_sl2vl takes it

// OpenSM's options file with the QoS lines Weft manages: `qos TRUE` and `qos_sl2vl` from
// `table`; earlier `qos`, `qos_sl2vl` and `qos_{ca,sw0,swe,rtr}_sl2vl` lines are dropped (they
// would override it), everything else is kept in order.
QByteArray withQosOptions(const QByteArray &options, const SlToVl &table);

// One SL2VL table as a port holds it: a CA port's (inPort = outPort = 0 in OpenSM's terms) or a
// switch's for a pair of ports.
struct PortSlToVl
{
    PortIndex port = kNoIndex;  // the output port (the CA port for a CA)
    int inPort = 0;             // switches: the input port number; CAs: 0
    SlToVl vls{};
};

// What a fabric's SL2VL tables must hold for `levels` under `table`: for each planned SL, every
// CA port and every switch in/out pair of linked ports maps it to table[SL], and no two planned
// SLs share a VL. Empty when the tables hold; else one line per wrong table (at most `maxReported`).
QStringList checkSlToVl(const Fabric &fabric, const std::vector<PortSlToVl> &read, const std::map<std::uint16_t, int> &levels,
                        const SlToVl &table, int maxReported = 20);

// Differences between two read-backs of the same ports (for the rollback): empty when equal.
QStringList compareSlToVl(const Fabric &fabric, const std::vector<PortSlToVl> &expected, const std::vector<PortSlToVl> &read,
                          int maxReported = 20);

// Two full members of each partition of `levels` (end ports of `partitions` with LIDs), for the
// PathRecord check; a partition with fewer than two is left out.
struct PathProbe
{
    std::uint16_t pkey = 0;
    int serviceLevel = 0;
    Lid source = 0;
    Lid destination = 0;
};
std::vector<PathProbe> pathProbes(const Fabric &fabric, const std::vector<Partition> &partitions,
                                  const std::map<std::uint16_t, int> &levels);

}  // namespace weft
