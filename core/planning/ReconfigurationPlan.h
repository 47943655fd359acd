#pragma once
// Planning a reconfiguration: what moving a fabric from its current state to a proposed one
// changes and costs (LFT entries and blocks, P_Key blocks, SMPs, the partitions.conf diff), and
// the partitions.conf that carries the proposal. `weft diff`, the Diff Review and `weft commit`
// all ask this one function, so they give the same figures for the same inputs.
//
// The Default partition is decided here, once, as OpenSM 3.3.23 does it (osm_prtn.c): before
// reading partitions.conf OpenSM creates Default=0x7fff with every endpoint port a limited
// member and its own port (SELF) a full member, whether or not the file names Default; a
// Default rule in the file adds to that. Therefore:
//  - P_Key tables on both sides carry Default whether or not the partitions list it
//    (computePKeyTables applies OpenSM's rule; a file that lists `Default=0x7fff : ALL=limited,
//    SELF=full ;` gives the same tables and SMPs as one that does not);
//  - the planned partitions name Default explicitly (plannedPartitions()), so that the file
//    that gets installed shows what the fabric will hold (mission anchors §10);
//  - in the partitions.conf diff, a side given as partitions is written as Weft writes it, with
//    Default explicit: the Diff Review and the commit, whose inputs may or may not list Default,
//    never show it as a change unless its members change. A side given as a file's text (`weft
//    diff --partitions-from/--partitions-to`) is shown as that text: the operator compares the
//    files he has, so a file that lists Default against one that does not shows that line.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "PKeyTables.h"
#include "ReconfigurationDiff.h"
#include "Tenancy.h"

#include <QByteArray>
#include <QString>

#include <map>
#include <optional>
#include <vector>

namespace weft {

// One side's partitions.
struct PartitionsState
{
    std::vector<Partition> partitions;
    // The side as a partitions.conf file holds it: the diff shows this text. Unset: the text
    // Weft writes for `partitions`, Default explicit.
    std::optional<QByteArray> conf;
    QString name;  // in the diff's header; empty: "partitions.conf (current)" / "(proposed)"
};

struct ReconfigurationRequest
{
    ReconfigurationDiffOptions lfts;
    // Without proposed partitions only the forwarding tables are planned.
    std::optional<PartitionsState> proposedPartitions;
    PartitionsState currentPartitions;  // default: no partitions.conf, Default only
    // The P_Key tables the ports hold, read from the fabric. Unset: those OpenSM programs for
    // currentPartitions from a fresh start (currentPartitions then still gives the diff's text).
    std::optional<PKeyTables> currentPKeys;
    // The P_Key tables the ports are to hold, as given (a P_Key table file, PKeyTableFile.h), with
    // proposedPartitions the partitions they amount to (partitionsHeld) for the planned
    // partitions.conf and the diff's text. Unset: those OpenSM programs for proposedPartitions,
    // moving on from the current tables. A port the current tables have and these lack is taken
    // as emptied (a P_Key table file lists only ports that hold something).
    std::optional<PKeyTables> proposedPKeys;
    PKeyTableOptions pkeys;  // OpenSM's port (SELF) and partition enforcement
    // P_Key (low 15 bits) -> SL for partitions with their own service level (Routing::
    // serviceLevels): the planned partitions carry it as `sl=` (see QosConfig.h for what else
    // OpenSM needs).
    std::map<std::uint16_t, int> serviceLevels;
};

struct ReconfigurationPlan
{
    ReconfigurationDiff diff;                  // LFTs, P_Key blocks, SMPs, partitions.conf diff
    std::vector<Partition> plannedPartitions;  // proposed, Default explicit; empty if none proposed
    QByteArray plannedPartitionsConf;          // what to install as partitions.conf
    PKeyTables plannedPKeys;                   // what the ports hold afterwards (for read-back)
};

// The partitions to install for `proposed`: Default made explicit where OpenSM adds it
// implicitly (withExplicitDefault).
std::vector<Partition> plannedPartitions(std::vector<Partition> proposed);

// P_Key (low 15 bits) -> SL: the partitions whose header gives `sl=`.
std::map<std::uint16_t, int> partitionServiceLevels(const std::vector<Partition> &partitions);

// The partitions with `sl=` set from `levels` (P_Key -> SL); a partition not in it keeps its own.
std::vector<Partition> withServiceLevels(std::vector<Partition> partitions, const std::map<std::uint16_t, int> &levels);

// `current` is what the switches hold (empty tables: every switch starts empty).
ReconfigurationPlan planReconfiguration(const Fabric &fabric, const ForwardingTables &current,
                                        const ForwardingTables &proposed, const ReconfigurationRequest &request = {});

}  // namespace weft
