#pragma once
// The OpenSM panel: the commit target's OpenSM as Weft can see it (core/commit/OpenSmState.h):
// whether it runs, the command line it was started with, its options file, the options a
// file-based commit depends on (routing engine, LMC, priority, sweep interval, ucast cache, ...)
// and where each was set, the SM state its log gives, and in red each option that would defeat
// or distort a commit. The target is the session's (FabricSession::commitTarget: the Commit
// Target dialog's, or the lab's OpenSM under `weft lab`); when no options file is found the
// operator can choose one.

#include "Commit.h"
#include "OpenSmState.h"

#include <QWidget>

#include <optional>

class QLabel;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace weft {

class FabricSession;

class OpenSmPanel : public QWidget
{
    Q_OBJECT

public:
    enum Column { OptionColumn,
                  ValueColumn,
                  OriginColumn,
                  ColumnCount };

    explicit OpenSmPanel(QWidget *parent = nullptr);
    // The session whose commit target is shown, followed as it changes.
    void setSession(FabricSession *session);

    // Reads the target's OpenSM again.
    void refresh();
    // Reads the options from `path` instead of the one OpenSM's command line or the target
    // names (kept in the settings); empty: back to those.
    void setOptionsFile(const QString &path);

    // What the panel shows: empty state when the options file could not be parsed (errorText).
    const std::optional<OpenSmState> &state() const { return m_state; }
    const CommitTarget &target() const { return m_target; }
    QStringList warnings() const { return m_warnings; }
    QString errorText() const;
    // The Value column of the row for `option` ("routing_engine", "sm_priority", ...); empty
    // when there is no such row.
    QString valueOf(const QString &option) const;
    QString originOf(const QString &option) const;

Q_SIGNALS:
    void refreshed();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void chooseOptionsFile();
    FabricSession *m_session = nullptr;
    void addRow(const QString &key, const QString &label, const QString &value, const QString &origin);

    CommitTarget m_target;
    std::optional<OpenSmState> m_state;
    QStringList m_warnings;
    QLabel *m_summary = nullptr;
    QLabel *m_error = nullptr;
    QTableWidget *m_options = nullptr;
    QListWidget *m_warningList = nullptr;
    QPushButton *m_refresh = nullptr;
    QPushButton *m_choose = nullptr;
};

}  // namespace weft
