#include "AutopilotDock.h"

#include "CommitJournal.h"
#include "FabricDocument.h"
#include "FabricSession.h"
#include "RuleLanguage.h"
#include "SafeFile.h"

#include <QColor>
#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextEdit>
#include <QVBoxLayout>

#include <cmath>

namespace weft {

using namespace adapt;

namespace {

constexpr int kLogRowsShown = 1000;
const QString kRulesDirKey = QStringLiteral("autopilot/rulesDirectory");

QString clockText(double time)
{
    if (time <= 0)
        return QStringLiteral("–");
    return QDateTime::fromMSecsSinceEpoch(qint64(std::llround(time * 1000))).toLocalTime().toString(QStringLiteral("HH:mm:ss"));
}

QString secondsText(double seconds)
{
    return durationToText(std::int64_t(std::ceil(std::max(0.0, seconds))));
}

QTableWidget *makeTable(int columns, const QStringList &headers, const QString &name, QWidget *parent)
{
    auto *table = new QTableWidget(0, columns, parent);
    table->setObjectName(name);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setWordWrap(false);
    for (int c = 0; c + 1 < columns; ++c)
        table->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

QString termText(const TermValue &term)
{
    const QString value = term.value ? QLocale().toString(*term.value, 'g', 4) : AutopilotDock::tr("no value");
    return AutopilotDock::tr("%1 (now %2)").arg(term.text, value);
}

}  // namespace

AutopilotDock::AutopilotDock(FabricDocument *document, QWidget *parent)
    : QWidget(parent), m_document(document), m_autopilot(document->session()->autopilot())
{
    setObjectName(QStringLiteral("autopilot"));

    // The mode and the pause switch, on top: what the loop may do.
    m_modeBox = new QComboBox(this);
    // Narrow enough for the right column on a laptop: the whole mode in the list and the tooltip.
    m_modeBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_modeBox->setMinimumContentsLength(14);
    m_modeBox->setObjectName(QStringLiteral("autopilotMode"));
    m_modeBox->addItem(tr("Dry run: log only"), int(RuleMode::DryRun));
    m_modeBox->addItem(tr("Approve: changes wait in the Diff Review"), int(RuleMode::Approve));
    m_modeBox->addItem(tr("Auto: commit, verify, roll back"), int(RuleMode::Auto));
    connect(m_modeBox, &QComboBox::activated, this, [this](int index) { setMode(RuleMode(m_modeBox->itemData(index).toInt())); });
    m_pause = new QPushButton(tr("Pause autonomy"), this);
    m_pause->setObjectName(QStringLiteral("pauseAutonomy"));
    m_pause->setCheckable(true);
    m_pause->setToolTip(tr("Rules are still evaluated and logged; nothing is planned, shown or committed."));
    m_pause->setStyleSheet(QStringLiteral("QPushButton:checked { background: #b01c1c; color: white; font-weight: bold; }"));
    connect(m_pause, &QPushButton::toggled, this, &AutopilotDock::setPaused);
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Mode:"), this));
    top->addWidget(m_modeBox, 1);
    top->addWidget(m_pause);

    // The rules.
    m_editor = new QPlainTextEdit(this);
    m_editor->setObjectName(QStringLiteral("rulesEditor"));
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setPlaceholderText(tr("# One rule per paragraph, for example:\n"
                                    "rule hot_spot priority 5 cooldown 10m\n"
                                    "  when max(node[all].rx_gbps) > 20 for 30s\n"
                                    "  then reroute(engine=wftree, weights=learned(5m))"));
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] { m_editor->setExtraSelections({}); });
    m_editor->setMinimumHeight(m_editor->fontMetrics().lineSpacing() * 7);
    auto *open = new QPushButton(tr("&Open…"), this);
    auto *save = new QPushButton(tr("&Save…"), this);
    auto *check = new QPushButton(tr("&Check"), this);
    check->setObjectName(QStringLiteral("checkRules"));
    auto *apply = new QPushButton(tr("A&pply"), this);
    apply->setObjectName(QStringLiteral("applyRules"));
    apply->setToolTip(tr("Give the rules to the loop; on an error the rules in force stay."));
    connect(open, &QPushButton::clicked, this, [this] { chooseRulesFile(false); });
    connect(save, &QPushButton::clicked, this, [this] { chooseRulesFile(true); });
    connect(check, &QPushButton::clicked, this, &AutopilotDock::checkRules);
    connect(apply, &QPushButton::clicked, this, &AutopilotDock::applyRules);
    m_rulesMessage = new QLabel(this);
    m_rulesMessage->setObjectName(QStringLiteral("rulesMessage"));
    m_rulesMessage->setWordWrap(true);
    m_rulesMessage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *ruleButtons = new QHBoxLayout;
    ruleButtons->addWidget(open);
    ruleButtons->addWidget(save);
    ruleButtons->addStretch(1);
    ruleButtons->addWidget(check);
    ruleButtons->addWidget(apply);
    auto *rulesBox = new QGroupBox(tr("Rules"), this);
    auto *rulesLayout = new QVBoxLayout(rulesBox);
    rulesLayout->setContentsMargins(4, 4, 4, 4);
    rulesLayout->addWidget(m_editor, 1);
    rulesLayout->addLayout(ruleButtons);
    rulesLayout->addWidget(m_rulesMessage);

