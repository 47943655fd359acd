#pragma once
// The desk's Autopilot (issue 13, spec 003 §8 "Self-adaptive loop"): the rules (an editor with
// Check and Apply, Open and Save), the mode and the "pause autonomy" switch, the loop's state
// per MAPE-K stage, the last tick, the active symptoms and the cooldowns, the firing log with the
// selected record's details, and a status line.
//
// A view: the loop itself is the session's (session/Autopilot.h), fed by the session's
// telemetry sampler, planning from what the fabric holds and committing through the session.
// The dock shows its state and sends the operator's choices (rules, mode, pause); its records go
// to the commit target's journal, so the Commit Journal dialog shows what it did.

#include "Autopilot.h"
#include "DocumentChanges.h"
#include "TelemetryRecord.h"

#include <QPointer>
#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace weft {

class FabricDocument;

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
    ~AutopilotDock() override;

    // The session's loop driver this dock shows.
    Autopilot *autopilot() const { return m_autopilot; }

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
    QString appliedRulesText() const { return m_autopilot->appliedRulesText(); }
    bool openRulesFile(const QString &path, QString *error);
    bool saveRulesFile(const QString &path, QString *error);  // SafeFile: atomic, with a backup

    // Approve and auto take the commit target's AdaptLock; false (and the mode as it was) when refused.
    bool setMode(adapt::RuleMode mode);
    adapt::RuleMode mode() const { return m_autopilot->mode(); }
    void setPaused(bool paused);
    bool paused() const { return m_autopilot->paused(); }

    bool isTicking() const { return m_autopilot->isTicking(); }
    int ticks() const { return m_autopilot->ticks(); }
    int skippedTicks() const { return m_autopilot->skippedTicks(); }
    const adapt::AdaptLoop *loop() const { return m_autopilot->loop(); }
    const adapt::PendingChange *pendingChange() const { return m_autopilot->pendingChange(); }

    QComboBox *modeBox() const { return m_modeBox; }
    QPushButton *pauseButton() const { return m_pause; }
    QTableWidget *stageTable() const { return m_stages; }
    QTableWidget *symptomTable() const { return m_symptoms; }
    QTableWidget *cooldownTable() const { return m_cooldowns; }
    // Newest first; the time column's Qt::UserRole holds the record's details as indented JSON.
    QTableWidget *logTable() const { return m_log; }
    const std::vector<adapt::AdaptRecord> &records() const { return m_autopilot->records(); }
    QPlainTextEdit *detailsView() const { return m_details; }
    QString statusText() const;

Q_SIGNALS:
    void tickFinished();
    // The loop's change is the session's proposal now (the desk shows the Diff Review).
    void changeProposed();

private:
    void refresh();
    void showLog();
    void showDetails();
    void showRulesMessage(const QString &text, bool error);
    void markErrorLine(int line);
    void chooseRulesFile(bool save);
    void updateStatus();

    FabricDocument *m_document = nullptr;
    QPointer<Autopilot> m_autopilot;
    quint64 m_loggedShown = 0;  // of the autopilot's records logged, how many the log table shows
    QString m_rulesPath;
    bool m_rulesError = false;

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
