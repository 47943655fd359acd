#include "OpenSmPanel.h"

#include "CommitTargetSettings.h"
#include "FabricSession.h"
#include "Palette.h"

#include "DiffReview.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>

namespace weft {

namespace {

const QString kOptionsFileKey = QStringLiteral("opensm/optionsFile");

QString yesNo(bool value)
{
    return value ? OpenSmPanel::tr("TRUE") : OpenSmPanel::tr("FALSE");
}

}  // namespace

OpenSmPanel::OpenSmPanel(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("openSmPanelWidget"));
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("openSmSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("openSmError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: %1;").arg(kProblemColour.name()));
    m_error->hide();

    m_options = new QTableWidget(0, ColumnCount, this);
    m_options->setObjectName(QStringLiteral("openSmOptions"));
    m_options->setHorizontalHeaderLabels({tr("Option"), tr("Value"), tr("Set by")});
    m_options->verticalHeader()->hide();
    m_options->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_options->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_options->setWordWrap(false);
    m_options->horizontalHeader()->setSectionResizeMode(OptionColumn, QHeaderView::ResizeToContents);
    m_options->horizontalHeader()->setSectionResizeMode(ValueColumn, QHeaderView::Stretch);
    m_options->horizontalHeader()->setSectionResizeMode(OriginColumn, QHeaderView::ResizeToContents);
    m_options->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);

    m_warningList = new QListWidget(this);
    m_warningList->setObjectName(QStringLiteral("openSmWarnings"));
    m_warningList->setWordWrap(true);
    m_warningList->setMaximumHeight(fontMetrics().height() * 9);

    m_refresh = new QPushButton(tr("&Refresh"), this);
    m_refresh->setObjectName(QStringLiteral("openSmRefresh"));
    connect(m_refresh, &QPushButton::clicked, this, &OpenSmPanel::refresh);
    m_choose = new QPushButton(tr("Choose Options &File…"), this);
    m_choose->setObjectName(QStringLiteral("openSmChooseOptions"));
    m_choose->setToolTip(tr("OpenSM's options file (its -F, by default /etc/opensm/opensm.conf), when Weft cannot find it"));
    connect(m_choose, &QPushButton::clicked, this, &OpenSmPanel::chooseOptionsFile);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_refresh);
    buttons->addWidget(m_choose);
    buttons->addStretch(1);
    // The options and the warnings side by side in the wide dock below the map, each with its
    // rows in view on a laptop's 1366x768.
    auto *warnings = new QWidget(this);
    auto *warningsLayout = new QVBoxLayout(warnings);
    warningsLayout->setContentsMargins(0, 0, 0, 0);
    warningsLayout->addWidget(new QLabel(tr("What would defeat or distort a commit:"), warnings));
    warningsLayout->addWidget(m_warningList, 1);
    m_warningList->setMaximumHeight(QWIDGETSIZE_MAX);
    auto *sides = new QHBoxLayout;
    sides->addWidget(m_options, 3);
    sides->addWidget(warnings, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_error);
    layout->addLayout(sides, 1);
    layout->addLayout(buttons);

    refresh();
}

void OpenSmPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();  // OpenSM may have been restarted, its files edited, the target changed
}

void OpenSmPanel::setOptionsFile(const QString &path)
{
    QSettings().setValue(kOptionsFileKey, path);
    refresh();
}

void OpenSmPanel::chooseOptionsFile()
{
    const QString start = m_state && !m_state->options.configFile.isEmpty() ? m_state->options.configFile
                                                                            : QStringLiteral("/etc/opensm/opensm.conf");
    const QString path = QFileDialog::getOpenFileName(this, tr("OpenSM's Options File"), start, tr("OpenSM options (*.conf);;All files (*)"));
    if (!path.isEmpty())
        setOptionsFile(path);
}

