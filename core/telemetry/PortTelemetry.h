#pragma once
// Port counters as a port's performance management agent reports them, and the rates two
// readings imply. A reading is raw (what the PMA said, in its units); rates are a pure function
// of two readings and the time between them, so the monitor, the history and the tests share
// one arithmetic.
//
// Counters do not wrap: the IBA has them stop at their maximum. A counter found at its maximum,
// one that went down (cleared by someone else between two readings), or a port that did not
// answer gives a gap for that counter, never a rate: no negative or absurd figure reaches a
// user.

#include "Fabric.h"

#include <QString>

#include <array>
#include <cstdint>

namespace weft {

// The error counters of PortCounters, in the order the attribute lays them out.
enum class PortErrorCounter : std::uint8_t {
    SymbolError,
    LinkErrorRecovery,
    LinkDowned,
    PortRcvErrors,
    PortRcvRemotePhysicalErrors,
    PortRcvSwitchRelayErrors,
    PortXmitDiscards,
    PortXmitConstraintErrors,
    PortRcvConstraintErrors,
    LocalLinkIntegrityErrors,
    ExcessiveBufferOverrunErrors,
    VL15Dropped,
};
constexpr int kPortErrorCounterCount = 12;

// "SymbolError", "LinkDowned", ... (the names of the IBA and of ibsim's PerformanceSet).
QString portErrorCounterName(PortErrorCounter counter);
// The counter's width in bits in PortCounters (SymbolError 16, LinkDowned 8, ...).
int portErrorCounterBits(PortErrorCounter counter);
// The largest value a counter of `bits` bits holds (where it sticks).
constexpr std::uint64_t counterMaximum(int bits)
{
    return bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
}

// One reading of one port.
struct PortCounterSample
{
    bool answered = false;  // false: the PMA did not answer; nothing below is meaningful
    // The data and packet counters came from PortCountersExtended (64 bits) rather than from
    // PortCounters (32 bits).
    bool extended = false;
    std::uint64_t xmitData = 0;  // PortXmitData, in units of 4 octets
    std::uint64_t rcvData = 0;   // PortRcvData, in units of 4 octets
    std::uint64_t xmitPackets = 0;
    std::uint64_t rcvPackets = 0;
    bool hasXmitWait = false;    // ClassPortInfo says PortXmitWait is supported
    std::uint64_t xmitWait = 0;  // PortXmitWait, 32 bits, in ticks the port had data but could not send
    std::array<std::uint64_t, kPortErrorCounterCount> errors{};
    // The reader cleared this port's PortCounters (a PMA Set) right after this reading: the
    // next reading counts those counters from zero, which is no one else's clear.
    bool clearedAfter = false;

    int dataBits() const { return extended ? 64 : 32; }
};

// Whether a counter of the port's PortCounters (the 32-bit data and packet counters where the
// reading is not extended, PortXmitWait, the error counters) has passed 75 % of its range, the
// point where OpenSM's perfmgr clears a port's counters before they stick at their maximum.
bool portCountersNeedClearing(const PortCounterSample &sample);

// Why a figure is missing.
enum class CounterGap : std::uint8_t {
    None,
    NoAnswer,     // the port did not answer this time or the time before
    Cleared,      // the counter went down: someone reset it between the readings
    Saturated,    // the counter is at its maximum and no longer counts
    NoInterval,   // no earlier reading, or no time between the two
    Implausible,  // more than the link can carry: a counter set by hand, not traffic
    Unsupported,  // the port does not have this counter
};
// "no-answer", "cleared", "saturated", "no-interval", "implausible", "unsupported"; empty for None.
QString counterGapName(CounterGap gap);

struct CounterRate
{
    double value = 0;
    CounterGap gap = CounterGap::None;
    bool ok() const { return gap == CounterGap::None; }
};

struct CounterDelta
{
    std::uint64_t delta = 0;
    CounterGap gap = CounterGap::None;
    bool ok() const { return gap == CounterGap::None; }
};

struct PortRates
{
    CounterRate xmitBytes;  // per second, octets (the counters' 4-octet units multiplied out)
    CounterRate rcvBytes;
    CounterRate xmitPackets;
    CounterRate rcvPackets;
    CounterRate xmitWait;     // PortXmitWait ticks per second
    CounterRate utilisation;  // transmit side, 0..1 of the link's data rate; a gap if that is unknown
    std::array<CounterDelta, kPortErrorCounterCount> errors{};

    // The first gap among the transmit and receive figures (None if all are there).
    CounterGap firstGap() const;
};

// What a link carries per second per direction, in octets: width x the lane's data rate after
// line encoding (8b/10b up to QDR, 64b/66b for FDR10, FDR and EDR, FEC-framed PAM4 from HDR on),
// so that FDR10 4x is 40 Gb/s of data and EDR 4x 100 Gb/s. 0 when width or speed is unknown.
double linkDataBytesPerSecond(int width, LinkSpeed speed);

// The change of one counter of `bits` bits between two readings.
CounterDelta counterDelta(std::uint64_t previous, std::uint64_t current, int bits);

// The rates between two readings of one port `seconds` apart. Where `previous.clearedAfter`,
// the PortCounters fields count from zero (and a 64-bit counter found lower than before too). `linkBytesPerSecond` is
// linkDataBytesPerSecond of the port's active width and speed (0 if unknown).
PortRates portRates(const PortCounterSample &previous, const PortCounterSample &current, double seconds,
                    double linkBytesPerSecond);

}  // namespace weft
