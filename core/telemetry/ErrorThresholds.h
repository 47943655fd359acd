#pragma once
// Port error counter thresholds in infiniband-diags' `error_thresholds` form (what ibqueryerrors
// reads): one `CounterName=value` a line, `#` comments and blank lines ignored, a later line for
// the same counter overriding an earlier one. The names are the IBA's as perfquery prints them
// (SymbolErrorCounter, LinkDownedCounter, PortRcvErrors, ...); Weft's shorter names (SymbolError,
// LinkDowned) are taken too. A counter the file does not name has the threshold 0, as theirs: any
// error is reported. PortXmitWait counts congestion, not errors: it is checked only when the file
// gives it a threshold. A count is over its threshold when it is greater.

#include "PortTelemetry.h"
#include "Result.h"

#include <QByteArray>
#include <QString>

#include <array>
#include <cstdint>
#include <optional>

namespace weft {

struct ErrorThresholds
{
    std::array<std::uint64_t, kPortErrorCounterCount> errors{};  // by PortErrorCounter, default 0
    std::optional<std::uint64_t> xmitWait;                       // unset: PortXmitWait not checked
};

Result<ErrorThresholds> readErrorThresholds(const QByteArray &data, const QString &fileName);
Result<ErrorThresholds> readErrorThresholdsFile(const QString &path);

// The name `error_thresholds` and perfquery give a counter ("SymbolErrorCounter").
QString errorThresholdName(PortErrorCounter counter);

}  // namespace weft
