#include "LinkHealth.h"

#include "WhatIf.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace weft::adapt {

namespace {

QString sickFigure(double v)
{
    return QString::number(v, 'g', 3);
}

// The cable of a port, as its lower-indexed end (every cable once).
PortIndex cableEndOf(const Fabric &fabric, PortIndex p)
{
    const Port &port = fabric.port(p);
    return port.remote == kNoIndex ? kNoIndex : std::min(p, port.remote);
}

// The cables of the marks that resolve in `fabric`; the others named in `problems`.
std::vector<PortIndex> markedCablesIn(const Fabric &fabric, const std::vector<LinkMark> &marks, const QString &fileName,
                                    QStringList *problems)
{
    std::vector<PortIndex> cables;
    for (const LinkMark &mark : marks) {
        const Result<std::pair<Guid, int>> end = parseLinkEnd(fabric, mark.link);
        if (!end) {
            if (problems)
                problems->append(QStringLiteral("%1:%2: %3").arg(fileName).arg(mark.line).arg(end.error().message));
            continue;
        }
        cables.push_back(cableEndOf(fabric, fabric.portOf(fabric.nodeByGuid(end->first), end->second)));
    }
    std::sort(cables.begin(), cables.end());
    return cables;
}

bool sortedHas(const std::vector<PortIndex> &sorted, PortIndex p)
{
    return std::binary_search(sorted.begin(), sorted.end(), p);
}

LinkEvidence judgeOneCable(const MetricStore &store, PortIndex cable, const SickThresholds &k, bool marked)
{
    const Fabric &fabric = store.fabric();
    const Port &a = fabric.port(cable);
    LinkEvidence e;
    e.port = cable;
    e.peer = a.remote;
    e.end = {fabric.node(a.node).guid, a.number};
    e.name = portDisplayName(fabric, cable) + QStringLiteral("–") + portDisplayName(fabric, a.remote);
    e.windowSeconds = k.windowSeconds;
    e.marked = marked;
    double bits = 0;
    bool rateKnown = true;
    for (const PortIndex p : {cable, a.remote}) {
        const PortHealthWindow h = store.portHealth(p, k.windowSeconds, k.passes);
        e.ticks = std::max(e.ticks, h.ticks);
        e.linkDowns += h.linkDowns;
        e.symbolErrors += h.symbolErrors;
        e.seconds = std::max(e.seconds, h.seconds);
        e.unansweredPasses = std::max(e.unansweredPasses, h.unansweredPasses);
        e.passes = std::max(e.passes, h.passes);
        const Port &port = fabric.port(p);
        if (linkSignalledBits(port.width, port.speed, 1.0) > 0)
            bits += linkSignalledBits(port.width, port.speed, h.seconds);
        else
            rateKnown = false;
    }
    if (e.linkDowns >= std::uint64_t(k.flaps))
        e.reasons << QStringLiteral("flapping (link down %1 times in %2 s, at least %3)").arg(e.linkDowns).arg(sickFigure(k.windowSeconds)).arg(k.flaps);
    if (rateKnown && bits > 0) {
        e.ber = double(e.symbolErrors) / bits;
        if (*e.ber > k.ber)
            e.reasons << QStringLiteral("bit errors (%1 symbol errors in %2 s, BER %3 > %4)")
                             .arg(e.symbolErrors).arg(sickFigure(e.seconds), sickFigure(*e.ber), sickFigure(k.ber));
    } else if (e.symbolErrors >= std::uint64_t(k.symbolErrors)) {
        e.reasons << QStringLiteral("symbol errors (%1 in %2 s, at least %3; the link's rate is not known)")
                         .arg(e.symbolErrors).arg(sickFigure(e.seconds)).arg(k.symbolErrors);
    }
    if (e.passes > 0 && e.unansweredPasses >= k.unanswered)
        e.reasons << QStringLiteral("unresponsive (counters unanswered in %1 of the latest %2 ticks, at least %3)")
                         .arg(e.unansweredPasses).arg(e.passes).arg(k.unanswered);
    if (marked)
        e.reasons << QStringLiteral("marked sick by the operator");
    return e;
}

}  // namespace

SickThresholds sickThresholds(const SickCriteria &c)
{
    SickThresholds k;
    if (c.windowSeconds)
        k.windowSeconds = double(*c.windowSeconds);
    k.flaps = c.flaps.value_or(k.flaps);
    k.ber = c.ber.value_or(k.ber);
    k.symbolErrors = c.symbolErrors.value_or(k.symbolErrors);
    k.unanswered = c.unanswered.value_or(k.unanswered);
    k.passes = c.passes.value_or(std::max(k.passes, k.unanswered));
    return k;
}

QJsonObject LinkEvidence::toJson() const
{
    return {{QStringLiteral("link"), name},
            {QStringLiteral("reasons"), QJsonArray::fromStringList(reasons)},
            {QStringLiteral("window_seconds"), windowSeconds},
            {QStringLiteral("ticks"), ticks},
            {QStringLiteral("link_downs"), qint64(linkDowns)},
            {QStringLiteral("symbol_errors"), qint64(symbolErrors)},
            {QStringLiteral("seconds"), seconds},
            {QStringLiteral("ber"), ber ? QJsonValue(*ber) : QJsonValue(QJsonValue::Null)},
            {QStringLiteral("unanswered"), unansweredPasses},
            {QStringLiteral("passes"), passes},
            {QStringLiteral("marked"), marked}};
}

