#include "PortTelemetry.h"

#include <algorithm>

namespace weft {

namespace {

struct ErrorCounterInfo
{
    const char *name;
    int bits;
};
// PortCounters (IBA 16.1.3.5): the widths of its error fields.
constexpr ErrorCounterInfo kErrorCounters[kPortErrorCounterCount] = {
    {"SymbolError", 16},
    {"LinkErrorRecovery", 8},
    {"LinkDowned", 8},
    {"PortRcvErrors", 16},
    {"PortRcvRemotePhysicalErrors", 16},
    {"PortRcvSwitchRelayErrors", 16},
    {"PortXmitDiscards", 16},
    {"PortXmitConstraintErrors", 8},
    {"PortRcvConstraintErrors", 8},
    {"LocalLinkIntegrityErrors", 4},
    {"ExcessiveBufferOverrunErrors", 4},
    {"VL15Dropped", 16},
};
constexpr int kXmitWaitBits = 32;

// OpenSM's perfmgr clears a port's counters once one passes 75 % of its range; its 4-bit
// counters at 10 of 15, as here.
bool pastClearThreshold(std::uint64_t value, int bits)
{
    return value >= counterMaximum(bits) / 4 * 3;
}

// Timing jitter between two readings can push a busy link a little over its rate; this much
// over is a counter set by hand or a wrong link rate, not traffic.
constexpr double kImplausibleFactor = 1.5;

// The share of the signalling rate that carries data, by line encoding.
double encodingEfficiency(LinkSpeed speed)
{
    switch (speed) {
    case LinkSpeed::SDR:
    case LinkSpeed::DDR:
    case LinkSpeed::QDR:
        return 8.0 / 10.0;
    case LinkSpeed::FDR10:
    case LinkSpeed::FDR:
    case LinkSpeed::EDR:
        return 64.0 / 66.0;
    case LinkSpeed::HDR:
    case LinkSpeed::NDR:
    case LinkSpeed::XDR:
        return 50.0 / 53.125;  // 53.125 GBd PAM4 lanes carry 50 Gb/s after RS-FEC framing
    case LinkSpeed::Unknown:
        break;
    }
    return 0.0;
}

CounterRate rateOf(const CounterDelta &delta, double seconds, double factor)
{
    if (!delta.ok())
        return {0, delta.gap};
    return {double(delta.delta) * factor / seconds, CounterGap::None};
}

}  // namespace

QString portErrorCounterName(PortErrorCounter counter)
{
    return QLatin1String(kErrorCounters[int(counter)].name);
}

int portErrorCounterBits(PortErrorCounter counter)
{
    return kErrorCounters[int(counter)].bits;
}

QString counterGapName(CounterGap gap)
{
    switch (gap) {
    case CounterGap::None:
        return {};
    case CounterGap::NoAnswer:
        return QStringLiteral("no-answer");
    case CounterGap::Cleared:
        return QStringLiteral("cleared");
    case CounterGap::Saturated:
        return QStringLiteral("saturated");
    case CounterGap::NoInterval:
        return QStringLiteral("no-interval");
    case CounterGap::Implausible:
        return QStringLiteral("implausible");
    case CounterGap::Unsupported:
        return QStringLiteral("unsupported");
    }
    return {};
}

bool portCountersNeedClearing(const PortCounterSample &sample)
{
    if (!sample.answered)
        return false;
    if (!sample.extended)
        for (std::uint64_t v : {sample.xmitData, sample.rcvData, sample.xmitPackets, sample.rcvPackets})
            if (pastClearThreshold(v, 32))
                return true;
    if (sample.hasXmitWait && pastClearThreshold(sample.xmitWait, kXmitWaitBits))
        return true;
    for (int i = 0; i < kPortErrorCounterCount; ++i)
        if (pastClearThreshold(sample.errors[std::size_t(i)], kErrorCounters[i].bits))
            return true;
    return false;
}

CounterGap PortRates::firstGap() const
{
    for (const CounterRate *r : {&xmitBytes, &rcvBytes, &xmitPackets, &rcvPackets})
        if (!r->ok())
            return r->gap;
    return CounterGap::None;
}

double linkDataBytesPerSecond(int width, LinkSpeed speed)
{
    if (width <= 0)
        return 0.0;
    return width * linkSpeedGbps(speed) * encodingEfficiency(speed) * 1e9 / 8.0;
}

CounterDelta counterDelta(std::uint64_t previous, std::uint64_t current, int bits)
{
    const std::uint64_t maximum = counterMaximum(bits);
    if (current < previous)
        return {0, CounterGap::Cleared};
    if (current >= maximum)
        return {0, CounterGap::Saturated};
    return {current - previous, CounterGap::None};
}

PortRates portRates(const PortCounterSample &previous, const PortCounterSample &current, double seconds,
                    double linkBytesPerSecond)
{
    PortRates rates;
    CounterGap whole = CounterGap::None;
    if (!previous.answered || !current.answered)
        whole = CounterGap::NoAnswer;
    else if (!(seconds > 0))
        whole = CounterGap::NoInterval;
    if (whole != CounterGap::None) {
        for (CounterRate *r : {&rates.xmitBytes, &rates.rcvBytes, &rates.xmitPackets, &rates.rcvPackets, &rates.xmitWait,
                               &rates.utilisation})
            r->gap = whole;
        for (CounterDelta &d : rates.errors)
            d.gap = whole;
        return rates;
    }

    // A switch from PortCounters to PortCountersExtended between readings (or back) compares
    // counters of different attributes: no rate from that pair.
    // After the reader's own clear, PortCounters start again from zero; a PMA that keeps its
    // 64-bit counters in the same registers may have cleared those too.
    const bool ownClear = previous.clearedAfter;
    auto since = [&](std::uint64_t before) { return ownClear ? 0 : before; };
    auto dataDelta = [&](std::uint64_t before, std::uint64_t now) {
        if (previous.extended != current.extended)
            return CounterDelta{0, CounterGap::NoInterval};
        if (ownClear && (!current.extended || now < before))
            before = 0;
        return counterDelta(before, now, current.dataBits());
    };
    rates.xmitBytes = rateOf(dataDelta(previous.xmitData, current.xmitData), seconds, 4.0);
    rates.rcvBytes = rateOf(dataDelta(previous.rcvData, current.rcvData), seconds, 4.0);
    rates.xmitPackets = rateOf(dataDelta(previous.xmitPackets, current.xmitPackets), seconds, 1.0);
    rates.rcvPackets = rateOf(dataDelta(previous.rcvPackets, current.rcvPackets), seconds, 1.0);
    if (linkBytesPerSecond > 0) {
        for (CounterRate *r : {&rates.xmitBytes, &rates.rcvBytes})
            if (r->ok() && r->value > kImplausibleFactor * linkBytesPerSecond)
                *r = {0, CounterGap::Implausible};
    }

    if (current.hasXmitWait && previous.hasXmitWait)
        rates.xmitWait = rateOf(counterDelta(since(previous.xmitWait), current.xmitWait, kXmitWaitBits), seconds, 1.0);
    else
        rates.xmitWait.gap = CounterGap::Unsupported;

    if (!rates.xmitBytes.ok())
        rates.utilisation.gap = rates.xmitBytes.gap;
    else if (linkBytesPerSecond <= 0)
        rates.utilisation.gap = CounterGap::Unsupported;
    else
        rates.utilisation.value = std::clamp(rates.xmitBytes.value / linkBytesPerSecond, 0.0, 1.0);

    for (int i = 0; i < kPortErrorCounterCount; ++i)
        rates.errors[std::size_t(i)] = counterDelta(since(previous.errors[std::size_t(i)]), current.errors[std::size_t(i)],
                                                    kErrorCounters[i].bits);
    return rates;
}

}  // namespace weft
