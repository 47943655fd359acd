#include "Tenancy.h"

namespace weft {

QString policyName(IsolationPolicy policy)
{
    switch (policy) {
    case IsolationPolicy::Physical: return QStringLiteral("phy-isolation");
    case IsolationPolicy::VirtualLane: return QStringLiteral("vlane-isolation");
    case IsolationPolicy::Default: return QStringLiteral("def-isolation");
    }
    return {};
}

std::optional<IsolationPolicy> policyFromName(const QString &name)
{
    for (auto p : {IsolationPolicy::Physical, IsolationPolicy::VirtualLane, IsolationPolicy::Default})
        if (name == policyName(p))
            return p;
    return std::nullopt;
}

QString membershipName(Membership m)
{
    switch (m) {
    case Membership::Full: return QStringLiteral("full");
    case Membership::Limited: return QStringLiteral("limited");
    case Membership::Both: return QStringLiteral("both");
    }
    return {};
}

}  // namespace weft