    // The loop's state: per MAPE-K stage, the last tick, the symptoms and the cooldowns.
    m_stages = makeTable(StageColumnCount, {tr("Stage"), tr("Last"), tr("What it did")}, QStringLiteral("autopilotStages"), this);
    m_stages->setRowCount(kMapeStageCount);
    const QStringList stageNames{tr("Monitor"), tr("Analyze"), tr("Plan"), tr("Execute"), tr("Knowledge")};
    for (int s = 0; s < kMapeStageCount; ++s) {
        m_stages->setItem(s, StageNameColumn, new QTableWidgetItem(stageNames[s]));
        m_stages->setItem(s, StageTimeColumn, new QTableWidgetItem(clockText(0)));
        m_stages->setItem(s, StageTextColumn, new QTableWidgetItem);
    }
    m_stages->setSelectionMode(QAbstractItemView::NoSelection);
    m_stages->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // All five stages always in view: the table is as tall as its rows.
    m_stages->setFixedHeight(m_stages->horizontalHeader()->sizeHint().height()
                             + kMapeStageCount * m_stages->verticalHeader()->defaultSectionSize() + 2 * m_stages->frameWidth() + 2);
    m_lastTick = new QLabel(this);
    m_lastTick->setObjectName(QStringLiteral("autopilotLastTick"));
    m_symptoms = makeTable(SymptomColumnCount, {tr("Active symptom"), tr("Held / for"), tr("Terms")}, QStringLiteral("autopilotSymptoms"), this);
    m_cooldowns = makeTable(CooldownColumnCount, {tr("Cooling down"), tr("Time left")}, QStringLiteral("autopilotCooldowns"), this);
    m_cooldowns->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_cooldowns->setMinimumWidth(m_cooldowns->fontMetrics().horizontalAdvance(tr("Cooling down") + tr("Time left")) + 60);
    auto *symptomSplitter = new QSplitter(Qt::Horizontal, this);
    symptomSplitter->addWidget(m_symptoms);
    symptomSplitter->addWidget(m_cooldowns);
    symptomSplitter->setStretchFactor(0, 3);
    symptomSplitter->setStretchFactor(1, 1);
    auto *stateBox = new QGroupBox(tr("Loop"), this);
    auto *stateLayout = new QVBoxLayout(stateBox);
    stateLayout->setContentsMargins(4, 4, 4, 4);
    stateLayout->addWidget(m_stages);
    stateLayout->addWidget(m_lastTick);
    stateLayout->addStretch(1);
    // The symptoms and cooldowns on a tab of their own (below the stages they left no room for
    // five rows on a laptop's screen).
    auto *symptomsBox = new QGroupBox(tr("Symptoms"), this);
    auto *symptomsLayout = new QVBoxLayout(symptomsBox);
    symptomsLayout->setContentsMargins(4, 4, 4, 4);
    symptomsLayout->addWidget(symptomSplitter, 1);

    // The firing log and the selected record's details.
    m_log = makeTable(LogColumnCount, {tr("Time"), tr("Event"), tr("Rule"), tr("Summary")}, QStringLiteral("autopilotLog"), this);
    m_details = new QPlainTextEdit(this);
    m_details->setObjectName(QStringLiteral("autopilotDetails"));
    m_details->setReadOnly(true);
    m_details->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_details->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_details->setPlaceholderText(tr("The selected record's details: inputs, candidates, decision, outcome."));
    connect(m_log, &QTableWidget::itemSelectionChanged, this, &AutopilotDock::showDetails);
    auto *logSplitter = new QSplitter(Qt::Vertical, this);
    logSplitter->addWidget(m_log);
    logSplitter->addWidget(m_details);
    auto *logBox = new QGroupBox(tr("Firing log"), this);
    auto *logLayout = new QVBoxLayout(logBox);
    logLayout->setContentsMargins(4, 4, 4, 4);
    logLayout->addWidget(logSplitter);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("autopilotStatus"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::RichText);

