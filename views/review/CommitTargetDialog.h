#pragma once
// Fabric ▸ Commit Target…: where Approve commits. One OpenSM's files (its intent or LFT dump,
// partitions.conf, pid file, log, options), or a subnet target file naming every OpenSM of the
// subnet (core/commit/SubnetTarget.h), the same file `weft commit --target` and `weft target
// check` read. The subnet's SMs are edited here in a table and saved to that file, checked by the
// reader that reads it back (an error names the file and line, and nothing is written); OK gives
// both to the session and keeps them in the settings.

#include "Commit.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace weft {

class FabricSession;

class CommitTargetDialog : public QDialog
{
    Q_OBJECT

public:
    // The subnet's SMs, one row each, as the target file names their fields.
    enum SmColumn { SmNameColumn,
                    SmOptionsColumn,
                    SmRoutingColumn,  // the intent, or the LFT dump (routingMode)
                    SmPartitionsColumn,
                    SmPidFileColumn,
                    SmLogColumn,
                    SmPortGuidColumn,
                    SmColumnCount };
    enum RoutingMode { IntentRouting,
                       LftRouting };

    // Edits `session`'s targets (none: the settings' alone).
    explicit CommitTargetDialog(FabricSession *session, QWidget *parent = nullptr);

    QString subnetTargetPath() const;
    // Reads the subnet target file into the table (a file that is not there yet: the table as it
    // is, for Save to create); false with the error shown when the file is not a target.
    bool loadSubnetTarget(const QString &path);
    void setSubnetTargetPath(const QString &path);
    QTableWidget *smTable() const { return m_sms; }
    QLineEdit *subnetNameEdit() const { return m_subnetName; }
    void setRoutingMode(RoutingMode mode);
    void addSm();
    void removeSm();
    // Writes the table to the subnet target file (writeSubnetTarget, atomically) once the reader
    // accepts what it would write; else the reader's error (file:line) is shown and nothing is
    // written. False then.
    bool saveSubnetTarget();
    // What the dialog says went wrong last; empty when nothing did.
    QString errorText() const;
    bool isSubnetEdited() const { return m_subnetEdited; }

public Q_SLOTS:
    // Saves the subnet's SMs if they were edited, then gives the targets to the session and the
    // settings; stays open, saying why, when the subnet target cannot be saved or read.
    void accept() override;

private:
    void browseSubnetTarget();
    void subnetPathEdited();
    void updateRoutingHeader();
    void showError(const QString &text);
    void markSubnetEdited();

    FabricSession *m_session;
    QLineEdit *m_lfts = nullptr;
    QLineEdit *m_intent = nullptr;
    QLineEdit *m_partitions = nullptr;
    QLineEdit *m_pid = nullptr;
    QLineEdit *m_log = nullptr;
    QLineEdit *m_options = nullptr;
    QLineEdit *m_subnetPath = nullptr;
    QLineEdit *m_subnetName = nullptr;
    QComboBox *m_routingMode = nullptr;
    QTableWidget *m_sms = nullptr;
    QWidget *m_subnetEditor = nullptr;
    QLabel *m_error = nullptr;
    QString m_loadedPath;  // the file the table holds
    bool m_subnetEdited = false;
    bool m_filling = false;  // the table being filled from a file: not an edit
};

}  // namespace weft
