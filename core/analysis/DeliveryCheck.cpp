#include "DeliveryCheck.h"

#include "Validation.h"

namespace weft {

QStringList DeliveryCheck::warnings() const
{
    QStringList lines;
    if (unreachablePairs) {
        QString which;
        if (unreachableServicePairs == unreachablePairs)
            which = QStringLiteral("all between service nodes (Aggregation Nodes, management CAs) on switches of different "
                                   "branches, which no up*/down* path joins; every pair with a compute or I/O node arrives; ");
        else if (unreachableServicePairs)
            which = QStringLiteral("%1 of them between service nodes; ").arg(unreachableServicePairs);
        lines << QStringLiteral("unreachable: %1 of %2 ordered pairs of end ports (%3%4)")
                     .arg(unreachablePairs)
                     .arg(pairs)
                     .arg(which, QStringLiteral("e.g. ") + unreachableExamples.join(QStringLiteral("; ")));
    }
    if (loops) {
        lines << QStringLiteral("forwarding loops: %1 (%2)").arg(loops).arg(QStringLiteral("e.g. ") + loopExamples.join(QStringLiteral("; ")));
    }
    if (creditLoop) {
        lines << QStringLiteral("credit loop (the routing can deadlock): %1").arg(creditLoopChannels.join(QStringLiteral(" -> ")));
    }
    return lines;
}

DeliveryCheck checkDelivery(const Fabric &fabric, const Tenancy &tenancy, const ForwardingTables &tables,
                            const LaneAssignment &lanes, int examples)
{
    ValidationOptions options;
    options.maxReported = std::max(examples, 1);
    return deliveryCheckOf(validateRouting(fabric, tenancy, tables, lanes, options), examples);
}

DeliveryCheck deliveryCheckOf(const ValidationResult &v, int examples)
{
    DeliveryCheck c;
    c.endPorts = v.endPorts;
    c.pairs = v.endPorts > 1 ? std::uint64_t(v.endPorts) * (v.endPorts - 1) : 0;
    c.unreachablePairs = v.unreachablePartitionPairs + v.unreachableOtherPairs;
    c.unreachableServicePairs = v.unreachableServicePairs;
    c.loops = v.loops;
    c.creditLoop = !v.deadlockFree;
    c.creditLoopChannels = v.creditLoop;
    for (const QString &problem : v.problems + v.managementProblems) {
        QStringList &list = problem.startsWith(QLatin1String("forwarding loop")) ? c.loopExamples : c.unreachableExamples;
        if (list.size() < examples)
            list << problem;
    }
    return c;
}

}  // namespace weft