QString OpenSmPanel::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void OpenSmPanel::addRow(const QString &key, const QString &label, const QString &value, const QString &origin)
{
    const int row = m_options->rowCount();
    m_options->insertRow(row);
    auto *name = new QTableWidgetItem(label);
    name->setData(Qt::UserRole, key);
    name->setToolTip(key);
    m_options->setItem(row, OptionColumn, name);
    auto *valueItem = new QTableWidgetItem(value);
    valueItem->setToolTip(value);
    m_options->setItem(row, ValueColumn, valueItem);
    m_options->setItem(row, OriginColumn, new QTableWidgetItem(origin));
}

QString OpenSmPanel::valueOf(const QString &option) const
{
    for (int row = 0; row < m_options->rowCount(); ++row)
        if (m_options->item(row, OptionColumn)->data(Qt::UserRole).toString() == option)
            return m_options->item(row, ValueColumn)->text();
    return {};
}

QString OpenSmPanel::originOf(const QString &option) const
{
    for (int row = 0; row < m_options->rowCount(); ++row)
        if (m_options->item(row, OptionColumn)->data(Qt::UserRole).toString() == option)
            return m_options->item(row, OriginColumn)->text();
    return {};
}

void OpenSmPanel::setSession(FabricSession *session)
{
    m_session = session;
    connect(m_session, &FabricSession::changed, this, [this](DocumentChanges what) {
        if ((what & DocumentChange::Session) && m_session->commitTarget().routingFile() != m_target.routingFile())
            refresh();
    });
    refresh();
}

