#pragma once
// A hand-made fabric for tests that need one small enough to know the answer by hand.

#include "Fabric.h"

#include <QString>
#include <QtTest>

#include <map>

namespace weft::test {

// A hand-made fabric: switches and single-port hosts by name, LIDs in order of creation.
class TinyFabric
{
public:
    void addSwitch(const QString &name, int ports) { add(NodeType::Switch, name, ports); }
    void addHost(const QString &name) { add(NodeType::ChannelAdapter, name, 1); }
    void cable(const QString &a, int portA, const QString &b, int portB)
    {
        const QString e = m_builder.connect(m_index.at(a), portA, m_index.at(b), portB);
        if (!e.isEmpty())
            qFatal("cable: %s", qPrintable(e));
    }
    Fabric build()
    {
        Result<Fabric> f = std::move(m_builder).build();
        if (!f)
            qFatal("fabric: %s", qPrintable(f.error().toString()));
        return std::move(f).value();
    }
    Lid lid(const QString &name) const { return m_lid.at(name); }
    Guid guid(const QString &name) const { return m_guid.at(name); }
    // A host's port GUID (node GUID + 1, FabricBuilder's default).
    Guid portGuid(const QString &host) const { return m_guid.at(host) + 1; }

private:
    void add(NodeType type, const QString &name, int ports)
    {
        FabricBuilder::NodeSpec spec;
        spec.type = type;
        spec.guid = 0x1000 + Guid(m_index.size()) * 0x10;
        spec.portCount = ports;
        spec.name = name;
        spec.description = name;
        NodeIndex n = kNoIndex;
        if (const QString e = m_builder.addNode(spec, &n); !e.isEmpty())
            qFatal("node: %s", qPrintable(e));
        const Lid lid = Lid(m_index.size() + 1);
        m_builder.setPortLid(n, type == NodeType::Switch ? 0 : 1, lid, 0);
        m_index[name] = n;
        m_lid[name] = lid;
        m_guid[name] = spec.guid;
    }
    FabricBuilder m_builder;
    std::map<QString, NodeIndex> m_index;
    std::map<QString, Lid> m_lid;
    std::map<QString, Guid> m_guid;
};

} // namespace weft::test
