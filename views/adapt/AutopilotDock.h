#pragma once
// The desk's Autopilot (issue 13, spec 003 §8 "Self-adaptive loop"): the rules (an editor with
// Check and Apply, Open and Save), the mode and the "pause autonomy" switch, the loop's state
// per MAPE-K stage, the last tick, the active symptoms and the cooldowns, the firing log with the
// selected record's details, and a status line.
//
// The dock owns the AdaptLoop (routing/adapt/AdaptLoop.h) once the document has a fabric with
// installed tables: the document's fabric, current tables, tenancy, baseline partitions and
// traffic model are its knowledge, and the configured commit target's journal its audit, so the
// Commit Journal dialog shows what it did. Ticks come from the telemetry sampler (the main
// window wires sampled() to takeTick); each runs loop.tick() on a worker thread, and the GUI
// leaves the loop alone meanwhile: what the operator does then (Apply, mode, pause, a commit's
// outcome) waits for the tick to end, and a tick arriving while one runs is skipped and counted.
//
// What a firing's plan becomes: in approve mode the chosen candidate is made the document's
// proposal (CandidateReview.h), so the Diff Review shows it and nothing is committed until the
// operator approves; in auto mode the Diff Review then commits it without a question
// (DiffReview::commitUnattended, the same commit path and target). Either way the Diff Review's
// commitFinished gives the loop its executed(); a committed change becomes the document's
// current tables. An operator's commit (the document's current tables replaced) reaches the
// loop as setInstalled. Approve and auto hold the target's AdaptLock, so two loops never act on
// one fabric; a refusal names the holder and the mode stays dry-run.

#include "AdaptLoop.h"
#include "DocumentChanges.h"
#include "TelemetryRecord.h"

#include <QFuture>
#include <QPointer>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace weft {

class DiffReview;
class FabricDocument;
struct PreviewResult;

class AutopilotDock : public QWidget
{
    Q_OBJECT

public:
    enum StageColumn { StageNameColumn,
                       StageTimeColumn,
                       StageTextColumn,
                       StageColumnCount };
    enum SymptomColumn { SymptomRuleColumn,
                         SymptomHeldColumn,
                         SymptomTermsColumn,
                         SymptomColumnCount };
    enum CooldownColumn { CooldownRuleColumn,
                          CooldownLeftColumn,
                          CooldownColumnCount };
    enum LogColumn { LogTimeColumn,
                     LogEventColumn,
                     LogRuleColumn,
                     LogSummaryColumn,
                     LogColumnCount };

    explicit AutopilotDock(FabricDocument *document, QWidget *parent = nullptr);
    ~AutopilotDock() override;  // waits for a running tick

    // The Diff Review that shows (approve) and commits (auto) the loop's changes.
    void setDiffReview(DiffReview *review);

    // The rules. Check parses the editor's text (the error as file:line:column, the cursor moved
    // there and the line marked); Apply gives it to the loop, which keeps the previous rules on
    // an error. Without a loop yet, applied rules wait for it.
    QPlainTextEdit *rulesEditor() const { return m_editor; }
    void setRulesText(const QString &text, const QString &fileName = {});
    QString rulesFileName() const;  // the file opened or saved, else "rules"
    bool checkRules();
    bool applyRules();
    QString rulesMessage() const;  // what Check or Apply said last
    bool rulesMessageIsError() const { return m_rulesError; }
    QString appliedRulesText() const { return m_appliedText; }
    bool openRulesFile(const QString &path, QString *error);
    bool saveRulesFile(const QString &path, QString *error);  // SafeFile: atomic, with a backup

    // Approve and auto take the commit target's AdaptLock; false (and dry-run) when refused.
    bool setMode(adapt::RuleMode mode);
    adapt::RuleMode mode() const { return m_mode; }
    void setPaused(bool paused);
    bool paused() const { return m_paused; }

    // One tick of measured rates for the document's fabric (TelemetryRecord::portIndex into it).
    void takeTick(double time, std::vector<TelemetryRecord> records);
    bool isTicking() const { return m_ticking; }
    int ticks() const { return m_ticks; }
    int skippedTicks() const { return m_skipped; }

