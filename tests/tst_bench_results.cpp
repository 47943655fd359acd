// RESULTS.md against `weft bench results [--quick] --json`: every figure of the quick column
// (figuresMatchTheDocument:quick, seconds) and of the full column (figuresMatchTheDocument:full,
// about half a minute; ctest's tst_bench_results_full, label results-full) is what Weft computes
// now, within the row's stated tolerance; every row of the document has a figure and every
// figure has a row (none missing either way); timing rows are reported, filled and marked "not
// checked".

#include "WeftRunner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <map>

using namespace weft::test;

namespace {

// A row of a RESULTS.md table: | `id` | result | paper | full | quick | unit | tolerance | command |
struct DocumentRow
{
    int line = 0;
    QStringList cells;
};

enum Column { Id,
              Result,
              Paper,
              Full,
              Quick,
              Unit,
              Tolerance,
              Command,
              Columns };

std::map<QString, DocumentRow> readDocument(const QString &path, QString *problem)
{
    std::map<QString, DocumentRow> rows;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *problem = QStringLiteral("cannot read %1").arg(path);
        return rows;
    }
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (!line.startsWith(QLatin1String("| `")))
            continue;
        QStringList cells = line.mid(1, line.size() - 2).split(QLatin1Char('|'));
        for (QString &c : cells)
            c = c.trimmed();
        if (cells.size() != Columns) {
            *problem = QStringLiteral("%1:%2: %3 cells, expected %4").arg(path).arg(i + 1).arg(cells.size()).arg(int(Columns));
            return {};
        }
        QString id = cells[Id];
        id.remove(QLatin1Char('`'));
        if (rows.count(id)) {
            *problem = QStringLiteral("%1:%2: row %3 given twice").arg(path).arg(i + 1).arg(id);
            return {};
        }
        rows[id] = {i + 1, cells};
    }
    return rows;
}

double number(const QString &cell, bool *ok)
{
    QString text = cell;
    text.remove(QLatin1Char('`'));
    return text.toDouble(ok);
}

}  // namespace

class TestBenchResults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void figuresMatchTheDocument_data()
    {
        QTest::addColumn<bool>("full");
        QTest::addRow("quick") << false;
        QTest::addRow("full") << true;
    }

    void figuresMatchTheDocument()
    {
        QFETCH(bool, full);
        const QString path = QFINDTESTDATA("../RESULTS.md");
        QVERIFY2(!path.isEmpty(), "RESULTS.md not found next to tests/");
        QString problem;
        const std::map<QString, DocumentRow> document = readDocument(path, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(document.size() >= 20);

        QStringList args{QStringLiteral("bench"), QStringLiteral("results"), QStringLiteral("--json")};
        if (!full)
            args << QStringLiteral("--quick");
        const Run run = runWeft(args, 600000);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(json.value(QStringLiteral("variant")).toString(), full ? QStringLiteral("full") : QStringLiteral("quick"));
        const QJsonArray rows = json.value(QStringLiteral("rows")).toArray();
        QCOMPARE(int(rows.size()), int(document.size()));

        QStringList seen;
        for (const QJsonValue &value : rows) {
            const QJsonObject row = value.toObject();
            const QString id = row.value(QStringLiteral("id")).toString();
            QVERIFY2(!seen.contains(id), qPrintable(id));
            seen << id;
            const auto it = document.find(id);
            QVERIFY2(it != document.end(), qPrintable(QStringLiteral("row %1 is not in RESULTS.md").arg(id)));
            const DocumentRow &doc = it->second;
            const QString where = QStringLiteral("RESULTS.md:%1 (%2)").arg(doc.line).arg(id);
            for (int c = 0; c < Columns; ++c)
                QVERIFY2(!doc.cells[c].isEmpty(), qPrintable(where + QStringLiteral(": empty cell %1").arg(c)));
            QCOMPARE(doc.cells[Unit], row.value(QStringLiteral("unit")).toString());
            QVERIFY2(doc.cells[Command].contains(QStringLiteral("--only %1").arg(id)), qPrintable(where + QStringLiteral(": command")));

            const double weft = row.value(QStringLiteral("weft")).toDouble(std::nan(""));
            QVERIFY2(std::isfinite(weft), qPrintable(where + QStringLiteral(": no figure")));
            bool fullOk = false, quickOk = false;
            number(doc.cells[Full], &fullOk);
            const double quick = number(doc.cells[Quick], &quickOk);
            const double documented = full ? number(doc.cells[Full], &fullOk) : quick;
            QVERIFY2(fullOk, qPrintable(where + QStringLiteral(": full column \"%1\" is not a number").arg(doc.cells[Full])));
            QVERIFY2(quickOk, qPrintable(where + QStringLiteral(": quick column \"%1\" is not a number").arg(doc.cells[Quick])));

            if (!row.value(QStringLiteral("checked")).toBool()) {
                QCOMPARE(doc.cells[Tolerance], QStringLiteral("not checked"));
                continue;
            }
            bool tolOk = false;
            const double tolerance = doc.cells[Tolerance].mid(1).toDouble(&tolOk);  // "±0.001"
            QVERIFY2(doc.cells[Tolerance].startsWith(QStringLiteral("±")) && tolOk,
                     qPrintable(where + QStringLiteral(": tolerance \"%1\"").arg(doc.cells[Tolerance])));
            QCOMPARE(tolerance, row.value(QStringLiteral("tolerance")).toDouble());
            // The document prints 4 decimals at most; half a unit of the last one is rounding.
            QVERIFY2(std::abs(weft - documented) <= tolerance + 0.00005,
                     qPrintable(where + QStringLiteral(": weft now %1, the document's %2 column %3, tolerance ±%4").arg(weft).arg(full ? QStringLiteral("full") : QStringLiteral("quick")).arg(documented).arg(tolerance)));
        }
    }
};

QTEST_GUILESS_MAIN(TestBenchResults)
#include "tst_bench_results.moc"