    // The rules, the loop and the firing log as tabs: each gets the dock's whole height, so that
    // its tables keep five rows in view on a laptop's 1366x768.
    auto *sections = new QTabWidget(this);
    sections->setObjectName(QStringLiteral("autopilotSections"));
    sections->addTab(rulesBox, tr("Rules"));
    sections->addTab(stateBox, tr("Loop"));
    sections->addTab(symptomsBox, tr("Symptoms"));
    sections->addTab(logBox, tr("Firing Log"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(sections, 1);
    layout->addWidget(m_status);

    connect(m_autopilot, &Autopilot::changed, this, &AutopilotDock::refresh);
    connect(m_autopilot, &Autopilot::tickFinished, this, &AutopilotDock::tickFinished);
    connect(m_autopilot, &Autopilot::changeProposed, this, &AutopilotDock::changeProposed);
    refresh();
}

AutopilotDock::~AutopilotDock() = default;

// ---- rules -----------------------------------------------------------------------------------

void AutopilotDock::setRulesText(const QString &text, const QString &fileName)
{
    m_editor->setPlainText(text);
    if (!fileName.isEmpty())
        m_rulesPath = fileName;
}

QString AutopilotDock::rulesFileName() const
{
    return m_rulesPath.isEmpty() ? QStringLiteral("rules") : m_rulesPath;
}

QString AutopilotDock::rulesMessage() const
{
    return m_rulesMessage->text();
}

void AutopilotDock::showRulesMessage(const QString &text, bool error)
{
    m_rulesError = error;
    m_rulesMessage->setText(text);
    m_rulesMessage->setStyleSheet(error ? QStringLiteral("color: #b01c1c;") : QStringLiteral("color: #1b7f3b;"));
}

void AutopilotDock::markErrorLine(int line)
{
    const QTextBlock block = m_editor->document()->findBlockByNumber(std::max(0, line - 1));
    if (!block.isValid())
        return;
    QTextEdit::ExtraSelection mark;
    mark.format.setBackground(QColor(0xf8, 0xd0, 0xd0));
    mark.format.setProperty(QTextFormat::FullWidthSelection, true);
    mark.cursor = QTextCursor(block);
    const QSignalBlocker quiet(m_editor);  // textChanged clears the marks; this is no edit
    m_editor->setExtraSelections({mark});
}

bool AutopilotDock::checkRules()
{
    const RuleFile parsed = parseRules(m_editor->toPlainText().toUtf8(), rulesFileName());
    if (parsed.error) {
        const RuleSyntaxError &error = *parsed.error;
        showRulesMessage(error.toString(), true);
        const QTextBlock block = m_editor->document()->findBlockByNumber(std::max(0, error.line - 1));
        if (block.isValid()) {
            QTextCursor cursor(block);
            cursor.setPosition(block.position() + std::clamp(error.column - 1, 0, std::max(0, block.length() - 1)));
            m_editor->setTextCursor(cursor);
            m_editor->setFocus();
        }
        markErrorLine(error.line);
        return false;
    }
    m_editor->setExtraSelections({});
    showRulesMessage(tr("%n rule(s), no error.", nullptr, int(parsed.rules.size())), false);
    return true;
}

bool AutopilotDock::applyRules()
{
    const QByteArray text = m_editor->toPlainText().toUtf8();
    const QString file = rulesFileName();
    const bool parses = checkRules();
    // The loop logs a refusal and keeps its rules; the operator reads it here in red.
    const Status applied = m_autopilot->applyRules(text, file);
    if (!parses || !applied) {
        showRulesMessage(tr("%1\nRefused: the rules in force stay.").arg(m_rulesMessage->text()), true);
        return false;
    }
    const int count = int(parseRules(text, file).rules.size());
    showRulesMessage(m_autopilot->loop() ? tr("%n rule(s) in force.", nullptr, count)
                                         : tr("%n rule(s) in force once the fabric has installed tables.", nullptr, count),
                     false);
    updateStatus();
    return true;
}

bool AutopilotDock::openRulesFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("Cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    setRulesText(QString::fromUtf8(file.readAll()), path);
    checkRules();
    return true;
}

bool AutopilotDock::saveRulesFile(const QString &path, QString *error)
{
    const Status written = writeFileAtomically(path, m_editor->toPlainText().toUtf8());
    if (!written) {
        if (error)
            *error = written.error().toString();
        return false;
    }
    m_rulesPath = path;
    return true;
}

void AutopilotDock::chooseRulesFile(bool save)
{
    QSettings settings;
    const QString start = m_rulesPath.isEmpty() ? settings.value(kRulesDirKey).toString() : m_rulesPath;
    const QString filter = tr("Rules (*.rules);;All files (*)");
    const QString path = save ? QFileDialog::getSaveFileName(this, tr("Save the Rules"), start, filter)
                              : QFileDialog::getOpenFileName(this, tr("Open a Rules File"), start, filter);
    if (path.isEmpty())
        return;
    settings.setValue(kRulesDirKey, QFileInfo(path).absolutePath());
    QString error;
    if (!(save ? saveRulesFile(path, &error) : openRulesFile(path, &error)))
        QMessageBox::warning(this, save ? tr("Cannot Save the Rules") : tr("Cannot Open the Rules"), error);
}

// ---- mode and pause --------------------------------------------------------------------------

bool AutopilotDock::setMode(RuleMode mode)
{
    const bool set = m_autopilot->setMode(mode);
    const QSignalBlocker quiet(m_modeBox);
    m_modeBox->setCurrentIndex(m_modeBox->findData(int(m_autopilot->mode())));
    updateStatus();
    return set;
}

void AutopilotDock::setPaused(bool paused)
{
    if (m_pause->isChecked() != paused) {
        m_pause->setChecked(paused);  // toggled() comes back here
        return;
    }
    m_pause->setText(paused ? tr("Autonomy paused: resume") : tr("Pause autonomy"));
    m_autopilot->setPaused(paused);
    updateStatus();
}

// ---- what the dock shows ---------------------------------------------------------------------

void AutopilotDock::refresh()
{
    if (!m_autopilot)
        return;
    if (m_autopilot->isTicking()) {
        updateStatus();
        return;
    }
    showLog();
    const AdaptLoop *loop = m_autopilot->loop();
    for (int s = 0; s < kMapeStageCount; ++s) {
        const StageState state = loop ? loop->stage(MapeStage(s)) : StageState{};
        m_stages->item(s, StageTimeColumn)->setText(clockText(state.time));
        m_stages->item(s, StageTextColumn)->setText(state.text);
        m_stages->item(s, StageTextColumn)->setToolTip(state.text);
    }
    m_symptoms->setRowCount(0);
    m_cooldowns->setRowCount(0);
    if (loop) {
        for (const RuleStatus &status : const_cast<AdaptLoop *>(loop)->engine().status()) {
            if (status.holds || !status.problem.isEmpty()) {
                const int row = m_symptoms->rowCount();
                m_symptoms->insertRow(row);
                m_symptoms->setItem(row, SymptomRuleColumn, new QTableWidgetItem(status.rule));
                m_symptoms->setItem(row, SymptomHeldColumn,
                                    new QTableWidgetItem(status.holds ? tr("%1 / %2").arg(secondsText(status.heldSeconds), secondsText(status.forSeconds))
                                                                      : tr("does not hold")));
                QStringList terms;
                for (const TermValue &term : status.terms)
                    terms << termText(term);
                auto *termsItem = new QTableWidgetItem(status.problem.isEmpty() ? terms.join(QStringLiteral("; ")) : status.problem);
                termsItem->setToolTip(terms.join(QLatin1Char('\n')));
                if (!status.problem.isEmpty())
                    termsItem->setForeground(QColor(0xb0, 0x1c, 0x1c));
                m_symptoms->setItem(row, SymptomTermsColumn, termsItem);
            }
            if (status.cooldownLeft > 0) {
                const int row = m_cooldowns->rowCount();
                m_cooldowns->insertRow(row);
                m_cooldowns->setItem(row, CooldownRuleColumn, new QTableWidgetItem(status.rule));
                m_cooldowns->setItem(row, CooldownLeftColumn, new QTableWidgetItem(secondsText(status.cooldownLeft)));
            }
        }
    }
    {
        const QSignalBlocker quiet(m_modeBox);
        m_modeBox->setCurrentIndex(m_modeBox->findData(int(m_autopilot->mode())));
    }
    updateStatus();
}

void AutopilotDock::showLog()
{
    const std::vector<AdaptRecord> &records = m_autopilot->records();
    const quint64 logged = m_autopilot->recordsLogged();
    if (logged < m_loggedShown) {  // another loop: its log starts afresh
        m_log->setRowCount(0);
        m_loggedShown = 0;
    }
    const std::size_t fresh = std::size_t(std::min<quint64>(logged - m_loggedShown, records.size()));
    for (std::size_t i = records.size() - fresh; i < records.size(); ++i) {
        const AdaptRecord &record = records[i];
        m_log->insertRow(0);
        auto *time = new QTableWidgetItem(clockText(record.time));
        time->setData(Qt::UserRole, QString::fromUtf8(QJsonDocument(record.details).toJson(QJsonDocument::Indented)));
        m_log->setItem(0, LogTimeColumn, time);
        auto *event = new QTableWidgetItem(record.event);
        if (record.event == QLatin1String("committed"))
            event->setForeground(QColor(0x1b, 0x7f, 0x3b));
        else if (record.event == QLatin1String("commit-failed") || record.event == QLatin1String("rules-refused")
                 || record.event == QLatin1String("plan-failed") || record.event == QLatin1String("stale"))
            event->setForeground(QColor(0xb0, 0x1c, 0x1c));
        else if (record.event == QLatin1String("fired") || record.event == QLatin1String("awaiting-approval"))
            event->setForeground(QColor(0x9a, 0x5b, 0x00));
        m_log->setItem(0, LogEventColumn, event);
        m_log->setItem(0, LogRuleColumn, new QTableWidgetItem(record.rule));
        auto *summary = new QTableWidgetItem(record.summary);
        summary->setToolTip(record.summary);
        m_log->setItem(0, LogSummaryColumn, summary);
    }
    m_loggedShown = logged;
    if (m_log->rowCount() > kLogRowsShown)
        m_log->setRowCount(kLogRowsShown);
}

void AutopilotDock::showDetails()
{
    const QList<QTableWidgetItem *> selected = m_log->selectedItems();
    if (selected.isEmpty()) {
        m_details->clear();
        return;
    }
    const QTableWidgetItem *time = m_log->item(selected.first()->row(), LogTimeColumn);
    m_details->setPlainText(time ? time->data(Qt::UserRole).toString() : QString());
}

QString AutopilotDock::statusText() const
{
    QStringList parts;
    const Autopilot &a = *m_autopilot;
    if (!a.loop()) {
        parts << tr("Waiting for a fabric with installed tables (open an LFT dump, or discover a live fabric).");
    } else {
        parts << m_modeBox->currentText().section(QLatin1Char(':'), 0, 0);
        if (a.paused())
            parts << tr("AUTONOMY PAUSED");
        parts << tr("%n rule(s)", nullptr, a.ruleCount());
        parts << (a.ticks() == 0 ? tr("no tick yet: start Fabric ▸ Sample Port Counters")
                                 : tr("%n tick(s), the last at %1 (%2 s)", nullptr, a.ticks())
                                       .arg(clockText(a.lastTickTime()), QLocale().toString(a.lastTickSeconds(), 'f', 2)));
        if (a.isTicking())
            parts << tr("evaluating…");
        if (a.skippedTicks() > 0)
            parts << tr("%n tick(s) skipped while one ran", nullptr, a.skippedTicks());
        if (const PendingChange *pending = a.pendingChange())
            parts << (a.isCommittingChange() ? tr("committing the change of %1").arg(pending->plan.firing.rule)
                                             : tr("the change of %1 waits for approval in the Diff Review").arg(pending->plan.firing.rule));
    }
    QString text = parts.join(QStringLiteral(" · "));
    if (!a.lastProblem().isEmpty())
        text += QLatin1Char('\n') + a.lastProblem();
    return text;
}

void AutopilotDock::updateStatus()
{
    const QString text = statusText();
    const QString first = text.section(QLatin1Char('\n'), 0, 0);
    const QString problem = text.section(QLatin1Char('\n'), 1);
    const Autopilot &a = *m_autopilot;
    m_lastTick->setText(a.ticks() == 0 ? tr("Last tick: none yet")
                                       : tr("Last tick: %1, took %2 s").arg(clockText(a.lastTickTime()), QLocale().toString(a.lastTickSeconds(), 'f', 2)));
    m_status->setText(first.toHtmlEscaped()
                      + (problem.isEmpty() ? QString() : QStringLiteral("<br><span style=\"color:#b01c1c\">%1</span>").arg(problem.toHtmlEscaped())));
}

}  // namespace weft
