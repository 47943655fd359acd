#pragma once
// Routing preview: the operator picks an engine and a traffic model, Weft routes the fabric in
// the background (with progress and cancel), and the current and proposed routings are shown
// side by side: validation, metrics, the link-load histogram and, when asked for, the
// distribution of effective bisection bandwidth. Nothing here computes a figure itself: it asks
// routing/ and core/ and shows their answers.

#include "EffectiveBisection.h"
#include "Fabric.h"
#include "ForwardingTables.h"
#include "Metrics.h"
#include "Result.h"
#include "Tenancy.h"
#include "TrafficModel.h"
#include "Validation.h"

#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace weft {

/** One side of the comparison: a set of tables and what core says about them. */
struct RoutingSnapshot
{
    QString label;  // "Current: opensm.lfts", "Proposed: ftree"
    std::shared_ptr<const ForwardingTables> tables;
    ValidationResult validation;
    std::shared_ptr<const Metrics> metrics;
    std::optional<EbbResult> ebb;
    QStringList warnings;  // the engine's, and tables that leave LIDs unrouted
};

struct PreviewRequest
{
    std::shared_ptr<const Fabric> fabric;
    Tenancy tenancy;
    std::shared_ptr<const ForwardingTables> current;  // null: the fabric has no known tables
    QString currentName;
    QString engine = QStringLiteral("ftree");
    TrafficModel model;
    int ebbSamples = 0;  // 0: no eBB
};

struct PreviewResult
{
    std::optional<RoutingSnapshot> current;
    RoutingSnapshot proposed;
};

/** What a running preview reports to the GUI thread; written by the worker. */
struct PreviewProgress
{
    std::atomic<int> phase{0};  // PreviewPhase
    std::atomic<int> done{0};
    std::atomic<int> total{0};
    std::atomic<bool> cancel{false};
};

enum PreviewPhase { PhaseRouting = 0, PhaseValidating, PhaseMeasuring, PhaseBisection, PhaseDone };

// The whole computation, on any thread. Fails with the engine's reason, or "cancelled".
Result<PreviewResult> computePreview(const PreviewRequest &request, PreviewProgress *progress = nullptr);

class RoutingPreview : public QWidget
{
    Q_OBJECT

public:
    // Rows of the comparison table, in order; the key is in Qt::UserRole of column 0.
    enum Row {
        ValidationRow,
        UnreachableRow,
        LoopsRow,
        DeadlockRow,
        PolicyRow,
        MaxLoadRow,
        MeanLoadRow,
        StddevLoadRow,
        MaxRoutesRow,
        SharedLinksRow,
        InterferenceRow,
        UndeliveredRow,
        EbbRow,
        RowCount
    };
    enum Column { MeasureColumn, CurrentColumn, ProposedColumn, ColumnCount };

    explicit RoutingPreview(QWidget *parent = nullptr);
    ~RoutingPreview() override;

    // What to route. Clears the result shown (it was for another input).
    void setFabric(std::shared_ptr<const Fabric> fabric, const Tenancy &tenancy,
                   std::shared_ptr<const ForwardingTables> current, const QString &currentName);
    // The tenancy changed: the result shown is marked out of date.
    void setTenancy(const Tenancy &tenancy);

    QString engine() const;
    void setEngine(const QString &engine);
    TrafficModel trafficModel() const;
    void setTrafficPattern(TrafficPattern pattern);
    void setEbbSamples(int samples);  // 0 turns eBB off

    bool isRunning() const { return m_progress != nullptr; }
    const PreviewResult *result() const { return m_result ? &*m_result : nullptr; }
    QTableWidget *comparisonTable() const { return m_table; }
    QString statusText() const;

    // Text of a figure as the table shows it, for one side's metrics (tests compare with it).
    static QString formatNumber(double value);

public Q_SLOTS:
    void start();
    void cancel();

Q_SIGNALS:
    void finished(bool ok);
    // A new proposal (or none, when cleared): the window recolours the fabric by it.
    void resultChanged();

private:
    void finish(const std::shared_ptr<Result<PreviewResult>> &outcome);
    void pollProgress();
    void showResult();
    void clearResult();
    void plotLoads();
    void plotEbb();
    void setRow(Row row, const QString &measure, const QString &current, const QString &proposed, int better = 0);

    std::shared_ptr<const Fabric> m_fabric;
    Tenancy m_tenancy;
    std::shared_ptr<const ForwardingTables> m_current;
    QString m_currentName;
    std::optional<PreviewResult> m_result;
    std::shared_ptr<PreviewProgress> m_progress;  // non-null while running
    quint64 m_generation = 0;  // a run that finishes after new input is dropped
    bool m_stale = false;

    QComboBox *m_engine = nullptr;
    QComboBox *m_pattern = nullptr;
    QCheckBox *m_ebb = nullptr;
    QSpinBox *m_ebbSamples = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_bar = nullptr;
    QLabel *m_status = nullptr;
    QTableWidget *m_table = nullptr;
    QPlainTextEdit *m_warnings = nullptr;
    QCustomPlot *m_loadPlot = nullptr;
    QCustomPlot *m_ebbPlot = nullptr;
    QTimer *m_poll = nullptr;
};

} // namespace weft
