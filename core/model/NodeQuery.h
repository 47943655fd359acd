#pragma once
// Finding a node from what an operator types: part of its description or node id, its GUID
// (whole or in part, with or without "0x", colons allowed) or one of its port GUIDs, or its LID
// ("lid 17", "lid:0x11"; a bare number is a LID too). The node table's search box and the
// fabric view's find box read the text the same way; the table keeps every node that matches,
// the find box goes to the one the text names best.

#include "Fabric.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace weft {

class NodeQuery
{
public:
    explicit NodeQuery(const QString &text = {});

    const QString &text() const { return m_text; }  // trimmed
    bool isEmpty() const { return m_text.isEmpty(); }

    // Whether `node` is one the text may mean: a port of it answers the LID, its description or
    // node id contains the text, or its GUID or a port GUID contains the GUID digits typed.
    bool matches(const Fabric &fabric, NodeIndex node) const;

    // The node the text names best, trying in turn: the LID, a whole node or port GUID, the node
    // id, the description (any case), the first description containing the text, the first node
    // that matches(); kNoIndex if none.
    NodeIndex find(const Fabric &fabric) const;

private:
    NodeIndex nodeOfLid(const Fabric &fabric) const;

    QString m_text;
    std::optional<std::uint32_t> m_lid;  // the LID the text names
    bool m_lidOnly = false;              // "lid N": the LID and nothing else
    std::optional<Guid> m_guid;          // the text read as a whole GUID
    QString m_guidFragment;              // GUID digits to look for; empty when too short to mean one
};

}  // namespace weft
