#pragma once
// Unicast forwarding tables: what routing engines produce, what LFT dumps hold, and what diffs
// compare. A switch's linear forwarding table maps each destination LID to an out port; the
// subnet manager pushes it in 64-entry blocks, so block-level comparison is the cheap question
// a diff asks ("would this block be sent?").

#include "Fabric.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace weft {

// The out port OpenSM writes for "no path" (OSM_NO_PATH); also what a switch answers for LIDs
// it cannot reach.
constexpr std::uint8_t kNoRoute = 0xFF;
// Entries per LinearForwardingTable attribute block (one SMP each).
constexpr int kLftBlockSize = 64;

class LinearForwardingTable
{
public:
    LinearForwardingTable() = default;
    // Room for LIDs 0..maxLid, all without a route.
    explicit LinearForwardingTable(Lid maxLid) : m_ports(std::size_t(maxLid) + 1, kNoRoute) {}

    // kNoRoute for LIDs past the stored range.
    std::uint8_t port(Lid lid) const { return lid < m_ports.size() ? m_ports[lid] : kNoRoute; }
    bool hasRoute(Lid lid) const { return port(lid) != kNoRoute; }
    // Grows the table as needed; `port` kNoRoute clears the entry.
    void setPort(Lid lid, std::uint8_t port);
    void clear(Lid lid) { setPort(lid, kNoRoute); }
    void reserve(Lid maxLid);
    // Room for LIDs 0..maxLid (at least), to be filled in place by an engine that writes whole
    // tables: the entries, kNoRoute where nothing was written yet.
    std::uint8_t *entriesToFill(Lid maxLid)
    {
        reserve(maxLid);
        return m_ports.data();
    }

    // Highest LID with a route (SwitchInfo:LinearFDBTop); 0 if the table routes nothing.
    Lid top() const;
    // Blocks 0..top/64 that a subnet manager writes for this table; 0 if it routes nothing.
    int blockCount() const;
    std::size_t routeCount() const;

    // The raw entries, indexed by LID; may be shorter or longer than top() + 1.
    const std::vector<std::uint8_t> &entries() const { return m_ports; }

    // Equal routes; storage length does not matter (missing entries are kNoRoute).
    friend bool operator==(const LinearForwardingTable &a, const LinearForwardingTable &b);
    friend bool operator!=(const LinearForwardingTable &a, const LinearForwardingTable &b) { return !(a == b); }

private:
    std::vector<std::uint8_t> m_ports;
};

// True when block `block` (LIDs block*64 .. block*64+63) is the same in both tables, i.e. a
// subnet manager moving from one to the other would not send that block.
bool blockEquals(const LinearForwardingTable &a, const LinearForwardingTable &b, int block);

struct SwitchForwardingTable
{
    Guid guid = 0;        // switch node GUID
    Lid lid = 0;          // the switch's LID (port 0); 0 when not known
    QString description;  // NodeDescription when known
    LinearForwardingTable lft;
};

// The tables of a set of switches, in the order they were added (file order for a dump), with
// lookup by node GUID.
class ForwardingTables
{
public:
    std::size_t size() const { return m_switches.size(); }
    bool isEmpty() const { return m_switches.empty(); }
    const std::vector<SwitchForwardingTable> &switches() const { return m_switches; }
    const SwitchForwardingTable &at(std::size_t i) const { return m_switches[i]; }

    // Index of the switch, or -1.
    int indexOf(Guid switchGuid) const;
    bool contains(Guid switchGuid) const { return indexOf(switchGuid) >= 0; }
    // nullptr if the switch has no table here.
    const SwitchForwardingTable *find(Guid switchGuid) const;

    // Appends an empty table for a switch; returns its index, or -1 if the GUID is already here.
    int addSwitch(Guid switchGuid, Lid lid = 0, const QString &description = {});
    // The GUID is the key and cannot change; the rest can.
    LinearForwardingTable &lft(std::size_t i) { return m_switches[i].lft; }
    void setSwitchLid(std::size_t i, Lid lid) { m_switches[i].lid = lid; }
    void setSwitchDescription(std::size_t i, const QString &description) { m_switches[i].description = description; }

    void reserve(std::size_t switches);

    // Same switches with the same routes. Order, switch LIDs and descriptions are metadata and
    // not compared: two dumps of the same routing taken in different orders are equal.
    friend bool operator==(const ForwardingTables &a, const ForwardingTables &b);
    friend bool operator!=(const ForwardingTables &a, const ForwardingTables &b) { return !(a == b); }

private:
    std::vector<SwitchForwardingTable> m_switches;
    std::unordered_map<Guid, std::uint32_t> m_index;
};

}  // namespace weft
