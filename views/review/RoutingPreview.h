#pragma once
// Routing preview: the operator picks an engine and a traffic model, Weft routes the fabric in
// the background (with progress and cancel), and the current and proposed routings are shown
// side by side: validation, metrics, the link-load histogram and, when asked for, the
// distribution of effective bisection bandwidth. Nothing here computes a figure itself: it asks
// routing/ (computePreview in RoutingProposal.h) and shows its answers.
//
// It routes what the FabricDocument holds (fabric, tenancy, current tables) and hands the
// result to the document's RoutingSession as the proposal; what it shows is the session's
// proposal, whoever set it. While what-if events are active (a cable or switch failed on the
// map), it routes the fabric with them applied and both sides are judged on that fabric; the
// proposal carries the events, so the review names them and Approve installs it only as a
// pre-emptive plan (valid on the fabric as it is), or refuses before anything is written.

#include "DocumentChanges.h"
#include "Fabric.h"
#include "ForwardingTables.h"
#include "RoutingProposal.h"
#include "TrafficModel.h"
#include "WhatIf.h"

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

class FabricDocument;

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
        ThroughputRow,
        EbbRow,
        RowCount
    };
    enum Column { MeasureColumn, CurrentColumn, ProposedColumn, ColumnCount };

    explicit RoutingPreview(FabricDocument *document, QWidget *parent = nullptr);
    ~RoutingPreview() override;

    QString engine() const;
    void setEngine(const QString &engine);
    TrafficModel trafficModel() const;
    // Also the traffic the session measures the current tables under.
    void setTrafficPattern(TrafficPattern pattern);
    void setEbbSamples(int samples);  // 0 turns eBB off

    bool isRunning() const { return m_progress != nullptr; }
    const PreviewResult *result() const;  // the session's proposal
    QTableWidget *comparisonTable() const { return m_table; }
    QString statusText() const;

    // Text of a figure as the table shows it, for one side's metrics (tests compare with it).
    static QString formatNumber(double value);

public Q_SLOTS:
    void start();
    void cancel();

Q_SIGNALS:
    // After the session has the new proposal (or has none, when the run failed).
    void finished(bool ok);

private:
    void documentChanged(DocumentChanges what);
    void finish(const std::shared_ptr<Result<PreviewResult>> &outcome);
    void endRun();
    void pollProgress();
    void showResult();
    void showHeader();
    void clearResult();
    void showIdleStatus();
    void plotLoads();
    void plotEbb();
    void setRow(Row row, const QString &measure, const QString &current, const QString &proposed, int better = 0);

    FabricDocument *m_document;
    std::shared_ptr<PreviewProgress> m_progress;  // non-null while running
    quint64 m_generation = 0;  // a run that finishes after new input is dropped
    // What the running preview routes and compares with, to drop it when either is replaced.
    std::shared_ptr<const Fabric> m_runFabric;
    std::shared_ptr<const ForwardingTables> m_runCurrent;
    QString m_runEngine;
    WhatIf m_runWhatIf;  // the what-if events the run routes the fabric with (the session's)
    QString m_runWhatIfText;

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

}  // namespace weft
