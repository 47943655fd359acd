#include "ErrorThresholds.h"

#include "TextReader.h"

namespace weft {

namespace {

constexpr const char *kXmitWaitName = "PortXmitWait";

}  // namespace

QString errorThresholdName(PortErrorCounter counter)
{
    switch (counter) {
    case PortErrorCounter::SymbolError:
    case PortErrorCounter::LinkErrorRecovery:
    case PortErrorCounter::LinkDowned:
        return portErrorCounterName(counter) + QStringLiteral("Counter");
    default:
        return portErrorCounterName(counter);
    }
}

Result<ErrorThresholds> readErrorThresholds(const QByteArray &data, const QString &fileName)
{
    TextReader in(data, fileName);
    ErrorThresholds thresholds;
    try {
        while (in.next()) {
            const std::string_view line = text::trimmed(in.line());
            if (line.empty() || line.front() == '#')
                continue;
            const std::size_t equals = line.find('=');
            if (equals == std::string_view::npos)
                in.fail(QStringLiteral("\"%1\" is not CounterName=value").arg(text::toQString(line)));
            const QString name = text::toQString(text::trimmed(line.substr(0, equals)));
            const std::string_view value = text::trimmed(line.substr(equals + 1));
            if (value.empty())
                in.fail(QStringLiteral("%1 has no value").arg(name));
            const std::uint64_t limit = in.number(value, 10, name, 0, ~std::uint64_t(0));
            if (name == QLatin1String(kXmitWaitName)) {
                thresholds.xmitWait = limit;
                continue;
            }
            bool known = false;
            for (int c = 0; c < kPortErrorCounterCount && !known; ++c) {
                const auto counter = PortErrorCounter(c);
                if (name == errorThresholdName(counter) || name == portErrorCounterName(counter)) {
                    thresholds.errors[std::size_t(c)] = limit;
                    known = true;
                }
            }
            if (!known) {
                QStringList names;
                for (int c = 0; c < kPortErrorCounterCount; ++c)
                    names << errorThresholdName(PortErrorCounter(c));
                names << QLatin1String(kXmitWaitName);
                in.fail(QStringLiteral("unknown counter \"%1\" (known: %2)").arg(name, names.join(QStringLiteral(", "))));
            }
        }
    } catch (const InputError &e) {
        return in.error(e);
    }
    return thresholds;
}

Result<ErrorThresholds> readErrorThresholdsFile(const QString &path)
{
    Result<QByteArray> data = TextReader::readFile(path);
    if (!data)
        return data.error();
    return readErrorThresholds(*data, path);
}

}  // namespace weft
