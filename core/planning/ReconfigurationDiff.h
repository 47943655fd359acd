#pragma once
// What moving a fabric from its current tables to a proposed routing costs: per switch the LFT
// entries and 64-entry blocks that change, per port the 32-entry P_Key blocks that change, the
// partitions.conf text diff, and the number of SMPs OpenSM 3.3.23 sends for it.
//
// OpenSM's rules (osm_ucast_mgr.c, osm_pkey_mgr.c, osm_state_mgr.c):
//  - Every switch is visited for blocks 0 .. maxLid/64, maxLid the highest LID of the subnet; a
//    LinearForwardingTable block is sent when it differs from the block the switch holds, or
//    for every block when a full push is forced (first master sweep, a new switch, coming out
//    of standby: need_update).
//  - A SwitchInfo Set (LinearFDBTop) is sent when the top OpenSM sets differs from what the
//    switch holds. OpenSM sets the subnet's highest LID, not the highest routed one, so on an
//    unchanged subnet it is never sent by a routing change; the highest routed LID is reported
//    per switch for information only.
//  - P_Key blocks: see PKeyTables.h.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "PKeyTables.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace weft {

struct SwitchLftChange
{
    Guid guid = 0;
    Lid lid = 0;
    QString description;
    int changedEntries = 0;
    std::vector<int> changedBlocks;  // the blocks OpenSM sends, ascending
    Lid topFrom = 0;                 // highest routed LID before and after
    Lid topTo = 0;
    bool switchInfoSet = false;      // a SwitchInfo Set (LinearFDBTop) is sent
};

struct PKeyBlockChange
{
    Guid nodeGuid = 0;
    int portNumber = 0;
    QString description;
    int block = 0;
    std::vector<std::uint16_t> from;  // the 32 entries before and after
    std::vector<std::uint16_t> to;
};

struct ReconfigurationDiffOptions
{
    bool fullPush = false;  // OpenSM's need_update: every block of every switch is sent
    // LinearFDBTop the switches hold and the one OpenSM will set; 0: the fabric's highest LID
    // (what OpenSM sets on an unchanged subnet).
    Lid linearFdbTopFrom = 0;
    Lid linearFdbTopTo = 0;
};

struct ReconfigurationDiff
{
    std::vector<SwitchLftChange> switches;  // touched switches only, in the order of `to`
    long long changedEntries = 0;
    long long changedBlocks = 0;            // LinearForwardingTable Sets
    int switchInfoSets = 0;
    std::vector<PKeyBlockChange> pkeyBlocks;  // PKeyTable Sets
    QString partitionsDiff;                   // unified diff; empty when the texts are equal
    QStringList warnings;

    int switchesTouched() const { return int(switches.size()); }
    long long smps() const { return changedBlocks + switchInfoSets + (long long)pkeyBlocks.size(); }
};

// Compares two table sets switch by switch (matched by GUID). A switch missing from one side
// holds no routes there (OpenSM's file engine gives an unlisted switch an empty table). With a
// fabric, the block range and LinearFDBTop follow the fabric's LIDs and switches the fabric does
// not have are skipped with a warning.
ReconfigurationDiff diffForwardingTables(const ForwardingTables &from, const ForwardingTables &to,
                                         const Fabric *fabric = nullptr,
                                         const ReconfigurationDiffOptions &options = {});

// Adds the P_Key blocks that change between two sets of port tables.
void addPKeyDiff(ReconfigurationDiff &diff, const Fabric &fabric, const PKeyTables &from, const PKeyTables &to);

// A unified diff (3 lines of context) of two texts; empty when they are equal.
QString unifiedDiff(const QByteArray &from, const QByteArray &to, const QString &fromName, const QString &toName);

QString diffToText(const ReconfigurationDiff &diff, int maxSwitches = 50);
QJsonObject diffToJson(const ReconfigurationDiff &diff);

}  // namespace weft
