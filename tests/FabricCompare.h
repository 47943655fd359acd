#pragma once
// Compares two fabrics structurally, matching nodes by GUID: the same nodes (type, port count,
// description), the same cables between the same port numbers, and optionally the same LIDs.
// Returns an empty string when equal, else the first difference in words, for QVERIFY2.

#include "Fabric.h"

#include <QString>

#include <set>
#include <tuple>

namespace weft::test {

struct CompareOptions
{
    bool lids = true;
    bool descriptions = true;
    bool linkProperties = false;  // width and speed
};

inline QString hexGuid(Guid g)
{
    return QStringLiteral("0x%1").arg(g, 16, 16, QLatin1Char('0'));
}

inline QString compareFabrics(const Fabric &expected, const Fabric &actual, CompareOptions options = {})
{
    if (expected.nodes().size() != actual.nodes().size())
        return QStringLiteral("%1 nodes expected, %2 found").arg(expected.nodes().size()).arg(actual.nodes().size());
    if (expected.links().size() != actual.links().size())
        return QStringLiteral("%1 links expected, %2 found").arg(expected.links().size()).arg(actual.links().size());
    for (const Node &e : expected.nodes()) {
        const NodeIndex ai = actual.nodeByGuid(e.guid);
        if (ai == kNoIndex)
            return QStringLiteral("node %1 (\"%2\") missing").arg(hexGuid(e.guid), e.description);
        const Node &a = actual.node(ai);
        if (a.type != e.type || a.portCount != e.portCount)
            return QStringLiteral("node %1: type/ports %2/%3 expected, %4/%5 found")
                .arg(hexGuid(e.guid), nodeTypeName(e.type)).arg(e.portCount).arg(nodeTypeName(a.type)).arg(a.portCount);
        if (options.descriptions && a.description != e.description)
            return QStringLiteral("node %1: description \"%2\" expected, \"%3\" found").arg(hexGuid(e.guid), e.description, a.description);
        for (int p = 0; p <= e.portCount; ++p) {
            const Port &ep = expected.port(e.firstPort + p);
            const Port &ap = actual.port(a.firstPort + p);
            if (ep.present && ep.guid != ap.guid)
                return QStringLiteral("node %1 port %2: GUID %3 expected, %4 found").arg(hexGuid(e.guid)).arg(p).arg(hexGuid(ep.guid), hexGuid(ap.guid));
            if (options.lids && (ep.lid != ap.lid || ep.lmc != ap.lmc))
                return QStringLiteral("\"%1\" port %2: LID %3 LMC %4 expected, LID %5 LMC %6 found")
                    .arg(e.description).arg(p).arg(ep.lid).arg(ep.lmc).arg(ap.lid).arg(ap.lmc);
            if ((ep.remote == kNoIndex) != (ap.remote == kNoIndex))
                return QStringLiteral("\"%1\" port %2: cabled in one fabric only").arg(e.description).arg(p);
            if (ep.remote != kNoIndex) {
                const Port &er = expected.port(ep.remote);
                const Port &ar = actual.port(ap.remote);
                if (expected.node(er.node).guid != actual.node(ar.node).guid || er.number != ar.number)
                    return QStringLiteral("\"%1\" port %2: cabled to %3 port %4 expected, %5 port %6 found")
                        .arg(e.description).arg(p).arg(hexGuid(expected.node(er.node).guid)).arg(er.number)
                        .arg(hexGuid(actual.node(ar.node).guid)).arg(ar.number);
                if (options.linkProperties && (ep.width != ap.width || ep.speed != ap.speed))
                    return QStringLiteral("\"%1\" port %2: link %3x%4 expected, %5x%6 found").arg(e.description).arg(p)
                        .arg(ep.width).arg(linkSpeedName(ep.speed)).arg(ap.width).arg(linkSpeedName(ap.speed));
            }
        }
    }
    return {};
}

} // namespace weft::test