QString LinkEvidence::text() const
{
    if (reasons.isEmpty())
        return QStringLiteral("%1: clean for %2 s (%3 link downs, %4 symbol errors, unanswered in %5 of %6 ticks)")
            .arg(name, sickFigure(windowSeconds))
            .arg(linkDowns)
            .arg(symbolErrors)
            .arg(unansweredPasses)
            .arg(passes);
    return name + QStringLiteral(": ") + reasons.join(QStringLiteral("; "));
}

Result<LinkMarks> parseLinkMarks(const QByteArray &text, const QString &fileName)
{
    LinkMarks marks;
    marks.fileName = fileName;
    const QList<QByteArray> lines = text.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QString line = QString::fromUtf8(lines[i]);
        if (i == 0 && line.startsWith(QChar(0xFEFF)))
            line.remove(0, 1);
        const qsizetype hash = line.indexOf(QLatin1Char('#'));
        if (hash >= 0)
            line.truncate(hash);
        line = line.trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype space = line.indexOf(QRegularExpression(QStringLiteral("\\s")));
        const QString word = space < 0 ? line : line.left(space);
        const QString link = space < 0 ? QString() : line.mid(space).trimmed();
        const int number = int(i + 1);
        if (word != QLatin1String("sick") && word != QLatin1String("exclude"))
            return Error{fileName, number, QStringLiteral("expected 'sick NODE[PORT]' or 'exclude NODE[PORT]', found \"%1\"").arg(line)};
        if (link.isEmpty() || !link.endsWith(QLatin1Char(']')) || !link.contains(QLatin1Char('[')))
            return Error{fileName, number, QStringLiteral("'%1' needs a link as NODE[PORT], found \"%2\"").arg(word, link)};
        (word == QLatin1String("sick") ? marks.sick : marks.excluded).push_back({link, number});
    }
    return marks;
}

std::vector<LinkEvidence> judgeLinks(const MetricStore &store, const Selector &links, const SickCriteria &criteria,
                                     const LinkMarks &marks, QStringList *problems)
{
    const Fabric &fabric = store.fabric();
    const SickThresholds k = sickThresholds(criteria);
    const std::vector<PortIndex> excluded = markedCablesIn(fabric, marks.excluded, marks.fileName, problems);
    const std::vector<PortIndex> sick = markedCablesIn(fabric, marks.sick, marks.fileName, problems);
    std::vector<PortIndex> cables;
    if (links.all) {
        for (PortIndex p = 0; p < PortIndex(fabric.ports().size()); ++p)
            if (fabric.port(p).present && cableEndOf(fabric, p) == p)
                cables.push_back(p);
    } else if (const Result<std::pair<Guid, int>> end = parseLinkEnd(fabric, links.name); end) {
        cables.push_back(cableEndOf(fabric, fabric.portOf(fabric.nodeByGuid(end->first), end->second)));
    } else if (problems) {
        problems->append(QStringLiteral("link[\"%1\"]: %2").arg(links.name, end.error().message));
    }
    std::vector<LinkEvidence> judged;
    judged.reserve(cables.size());
    for (const PortIndex cable : cables)
        if (cable != kNoIndex && !sortedHas(excluded, cable))
            judged.push_back(judgeOneCable(store, cable, k, sortedHas(sick, cable)));
    return judged;
}

std::vector<LinkEvidence> sickLinks(const MetricStore &store, const Selector &links, const SickCriteria &criteria,
                                    const LinkMarks &marks, QStringList *problems)
{
    std::vector<LinkEvidence> judged = judgeLinks(store, links, criteria, marks, problems);
    judged.erase(std::remove_if(judged.begin(), judged.end(), [](const LinkEvidence &e) { return !e.sick(); }), judged.end());
    return judged;
}

std::optional<LinkEvidence> judgeCable(const MetricStore &store, const std::pair<Guid, int> &end, const SickCriteria &criteria,
                                       double windowSeconds, const LinkMarks &marks)
{
    const Fabric &fabric = store.fabric();
    const NodeIndex n = fabric.nodeByGuid(end.first);
    const PortIndex p = n == kNoIndex ? kNoIndex : fabric.portOf(n, end.second);
    if (p == kNoIndex || fabric.port(p).remote == kNoIndex)
        return std::nullopt;
    SickThresholds k = sickThresholds(criteria);
    k.windowSeconds = windowSeconds;
    const PortIndex cable = cableEndOf(fabric, p);
    const std::vector<PortIndex> sick = markedCablesIn(fabric, marks.sick, marks.fileName, nullptr);
    return judgeOneCable(store, cable, k, sortedHas(sick, cable));
}

int defaultDrainCap(std::size_t cables)
{
    return std::max(10, int(std::ceil(double(cables) * 0.005)));
}

std::size_t cableCount(const Fabric &fabric)
{
    std::size_t count = 0;
    for (PortIndex p = 0; p < PortIndex(fabric.ports().size()); ++p)
        count += fabric.port(p).present && cableEndOf(fabric, p) == p ? 1 : 0;
    return count;
}

}  // namespace weft::adapt
