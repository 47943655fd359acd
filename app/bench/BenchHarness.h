#pragma once
// What every `weft bench` benchmark shares, so that each one says only what it times: the
// generated fat-tree it runs on (--radix, --levels), how often (--repeat), --json, timing runs
// with their peak memory, min and median, and printing the figures as text or JSON.

#include "FabricGenerator.h"
#include "ForwardingTables.h"
#include "Result.h"
#include "Tenancy.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <algorithm>
#include <functional>
#include <optional>
#include <type_traits>
#include <vector>

namespace weft::cli {

// Seconds of day of an OpenSM log line ("Nov 21 14:17:13 583716 [8E1EB6C0] ..."), or -1.
double openSmLogTime(const QString &line);

// The seconds a running timer has measured.
double secondsOf(const QElapsedTimer &timer);

// Sorts `values` (so front() is the minimum) and returns the median.
double medianOf(std::vector<double> &values);

// Resident memory of this process: the peak mark reset, and the current and peak figures.
void resetPeakMemory();
qint64 residentBytes();
qint64 peakResidentBytes();

// `partitions` tenants of equal size in host order, each its own partition with `policy`, all
// full members (P_Keys 0x100, 0x101, ...): the tenancy the routing benchmarks route for.
Tenancy equalTenants(const GeneratedFabric &generated, int partitions, IsolationPolicy policy);

// `partitions` tenants with each host given to one of them at random (seeded: the same every
// run), as a scheduler on a shared cluster leaves them; P_Keys and membership as above.
Tenancy scatteredTenants(const GeneratedFabric &generated, int partitions, IsolationPolicy policy, std::uint32_t seed = 42);

// A copy of `tables` in which every switch sends every 7th LID out of another port: the second
// table set of the diff benchmarks.
ForwardingTables perturbedTables(const ForwardingTables &tables, const Fabric &fabric);

// Timings of repeated runs, in ascending order.
struct Timings
{
    std::vector<double> seconds;
    qint64 peakGrowthBytes = 0;  // the largest growth of peak resident memory over one run

    double min() const { return seconds.front(); }
    double median() const { return seconds[seconds.size() / 2]; }
};

// Timings and what the last run returned.
template <typename T>
struct Timed
{
    Timings timings;
    T last;
};

enum class PeakMemory : bool { Ignore, Measure };

namespace detail {
template <typename R>
struct ResultValue;
template <typename T>
struct ResultValue<Result<T>>
{
    using type = T;
};
}  // namespace detail

class Benchmark
{
public:
    // `name` as typed after `weft bench` ("parse"); the description heads --help.
    Benchmark(const QString &name, const QString &description);

    // For the options only this benchmark has, added in the order --help lists them.
    QCommandLineParser &parser() { return m_parser; }
    bool isSet(const QString &option) const { return m_parser.isSet(option); }
    QString value(const QString &option) const { return m_parser.value(option); }

    void addTreeOptions(int defaultRadix = 36);
    // --repeat N; `description` has a %1 for the default.
    void addRepeatOption(int defaultRuns, const QString &description = QStringLiteral("Runs to time (default %1)."));
    // Adds --json and parses; the exit code when the benchmark is not to run (help shown, bad
    // usage), nothing when it is.
    std::optional<int> parse(const QStringList &args);

    int repeat() const { return m_repeat; }
    GeneratorOptions treeOptions() const;
    Result<GeneratedFabric> generateTree() const { return generateFabric(treeOptions()); }

    // Times repeat() calls of run(), which returns a Result; the first failure ends the runs.
    // What a run returns is freed after its time is taken, so freeing is not timed.
    template <typename Run, typename T = typename detail::ResultValue<std::invoke_result_t<Run &>>::type>
    Result<Timed<T>> time(Run &&run, PeakMemory memory = PeakMemory::Ignore) const;

    // "weft bench NAME: <error>" on stderr; returns the exit code for bad input.
    int fail(const Error &error) const;
    int fail(const QString &message) const;
    // Prints the figures, `json` with --json and what `text` writes otherwise; returns kExitOk.
    int report(const QJsonObject &json, const std::function<void(QTextStream &)> &text) const;

private:
    QString m_command;  // "bench parse"
    QCommandLineParser m_parser;
    bool m_hasRepeat = false;
    int m_repeat = 1;
};

template <typename Run, typename T>
Result<Timed<T>> Benchmark::time(Run &&run, PeakMemory memory) const
{
    Timings timings;
    std::optional<T> last;
    for (int i = 0; i < m_repeat; ++i) {
        if (memory == PeakMemory::Measure)
            resetPeakMemory();
        const qint64 before = memory == PeakMemory::Measure ? residentBytes() : 0;
        QElapsedTimer timer;
        timer.start();
        Result<T> result = run();
        timings.seconds.push_back(double(timer.nsecsElapsed()) / 1e9);
        if (memory == PeakMemory::Measure)
            timings.peakGrowthBytes = std::max(timings.peakGrowthBytes, peakResidentBytes() - before);
        if (!result)
            return result.error();
        last = std::move(result).value();
    }
    medianOf(timings.seconds);
    return Timed<T>{std::move(timings), std::move(*last)};
}

}  // namespace weft::cli
