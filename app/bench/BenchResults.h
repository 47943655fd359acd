#pragma once
// `weft bench results`: the seeds' headline results recomputed with Weft's own stages, one row
// per figure, as RESULTS.md tabulates them. Every figure comes from a stage (generator, engines,
// fluid throughput, eBB, SlimUpdate, the metabase, vSwitch migration planning, routing keys),
// on fixed seeds, so two runs give the same figures (the timing rows excepted: they are ratios
// measured side by side in one run, and not checked).
//
// --quick runs the same rows on smaller fabrics, with fewer samples, in a few seconds: the
// figures CI holds RESULTS.md's quick column to (tests/tst_bench_results.cpp).

#include "Result.h"

#include <QJsonObject>
#include <QString>

#include <vector>

namespace weft::cli {

struct HeadlineRow
{
    QString seed;     // "000 pFTree", as RESULTS.md heads its section
    QString id;       // stable key: "pftree-fig7-victim-two-flows"
    QString result;   // what the figure is
    QString paper;    // the paper's figure and setup, as text
    QString setup;    // Weft's setup for this variant (fabric, traffic, samples)
    double weft = 0;  // Weft's figure
    QString unit;
    double tolerance = 0;  // absolute, in `unit`; the test's bound for a re-run
    bool checked = true;   // false: a timing ratio, reported but not held to a tolerance
};

struct HeadlineOptions
{
    bool quick = false;
};

// Every row, in RESULTS.md's order; fails only when a stage fails on its fixed input.
Result<std::vector<HeadlineRow>> headlineResults(const HeadlineOptions &options);

// {"variant": "quick"|"full", "rows": [{seed, id, result, paper, setup, weft, unit, tolerance,
// checked, command}]}; tolerance is null for a row not checked.
QJsonObject headlineResultsToJson(const std::vector<HeadlineRow> &rows, bool quick);
// RESULTS.md's tables, one per seed: id, result, paper, the full and the quick figure, unit,
// tolerance, command. `full` may be empty (its column then says "not run").
QString headlineResultsToMarkdown(const std::vector<HeadlineRow> &full, const std::vector<HeadlineRow> &quick);
// The command that prints a row: "weft bench results --quick --only ID".
QString headlineCommand(const HeadlineRow &row, bool quick);

int benchResults(const QStringList &args);

}  // namespace weft::cli
