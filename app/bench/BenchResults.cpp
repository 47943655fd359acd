// weft bench results: the seeds' headline results, recomputed. Each section (Headline*.cpp) builds the
// paper's setup (or the product benchmark protocol of spec 003 §6 where the paper gives none)
// from the generator, runs Weft's stages on it and returns rows; nothing here computes a
// routing, a rate or a cost itself. RESULTS.md explains every row.

#include "BenchResults.h"

#include "BenchHarness.h"
#include "CliSupport.h"
#include "Commands.h"
#include "HeadlineSetups.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <map>

namespace weft::cli {

namespace {

QString formatFigure(double value, const QString &unit)
{
    if (unit == QLatin1String("SMPs") || unit == QLatin1String("switches") || unit == QLatin1String("pairs"))
        if (value == std::floor(value))
            return QString::number(qint64(value));
    if (unit == QLatin1String("ms"))
        return QString::number(value, 'f', 3);
    if (unit == QLatin1String("%"))
        return QString::number(value, 'f', 2);
    return QString::number(value, 'f', 4);
}

}  // namespace

QString headlineCommand(const HeadlineRow &row, bool quick)
{
    return QStringLiteral("weft bench results%1 --only %2").arg(quick ? QStringLiteral(" --quick") : QString(), row.id);
}

Result<std::vector<HeadlineRow>> headlineResults(const HeadlineOptions &options)
{
    // Each section appends its seed's rows, in RESULTS.md's order.
    using namespace headline;
    using Section = Status (*)(std::vector<HeadlineRow> &, bool quick);
    const Section sections[] = {pftreeFig7, pftreeTable3, pftreeTable4, pftreeWeighted, vswitchRows,
                                vswitchFig8, pssspRows, wftreeRows, reconfigurationRows, keysRows};
    std::vector<HeadlineRow> rows;
    for (Section section : sections)
        if (Status s = section(rows, options.quick); !s)
            return s.error();
    return rows;
}

QJsonObject headlineResultsToJson(const std::vector<HeadlineRow> &rows, bool quick)
{
    QJsonArray array;
    for (const HeadlineRow &r : rows)
        array.append(QJsonObject{{QStringLiteral("seed"), r.seed},
                                 {QStringLiteral("id"), r.id},
                                 {QStringLiteral("result"), r.result},
                                 {QStringLiteral("paper"), r.paper},
                                 {QStringLiteral("setup"), r.setup},
                                 {QStringLiteral("weft"), r.weft},
                                 {QStringLiteral("unit"), r.unit},
                                 {QStringLiteral("tolerance"), r.checked ? QJsonValue(r.tolerance) : QJsonValue()},
                                 {QStringLiteral("checked"), r.checked},
                                 {QStringLiteral("command"), headlineCommand(r, quick)}});
    return QJsonObject{{QStringLiteral("variant"), quick ? QStringLiteral("quick") : QStringLiteral("full")},
                       {QStringLiteral("rows"), array}};
}

QString headlineResultsToMarkdown(const std::vector<HeadlineRow> &full, const std::vector<HeadlineRow> &quick)
{
    std::map<QString, const HeadlineRow *> fullById;
    for (const HeadlineRow &r : full)
        fullById[r.id] = &r;
    QString text;
    QString seed;
    for (const HeadlineRow &r : quick) {
        if (r.seed != seed) {
            seed = r.seed;
            text += QStringLiteral("\n### %1\n\n| id | result | paper (figure, setup) | Weft, full | Weft, quick | unit | tolerance | command |\n"
                                   "|---|---|---|---|---|---|---|---|\n")
                        .arg(seed);
        }
        const auto f = fullById.find(r.id);
        const HeadlineRow &shown = f != fullById.end() ? *f->second : r;
        text += QStringLiteral("| `%1` | %2 | %3 | %4 | %5 | %6 | %7 | `%8` |\n")
                    .arg(r.id, shown.result, shown.paper,
                         f != fullById.end() ? formatFigure(f->second->weft, r.unit) : QStringLiteral("not run"),
                         formatFigure(r.weft, r.unit), r.unit,
                         r.checked ? QStringLiteral("±%1").arg(r.tolerance) : QStringLiteral("not checked"),
                         headlineCommand(r, false));
    }
    return text;
}

int benchResults(const QStringList &args)
{
    Benchmark bench(QStringLiteral("results"), QStringLiteral("The seeds' headline results recomputed with Weft's stages (RESULTS.md's tables): pFTree's\n"
                                                              "victims, Table 4, its cost to other partitions and pFTree-Wt; the vSwitch paper's Tables 2\n"
                                                              "and 3 and Fig. 8; P-SSSP's and P2-SSSP's eBB; wFTree, SlimUpdate (R2, R4) and the metabase;\n"
                                                              "routing keys (H3, H5, H6, H9-H11). --quick uses smaller fabrics (seconds, for CI)."));
    bench.parser().addOption({QStringLiteral("quick"), QStringLiteral("Smaller fabrics and fewer samples (RESULTS.md's quick column).")});
    bench.parser().addOption({QStringLiteral("markdown"), QStringLiteral("Print Markdown tables, one per seed.")});
    bench.parser().addOption({QStringLiteral("only"), QStringLiteral("Print only the row with this id (computing all)."), QStringLiteral("ID")});
    if (const std::optional<int> exitCode = bench.parse(args))
        return *exitCode;
    const bool quick = bench.isSet(QStringLiteral("quick"));
    HeadlineOptions options;
    options.quick = quick;
    Result<std::vector<HeadlineRow>> rows = headlineResults(options);
    if (!rows)
        return bench.fail(rows.error());
    // --only ID: that row alone (all are computed: the sections share their fabrics).
    const QString only = bench.value(QStringLiteral("only"));
    auto keepOnly = [&](std::vector<HeadlineRow> &list) {
        if (!only.isEmpty())
            list.erase(std::remove_if(list.begin(), list.end(), [&](const HeadlineRow &r) { return r.id != only; }), list.end());
    };
    keepOnly(*rows);
    if (rows->empty())
        return bench.fail(QStringLiteral("no row \"%1\" (see weft bench results --json for the ids)").arg(only));
    if (bench.isSet(QStringLiteral("markdown"))) {
        // RESULTS.md's tables hold both variants: the quick one is computed too (it takes a second).
        std::vector<HeadlineRow> full;
        if (!quick) {
            full = std::move(*rows);
            Result<std::vector<HeadlineRow>> quickRows = headlineResults(HeadlineOptions{true});
            if (!quickRows)
                return bench.fail(quickRows.error());
            *rows = std::move(*quickRows);
            keepOnly(*rows);
        }
        out() << headlineResultsToMarkdown(full, *rows);
        out().flush();
        return kExitOk;
    }
    return bench.report(headlineResultsToJson(*rows, quick), [&](QTextStream &o) {
        QString seed;
        for (const HeadlineRow &r : *rows) {
            if (r.seed != seed) {
                seed = r.seed;
                o << seed << '\n';
            }
            o << "  " << r.id << ": " << formatFigure(r.weft, r.unit) << ' ' << r.unit << "  (paper: " << r.paper << ")\n";
        }
    });
}

}  // namespace weft::cli
