#pragma once
// The Subnet Managers panel: the subnet's OpenSMs as the fabric last told the session
// (FabricSession::checkSubnetManagers, core/commit/SubnetTarget.h's checkSubnet): for each SM the
// subnet target names, its state, priority, port, LID, process, routing engine and what would
// defeat a commit to it; a row in red for each SM on the subnet the target does not name; and a
// red banner when there is such an SM, or when the subnet has two masters or none. Without a
// subnet target it says where to name one.

#include "SubnetTarget.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QTableWidget;

namespace weft {

class FabricSession;

class SubnetManagersPanel : public QWidget
{
    Q_OBJECT

public:
    enum Column { NameColumn,
                  StateColumn,
                  PriorityColumn,
                  PortGuidColumn,
                  LidColumn,
                  PidColumn,
                  EngineColumn,
                  ProblemsColumn,
                  ColumnCount };

    explicit SubnetManagersPanel(QWidget *parent = nullptr);
    // The session whose subnet is shown, followed as it changes.
    void setSession(FabricSession *session);

    QTableWidget *table() const { return m_table; }
    // The red banner's text; empty when it is hidden (nothing to warn of).
    QString bannerText() const;
    QString summaryText() const;
    // The check shown, if any.
    const std::optional<SubnetCheck> &check() const { return m_check; }

public Q_SLOTS:
    // Asks the session to check the subnet's SMs again.
    void refresh();

Q_SIGNALS:
    // The operator asked to name or edit the subnet's SMs (Fabric ▸ Commit Target…).
    void editTargetRequested();

private:
    void showCheck(const SubnetCheck &check);
    void showTarget();
    void addRow(const QStringList &texts, const QStringList &tips);

    FabricSession *m_session = nullptr;
    QString m_targetPath;  // the subnet target shown
    std::optional<SubnetCheck> m_check;
    QLabel *m_summary = nullptr;
    QLabel *m_banner = nullptr;
    QTableWidget *m_table = nullptr;
    QPushButton *m_refresh = nullptr;
    QPushButton *m_editTarget = nullptr;
};

}  // namespace weft
