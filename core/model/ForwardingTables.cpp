#include "ForwardingTables.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace weft {

namespace {

bool allUnrouted(const std::uint8_t *begin, const std::uint8_t *end)
{
    return std::all_of(begin, end, [](std::uint8_t p) { return p == kNoRoute; });
}

}  // namespace

void LinearForwardingTable::setPort(Lid lid, std::uint8_t port)
{
    if (lid >= m_ports.size()) {
        if (port == kNoRoute)
            return;
        // Grow to whole blocks so that a routing engine filling LIDs in order reallocates once
        // per block, not once per LID.
        const std::size_t wanted = (std::size_t(lid) / kLftBlockSize + 1) * kLftBlockSize;
        m_ports.resize(wanted, kNoRoute);
    }
    m_ports[lid] = port;
}

void LinearForwardingTable::reserve(Lid maxLid)
{
    if (std::size_t(maxLid) + 1 > m_ports.size())
        m_ports.resize(std::size_t(maxLid) + 1, kNoRoute);
}

Lid LinearForwardingTable::top() const
{
    for (std::size_t i = m_ports.size(); i > 0; --i) {
        if (m_ports[i - 1] != kNoRoute)
            return Lid(i - 1);
    }
    return 0;
}

int LinearForwardingTable::blockCount() const
{
    const Lid t = top();
    if (t == 0 && port(0) == kNoRoute)
        return 0;
    return t / kLftBlockSize + 1;
}

std::size_t LinearForwardingTable::routeCount() const
{
    return std::size_t(std::count_if(m_ports.begin(), m_ports.end(), [](std::uint8_t p) { return p != kNoRoute; }));
}

bool operator==(const LinearForwardingTable &a, const LinearForwardingTable &b)
{
    const std::vector<std::uint8_t> &shorter = a.m_ports.size() <= b.m_ports.size() ? a.m_ports : b.m_ports;
    const std::vector<std::uint8_t> &longer = a.m_ports.size() <= b.m_ports.size() ? b.m_ports : a.m_ports;
    if (!shorter.empty() && std::memcmp(shorter.data(), longer.data(), shorter.size()) != 0)
        return false;
    return allUnrouted(longer.data() + shorter.size(), longer.data() + longer.size());
}

bool blockEquals(const LinearForwardingTable &a, const LinearForwardingTable &b, int block)
{
    assert(block >= 0);
    const std::size_t first = std::size_t(block) * kLftBlockSize;
    const std::size_t last = first + kLftBlockSize;
    const std::vector<std::uint8_t> &ea = a.entries();
    const std::vector<std::uint8_t> &eb = b.entries();
    if (ea.size() >= last && eb.size() >= last)
        return std::memcmp(ea.data() + first, eb.data() + first, kLftBlockSize) == 0;
    for (std::size_t lid = first; lid < last; ++lid) {
        const std::uint8_t pa = lid < ea.size() ? ea[lid] : kNoRoute;
        const std::uint8_t pb = lid < eb.size() ? eb[lid] : kNoRoute;
        if (pa != pb)
            return false;
    }
    return true;
}

int ForwardingTables::indexOf(Guid switchGuid) const
{
    auto it = m_index.find(switchGuid);
    return it == m_index.end() ? -1 : int(it->second);
}

const SwitchForwardingTable *ForwardingTables::find(Guid switchGuid) const
{
    const int i = indexOf(switchGuid);
    return i < 0 ? nullptr : &m_switches[std::size_t(i)];
}

int ForwardingTables::addSwitch(Guid switchGuid, Lid lid, const QString &description)
{
    if (m_index.count(switchGuid))
        return -1;
    const auto index = std::uint32_t(m_switches.size());
    m_index.emplace(switchGuid, index);
    m_switches.push_back(SwitchForwardingTable{switchGuid, lid, description, {}});
    return int(index);
}

void ForwardingTables::reserve(std::size_t switches)
{
    m_switches.reserve(switches);
    m_index.reserve(switches);
}

bool operator==(const ForwardingTables &a, const ForwardingTables &b)
{
    if (a.size() != b.size())
        return false;
    for (const SwitchForwardingTable &sw : a.m_switches) {
        const SwitchForwardingTable *other = b.find(sw.guid);
        if (!other || other->lft != sw.lft)
            return false;
    }
    return true;
}

}  // namespace weft