void OpenSmPanel::refresh()
{
    m_target = m_session ? m_session->commitTarget() : configuredCommitTarget();
    m_state.reset();
    m_warnings.clear();
    m_options->setRowCount(0);
    m_warningList->clear();
    m_error->clear();
    m_error->hide();

    if (m_target.routingFile().isEmpty() && m_target.pidFile.isEmpty()) {
        m_summary->setText(tr("No commit target is configured: choose one in the Diff Review (Commit Target…), "
                              "or run the desk under `weft lab --gui`."));
        m_choose->setEnabled(true);
        Q_EMIT refreshed();
        return;
    }

    const QString chosen = QSettings().value(kOptionsFileKey).toString();
    Result<OpenSmState> read = readOpenSmState(m_target, chosen);
    if (!read) {
        m_summary->setText(tr("OpenSM's options cannot be read."));
        m_error->setText(read.error().toString());
        m_error->show();
        m_choose->setEnabled(true);
        Q_EMIT refreshed();
        return;
    }
    m_state = std::move(*read);
    const OpenSmState &s = *m_state;
    const OpenSmOptions &o = s.options;

    if (s.pid == 0)
        m_summary->setText(tr("OpenSM of the commit target (pid file %1): unknown").arg(m_target.pidFile));
    else if (s.running)
        m_summary->setText(s.smState.isEmpty() ? tr("OpenSM runs as pid %1.").arg(s.pid)
                                               : tr("OpenSM runs as pid %1, in %2 state; %n sweep(s) finished in its log.", "",
                                                    s.subnetUpCount)
                                                     .arg(s.pid)
                                                     .arg(s.smState));
    else
        m_summary->setText(tr("OpenSM (pid %1) is not running.").arg(s.pid));

    const QString fromCommandLine = tr("command line");
    auto origin = [&](const QString &option) {
        const QString where = o.originOf(option);
        if (where == QLatin1String("default"))
            return tr("OpenSM's default");
        if (where == QLatin1String("command line"))
            return fromCommandLine;
        return where;
    };
    addRow(QStringLiteral("pid"), tr("Process"), s.pid ? QString::number(s.pid) : tr("unknown"), m_target.pidFile);
    addRow(QStringLiteral("command_line"), tr("Command line"),
           s.commandLine.isEmpty() ? tr("not readable") : s.commandLine.join(QLatin1Char(' ')),
           s.pid ? QStringLiteral("/proc/%1/cmdline").arg(s.pid) : QString());
    addRow(QStringLiteral("config_file"), tr("Options file"),
           o.configFile.isEmpty() ? tr("none found") : (s.optionsFileRead ? o.configFile : tr("%1 (not found)").arg(o.configFile)),
           chosen.isEmpty() ? QString() : tr("chosen here"));
    addRow(QStringLiteral("log_file"), tr("Log"), s.logPath.isEmpty() ? tr("unknown") : s.logPath, QString());
    addRow(QStringLiteral("sm_state"), tr("SM state"), s.smState.isEmpty() ? tr("unknown") : s.smState, tr("log"));
    addRow(QStringLiteral("routing_engine"), tr("Routing engine"),
           (o.routingEngines.isEmpty() ? tr("minhop (default)") : o.routingEngines.join(QLatin1Char(',')))
               + (o.noFallback ? QStringLiteral(",no_fallback") : QString()),
           origin(QStringLiteral("routing_engine")));
    addRow(QStringLiteral("lfts_file"), tr("LFT file"), o.lftsFile.isEmpty() ? tr("none") : o.lftsFile, origin(QStringLiteral("lfts_file")));
    addRow(QStringLiteral("partition_config_file"), tr("Partitions file"), o.partitionConfigFile,
           origin(QStringLiteral("partition_config_file")));
    addRow(QStringLiteral("lmc"), tr("LMC"), QString::number(o.lmc), origin(QStringLiteral("lmc")));
    addRow(QStringLiteral("sm_priority"), tr("SM priority"), QString::number(o.smPriority), origin(QStringLiteral("sm_priority")));
    addRow(QStringLiteral("sweep_interval"), tr("Sweep interval"),
           o.sweepIntervalS ? tr("%n s", "", int(o.sweepIntervalS)) : tr("0 (no periodic sweeps; SIGHUP still sweeps)"),
           origin(QStringLiteral("sweep_interval")));
    addRow(QStringLiteral("use_ucast_cache"), tr("Unicast cache"), yesNo(o.useUcastCache), origin(QStringLiteral("use_ucast_cache")));
    addRow(QStringLiteral("reassign_lids"), tr("Reassign LIDs"), yesNo(o.reassignLids), origin(QStringLiteral("reassign_lids")));
    addRow(QStringLiteral("force_heavy_sweep"), tr("Force heavy sweep"), yesNo(o.forceHeavySweep), origin(QStringLiteral("force_heavy_sweep")));
    addRow(QStringLiteral("honor_guid2lid_file"), tr("Honor guid2lid"), yesNo(o.honorGuid2Lid), origin(QStringLiteral("honor_guid2lid_file")));
    addRow(QStringLiteral("qos"), tr("QoS"), yesNo(o.qos), origin(QStringLiteral("qos")));
    addRow(QStringLiteral("part_enforce"), tr("Partition enforcement"), o.noPartitionEnforcement ? tr("off (no_partition_enforcement)") : o.partEnforce,
           origin(o.noPartitionEnforcement ? QStringLiteral("no_partition_enforcement") : QStringLiteral("part_enforce")));
    addRow(QStringLiteral("guid_routing_order_file"), tr("GUID routing order file"),
           o.guidRoutingOrderFile.isEmpty() ? tr("none") : o.guidRoutingOrderFile, origin(QStringLiteral("guid_routing_order_file")));
    addRow(QStringLiteral("root_guid_file"), tr("Root GUID file"), o.rootGuidFile.isEmpty() ? tr("none") : o.rootGuidFile,
           origin(QStringLiteral("root_guid_file")));
    addRow(QStringLiteral("cn_guid_file"), tr("Compute node GUID file"), o.cnGuidFile.isEmpty() ? tr("none") : o.cnGuidFile,
           origin(QStringLiteral("cn_guid_file")));

    m_warnings = commitWarnings(s, m_target);
    for (const QString &warning : m_warnings) {
        auto *item = new QListWidgetItem(warning, m_warningList);
        item->setForeground(kProblemColour);
    }
    // What could not be read, and lines OpenSM would skip: grey, not warnings of the commit.
    for (const QString &line : s.problems + o.notes) {
        auto *item = new QListWidgetItem(line, m_warningList);
        item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
    }
    if (m_warningList->count() == 0)
        new QListWidgetItem(tr("Nothing: OpenSM loads what a commit writes."), m_warningList);
    // The chooser matters when no options file was found.
    m_choose->setDefault(!s.optionsFileRead);
    Q_EMIT refreshed();
}

}  // namespace weft
