#include "SubnetManagersPanel.h"

#include "FabricSession.h"
#include "Palette.h"

#include <QDateTime>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace weft {

namespace {


// An SM's state in the operator's language (SubnetCheck's words are the command's).
QString stateText(const QString &state)
{
    if (state == QLatin1String("master"))
        return SubnetManagersPanel::tr("master");
    if (state == QLatin1String("standby"))
        return SubnetManagersPanel::tr("standby");
    if (state == QLatin1String("discovering"))
        return SubnetManagersPanel::tr("discovering");
    if (state == QLatin1String("not active"))
        return SubnetManagersPanel::tr("not active");
    if (state == QLatin1String("not running"))
        return SubnetManagersPanel::tr("not running");
    if (state == QLatin1String("unknown"))
        return SubnetManagersPanel::tr("unknown");
    return state;
}

QString portGuidSource(const QString &from)
{
    if (from == QLatin1String("target entry"))
        return SubnetManagersPanel::tr("named in the subnet target");
    if (from == QLatin1String("options (guid)"))
        return SubnetManagersPanel::tr("its options file's guid");
    if (from == QLatin1String("log"))
        return SubnetManagersPanel::tr("the port its log says it bound to");
    return from;
}

}  // namespace

SubnetManagersPanel::SubnetManagersPanel(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("subnetManagersPanel"));
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("subnetManagersSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner = new QLabel(this);
    m_banner->setObjectName(QStringLiteral("subnetManagersBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setStyleSheet(QStringLiteral("color: %1; font-weight: bold;").arg(kProblemColour.name()));
    m_banner->hide();

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("subnetManagersTable"));
    m_table->setHorizontalHeaderLabels(
        {tr("SM"), tr("State"), tr("Priority"), tr("Port GUID"), tr("LID"), tr("PID"), tr("Engine"), tr("Problems")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    // A problem is a sentence: wrapped in its cell rather than cut, the row as tall as it needs.
    m_table->setWordWrap(true);
    for (int c = 0; c < ProblemsColumn; ++c)
        m_table->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(ProblemsColumn, QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    m_refresh = new QPushButton(tr("&Refresh"), this);
    m_refresh->setObjectName(QStringLiteral("subnetManagersRefresh"));
    m_refresh->setToolTip(tr("Ask every SM of the subnet again (SMInfo), and read each OpenSM's files"));
    connect(m_refresh, &QPushButton::clicked, this, &SubnetManagersPanel::refresh);
    m_editTarget = new QPushButton(tr("Commit &Target…"), this);
    m_editTarget->setObjectName(QStringLiteral("subnetManagersEditTarget"));
    m_editTarget->setToolTip(tr("Name the subnet's SMs and their files (Fabric ▸ Commit Target…)"));
    connect(m_editTarget, &QPushButton::clicked, this, &SubnetManagersPanel::editTargetRequested);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_refresh);
    buttons->addWidget(m_editTarget);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(m_banner);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    showTarget();
}

void SubnetManagersPanel::setSession(FabricSession *session)
{
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = session;
    if (m_session) {
        connect(m_session, &FabricSession::subnetChecked, this, &SubnetManagersPanel::showCheck);
        connect(m_session, &FabricSession::changed, this, [this](DocumentChanges what) {
            if ((what & DocumentChange::Session) && m_session->subnetTargetPath() != m_targetPath)
                showTarget();
        });
    }
    showTarget();
}

QString SubnetManagersPanel::bannerText() const
{
    return m_banner->isHidden() ? QString() : m_banner->text();
}

QString SubnetManagersPanel::summaryText() const
{
    return m_summary->text();
}

void SubnetManagersPanel::refresh()
{
    if (!m_session || !m_session->checkSubnetManagers())
        return;
    m_refresh->setEnabled(false);
    m_summary->setText(tr("Asking the subnet's SMs through %1…").arg(m_session->adapterText()));
}

void SubnetManagersPanel::addRow(const QStringList &texts, const QStringList &tips)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    for (int c = 0; c < ColumnCount; ++c) {
        auto *item = new QTableWidgetItem(texts.value(c));
        item->setToolTip(tips.value(c).isEmpty() ? texts.value(c) : tips.value(c));
        if (c == PriorityColumn || c == LidColumn || c == PidColumn)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, c, item);
    }
}

// The target's SMs, not yet asked; or nothing to show without a target.
void SubnetManagersPanel::showTarget()
{
    const std::optional<SubnetTarget> &target = m_session ? m_session->subnetTarget() : std::optional<SubnetTarget>();
    m_targetPath = target ? target->fileName : QString();
    m_check.reset();
    m_table->setRowCount(0);
    m_banner->clear();
    m_banner->hide();
    m_refresh->setEnabled(target.has_value());
    if (!target) {
        m_summary->setText(tr("No subnet target: Fabric ▸ Commit Target… names the subnet's SMs"));
        return;
    }
    if (const std::optional<SubnetCheck> &last = m_session->lastSubnetCheck()) {
        showCheck(*last);
        return;
    }
    for (const SubnetManagerEntry &e : target->sms)
        addRow({e.name, tr("not asked yet")}, {});
    m_summary->setText(tr("Subnet %1 (%2): not asked yet. Refresh asks the fabric which SM is master.")
                           .arg(target->subnet, QDir::toNativeSeparators(target->fileName)));
}

void SubnetManagersPanel::showCheck(const SubnetCheck &check)
{
    m_check = check;
    m_refresh->setEnabled(m_session && m_session->subnetTarget());
    m_table->setRowCount(0);
    QFont bold = font();
    bold.setBold(true);
    for (const SubnetManagerStatus &s : check.sms) {
        const QString problems = s.problems.join(QStringLiteral("; "));
        addRow({s.name, stateText(s.state), s.priority >= 0 ? QString::number(s.priority) : tr("unknown"),
                s.portGuid ? guidText(s.portGuid) : tr("unknown"), s.lid ? QString::number(s.lid) : QString(),
                s.running ? QString::number(s.pid) : tr("not running"), s.engine.isEmpty() ? tr("minhop (default)") : s.engine,
                problems.isEmpty() ? tr("none") : problems},
               {QString(), QString(), QString(),
                s.portGuid ? tr("From %1").arg(portGuidSource(s.portGuidFrom)) : tr("Give \"port_guid\" in the target, or guid in its options"),
                QString(), QString(), QString(), s.problems.join(QLatin1Char('\n'))});
        const int row = m_table->rowCount() - 1;
        if (s.state == QLatin1String("master"))
            m_table->item(row, StateColumn)->setFont(bold);
        if (!s.problems.isEmpty())
            m_table->item(row, ProblemsColumn)->setForeground(kProblemColour);
    }
    for (const SubnetManagerInfo &u : check.unknown) {
        const QString state = u.answered ? stateText(smStateName(u.state)) : tr("does not answer SMInfo");
        const QString node = u.nodeDescription.isEmpty() ? tr("an unnamed node") : u.nodeDescription;
        addRow({tr("not in the target"), state, QString::number(u.priority), guidText(u.portGuid), QString::number(u.lid), QString(), QString(),
                tr("runs on %1: a rogue or forgotten SM can take over with its own partitions and routing").arg(node)},
               {tr("An SM on the subnet that the subnet target does not name"), QString(), QString(), QString(), QString(), QString(), QString(),
                QString()});
        const int row = m_table->rowCount() - 1;
        for (int c = 0; c < ColumnCount; ++c)
            m_table->item(row, c)->setForeground(kProblemColour);
        if (u.answered && u.state == 3)
            m_table->item(row, StateColumn)->setFont(bold);
    }

    // What makes the subnet unsafe to commit to, in a line each.
    const int masters = int(std::count_if(check.sms.begin(), check.sms.end(), [](const SubnetManagerStatus &s) { return s.state == QLatin1String("master"); })
                            + std::count_if(check.unknown.begin(), check.unknown.end(),
                                            [](const SubnetManagerInfo &u) { return u.answered && u.state == 3; }));
    // Nothing heard of any SM: the fabric could not be asked (the check's problems say why).
    const bool heard = !check.unknown.empty() || std::any_of(check.sms.begin(), check.sms.end(), [](const SubnetManagerStatus &s) { return s.lid != 0; });
    QStringList warnings;
    if (!check.unknown.empty())
        warnings << tr("%n SM(s) on the subnet that the target does not name: a rogue or forgotten SM can take over with its own "
                       "partitions and routing.",
                       nullptr, int(check.unknown.size()));
    if (masters > 1)
        warnings << tr("%1 SMs say they are master: the subnet has two masters.").arg(masters);
    else if (masters == 0 && heard)
        warnings << tr("No SM on the subnet says it is master.");
    if (!heard)
        warnings << tr("The subnet's SMs could not be asked: %1").arg(check.problems.join(QStringLiteral("; ")));
    m_banner->setText(warnings.join(QLatin1Char('\n')));
    m_banner->setVisible(!warnings.isEmpty());

    const QString through = m_session ? m_session->adapterText() : QString();
    m_summary->setText(tr("Subnet %1: %n SM(s) in the target (%2), asked at %3 through %4.", nullptr, int(check.sms.size()))
                           .arg(check.subnet, QDir::toNativeSeparators(m_targetPath),
                                QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss")), through)
                       + (check.ok() ? QLatin1Char(' ') + tr("A commit reaches every SM.") : QString()));
}

}  // namespace weft