    // The loop; null without a fabric with installed tables. Read it only while no tick runs.
    const adapt::AdaptLoop *loop() const { return m_loop.get(); }
    // The change waiting in the Diff Review (approve) or being committed (auto), if any.
    const adapt::PendingChange *pendingChange() const { return m_pending ? &*m_pending : nullptr; }

    QComboBox *modeBox() const { return m_modeBox; }
    QPushButton *pauseButton() const { return m_pause; }
    QTableWidget *stageTable() const { return m_stages; }
    QTableWidget *symptomTable() const { return m_symptoms; }
    QTableWidget *cooldownTable() const { return m_cooldowns; }
    // Newest first; the time column's Qt::UserRole holds the record's details as indented JSON.
    QTableWidget *logTable() const { return m_log; }
    // The records logged while the dock watched this loop, oldest first (the last 1000).
    const std::vector<adapt::AdaptRecord> &records() const { return m_records; }
    QPlainTextEdit *detailsView() const { return m_details; }
    QString statusText() const;

Q_SIGNALS:
    void tickFinished();
    // The loop's change is the document's proposal now (the desk shows the Diff Review).
    void changeProposed();

private:
    void documentChanged(DocumentChanges what);
    void rebuildLoop();
    void withLoop(std::function<void(adapt::AdaptLoop &)> op);
    void tickDone(quint64 generation, std::vector<adapt::PendingChange> changes, double seconds);
    void handOver(adapt::PendingChange change);
    void dismissPending(const QString &why);
    void commitFinished(const CommitReport &report);
    void refresh();
    void appendRecords();
    void showDetails();
    void showRulesMessage(const QString &text, bool error);
    void markErrorLine(int line);
    void chooseRulesFile(bool save);
    void updateStatus();

    FabricDocument *m_document = nullptr;
    QPointer<DiffReview> m_review;  // the main window may delete it before the dock
    std::shared_ptr<adapt::AdaptLoop> m_loop;
    std::shared_ptr<const Fabric> m_loopFabric;
    std::shared_ptr<const ForwardingTables> m_loopTables;  // the installed tables the loop knows
    std::unique_ptr<adapt::AdaptLock> m_lock;
    quint64 m_generation = 0;  // a tick of a loop since replaced is dropped
    bool m_ticking = false;
    QFuture<void> m_tickFuture;
    int m_ticks = 0;
    int m_skipped = 0;
    double m_lastTickTime = 0;
    double m_lastTickSeconds = 0;
    std::vector<std::function<void(adapt::AdaptLoop &)>> m_deferred;  // what waits for the tick
    // Logged since the table was last filled: written by the loop's sink (on the tick's thread),
    // read by the GUI between ticks; one per loop, so a replaced loop's late tick writes elsewhere.
    std::shared_ptr<std::vector<adapt::AdaptRecord>> m_loopFresh;
    std::vector<adapt::AdaptRecord> m_records;  // shown in the log table, oldest first
    int m_ruleCount = 0;
    std::optional<adapt::PendingChange> m_pending;
    std::shared_ptr<const PreviewResult> m_pendingProposal;  // the document's proposal it became
    adapt::RuleMode m_mode = adapt::RuleMode::DryRun;
    bool m_paused = false;
    QString m_rulesPath;
    QString m_appliedText;
    QString m_appliedFile;
    bool m_rulesError = false;
    QString m_lastProblem;  // the status line's red part: a refused lock, a refused commit

    QPlainTextEdit *m_editor = nullptr;
    QLabel *m_rulesMessage = nullptr;
    QComboBox *m_modeBox = nullptr;
    QPushButton *m_pause = nullptr;
    QTableWidget *m_stages = nullptr;
    QLabel *m_lastTick = nullptr;
    QTableWidget *m_symptoms = nullptr;
    QTableWidget *m_cooldowns = nullptr;
    QTableWidget *m_log = nullptr;
    QPlainTextEdit *m_details = nullptr;
    QLabel *m_status = nullptr;
};

}  // namespace weft
