#include "CommitTargetDialog.h"

#include "CommitTargetSettings.h"
#include "DiffReview.h"
#include "FabricSession.h"
#include "Palette.h"
#include "SafeFile.h"
#include "SubnetTarget.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace weft {

namespace {

constexpr int kWidestColumn = 260;

// The target file's key for each column but the routing file's, which the mode names.
const char *fieldOf(int column)
{
    switch (column) {
    case CommitTargetDialog::SmNameColumn: return "name";
    case CommitTargetDialog::SmOptionsColumn: return "options";
    case CommitTargetDialog::SmPartitionsColumn: return "partitions";
    case CommitTargetDialog::SmPidFileColumn: return "pidfile";
    case CommitTargetDialog::SmLogColumn: return "log";
    case CommitTargetDialog::SmPortGuidColumn: return "port_guid";
    }
    return nullptr;
}

}  // namespace

CommitTargetDialog::CommitTargetDialog(FabricSession *session, QWidget *parent)
    : QDialog(parent), m_session(session)
{
    setObjectName(QStringLiteral("commitTargetDialog"));
    setWindowTitle(tr("Commit Target"));
    const CommitTarget target = m_session ? m_session->commitTarget() : configuredCommitTarget();
    // A subnet target the session could not read is still the one the settings name: shown, with
    // its error, to be mended.
    const QString subnetPath = m_session && m_session->subnetTarget() ? m_session->subnetTargetPath() : configuredSubnetTargetPath();

    // One OpenSM.
    m_lfts = new QLineEdit(target.lftsPath, this);
    m_intent = new QLineEdit(target.intentPath, this);
    m_partitions = new QLineEdit(target.partitionsPath, this);
    m_pid = new QLineEdit(target.pidFile, this);
    m_log = new QLineEdit(target.logPath, this);
    m_options = new QLineEdit(target.optionsPath, this);
    auto *single = new QGroupBox(tr("One OpenSM"), this);
    auto *singleForm = new QFormLayout(single);
    auto *help = new QLabel(tr("The files of an OpenSM routing with Weft's engine inside it (event_plugin_name weftosm, "
                               "routing_engine weft): its intent (event_plugin_options) and -P PARTITIONS; or of one started "
                               "with -R file -U LFTS -P PARTITIONS. Leave the intent and the dump empty to write plan files instead."),
                            single);
    help->setWordWrap(true);
    singleForm->addRow(help);
    singleForm->addRow(tr("Intent (event_plugin_options):"), m_intent);
    singleForm->addRow(tr("LFT dump (-U, the file engine):"), m_lfts);
    singleForm->addRow(tr("partitions.conf (-P):"), m_partitions);
    singleForm->addRow(tr("OpenSM pid file:"), m_pid);
    singleForm->addRow(tr("OpenSM log (optional):"), m_log);
    singleForm->addRow(tr("OpenSM options file (-F; needed for service levels):"), m_options);

    // A subnet with several SMs.
    auto *subnet = new QGroupBox(tr("A subnet with several subnet managers"), this);
    auto *subnetHelp = new QLabel(tr("A subnet target file names every OpenSM of the subnet, each with its own files (the file "
                                     "`weft commit --target` reads). While one is set, Approve commits through the SM that is "
                                     "master and writes the same plan into every other SM's files; the OpenSM above is kept for "
                                     "when the file is cleared."),
                                  subnet);
    subnetHelp->setWordWrap(true);
    m_subnetPath = new QLineEdit(subnetPath, subnet);
    m_subnetPath->setObjectName(QStringLiteral("subnetTargetPath"));
    m_subnetPath->setPlaceholderText(tr("none: commits go to the one OpenSM above"));
    m_subnetPath->setClearButtonEnabled(true);
    auto *browse = new QPushButton(tr("&Browse…"), subnet);
    browse->setObjectName(QStringLiteral("subnetTargetBrowse"));
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(m_subnetPath, 1);
    pathRow->addWidget(browse);

    m_subnetEditor = new QWidget(subnet);
    m_subnetName = new QLineEdit(m_subnetEditor);
    m_subnetName->setObjectName(QStringLiteral("subnetName"));
    m_routingMode = new QComboBox(m_subnetEditor);
    m_routingMode->setObjectName(QStringLiteral("subnetRoutingMode"));
    m_routingMode->addItem(tr("Weft's engine inside each OpenSM (an intent per SM)"));
    m_routingMode->addItem(tr("OpenSM's file engine (an LFT dump per SM, -U)"));
    m_sms = new QTableWidget(0, SmColumnCount, m_subnetEditor);
    m_sms->setObjectName(QStringLiteral("subnetSms"));
    m_sms->verticalHeader()->hide();
    m_sms->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_sms->setTextElideMode(Qt::ElideMiddle);  // a path's file name and its directory's start stay in view
    m_sms->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_sms->horizontalHeader()->setStretchLastSection(true);
    m_sms->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    updateRoutingHeader();
    auto *add = new QPushButton(tr("&Add SM"), m_subnetEditor);
    add->setObjectName(QStringLiteral("addSm"));
    auto *remove = new QPushButton(tr("&Remove SM"), m_subnetEditor);
    remove->setObjectName(QStringLiteral("removeSm"));
    auto *save = new QPushButton(tr("&Save"), m_subnetEditor);
    save->setObjectName(QStringLiteral("saveSubnetTarget"));
    save->setToolTip(tr("Write the SMs to the subnet target file"));
    auto *editorForm = new QFormLayout;
    editorForm->setContentsMargins(0, 0, 0, 0);
    editorForm->addRow(tr("Subnet name:"), m_subnetName);
    editorForm->addRow(tr("Routing:"), m_routingMode);
    auto *smButtons = new QHBoxLayout;
    smButtons->addWidget(add);
    smButtons->addWidget(remove);
    smButtons->addStretch(1);
    smButtons->addWidget(save);
    auto *editorLayout = new QVBoxLayout(m_subnetEditor);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->addLayout(editorForm);
    editorLayout->addWidget(m_sms, 1);
    editorLayout->addLayout(smButtons);

    auto *subnetLayout = new QVBoxLayout(subnet);
    subnetLayout->addWidget(subnetHelp);
    auto *pathForm = new QFormLayout;
    pathForm->addRow(tr("Subnet target file (all the subnet's SMs):"), pathRow);
    subnetLayout->addLayout(pathForm);
    subnetLayout->addWidget(m_subnetEditor, 1);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("commitTargetError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    auto *box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(single);
    layout->addWidget(subnet, 1);
    layout->addWidget(m_error);
    layout->addWidget(box);

    connect(box, &QDialogButtonBox::accepted, this, &CommitTargetDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, &CommitTargetDialog::browseSubnetTarget);
    connect(m_subnetPath, &QLineEdit::editingFinished, this, &CommitTargetDialog::subnetPathEdited);
    connect(m_subnetPath, &QLineEdit::textChanged, this, [this](const QString &text) { m_subnetEditor->setEnabled(!text.trimmed().isEmpty()); });
    connect(add, &QPushButton::clicked, this, &CommitTargetDialog::addSm);
    connect(remove, &QPushButton::clicked, this, &CommitTargetDialog::removeSm);
    connect(save, &QPushButton::clicked, this, &CommitTargetDialog::saveSubnetTarget);
    connect(m_sms, &QTableWidget::itemChanged, this, &CommitTargetDialog::markSubnetEdited);
    connect(m_subnetName, &QLineEdit::textEdited, this, &CommitTargetDialog::markSubnetEdited);
    connect(m_routingMode, &QComboBox::currentIndexChanged, this, [this] {
        updateRoutingHeader();
        markSubnetEdited();
    });

    m_subnetEditor->setEnabled(!subnetPath.isEmpty());
    if (!subnetPath.isEmpty())
        loadSubnetTarget(subnetPath);
    resize(980, 680);
}

QString CommitTargetDialog::subnetTargetPath() const
{
    return m_subnetPath->text().trimmed();
}

void CommitTargetDialog::setSubnetTargetPath(const QString &path)
{
    m_subnetPath->setText(path);
    subnetPathEdited();
}

QString CommitTargetDialog::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void CommitTargetDialog::showError(const QString &text)
{
    m_error->setStyleSheet(QStringLiteral("color: %1;").arg(kProblemColour.name()));
    m_error->setText(text);
    m_error->setVisible(!text.isEmpty());
}

void CommitTargetDialog::markSubnetEdited()
{
    if (!m_filling)
        m_subnetEdited = true;
}

void CommitTargetDialog::updateRoutingHeader()
{
    m_sms->setHorizontalHeaderLabels({tr("Name"), tr("Options file (-F)"),
                                      m_routingMode->currentIndex() == LftRouting ? tr("LFT dump (-U)") : tr("Intent"),
                                      tr("partitions.conf (-P)"), tr("Pid file"), tr("Log (optional)"), tr("Port GUID (optional)")});
}

void CommitTargetDialog::setRoutingMode(RoutingMode mode)
{
    m_routingMode->setCurrentIndex(mode);
}

void CommitTargetDialog::browseSubnetTarget()
{
    const QString start = subnetTargetPath().isEmpty() ? QStringLiteral("/etc/opensm/subnet.json") : subnetTargetPath();
    // A file that is not there yet is a new target, which Save creates.
    const QString path = QFileDialog::getSaveFileName(this, tr("Subnet Target File"), start, tr("Subnet targets (*.json);;All files (*)"),
                                                      nullptr, QFileDialog::DontConfirmOverwrite);
    if (!path.isEmpty())
        setSubnetTargetPath(path);
}

void CommitTargetDialog::subnetPathEdited()
{
    const QString path = subnetTargetPath();
    if (path == m_loadedPath)
        return;
    if (path.isEmpty()) {
        showError({});
        return;
    }
    loadSubnetTarget(path);
}

bool CommitTargetDialog::loadSubnetTarget(const QString &path)
{
    if (!QFileInfo::exists(path)) {
        // A new file: the table as it stands becomes its content once saved.
        m_loadedPath = path;
        m_subnetEdited = true;
        m_error->setStyleSheet({});
        m_error->setText(tr("%1 does not exist yet: add its SMs, then Save creates it.").arg(path));
        m_error->show();
        return true;
    }
    if (m_subnetEdited && m_sms->rowCount() > 0 && !m_loadedPath.isEmpty() && path != m_loadedPath
        && QMessageBox::question(this, tr("Commit Target"),
                                 tr("The SMs edited here are not saved. Read %1 instead and drop the edits?").arg(path))
            != QMessageBox::Yes) {
        m_subnetPath->setText(m_loadedPath);
        return false;
    }
    m_loadedPath = path;
    Result<SubnetTarget> read = readSubnetTargetFile(path);
    m_filling = true;
    m_sms->setRowCount(0);
    if (!read) {
        m_subnetName->clear();
        m_filling = false;
        m_subnetEdited = false;
        showError(tr("Not a subnet target: %1").arg(read.error().toString()));
        return false;
    }
    m_subnetName->setText(read->subnet);
    m_routingMode->setCurrentIndex(read->pluginMode() ? IntentRouting : LftRouting);
    updateRoutingHeader();
    for (const SubnetManagerEntry &e : read->sms) {
        const int row = m_sms->rowCount();
        m_sms->insertRow(row);
        const QString texts[SmColumnCount] = {e.name, e.optionsPath, e.routingFile(), e.partitionsPath,
                                              e.pidFile, e.logPath, e.portGuid ? guidText(e.portGuid) : QString()};
        for (int c = 0; c < SmColumnCount; ++c) {
            auto *item = new QTableWidgetItem(texts[c]);
            item->setToolTip(texts[c]);
            m_sms->setItem(row, c, item);
        }
    }
    m_sms->resizeColumnsToContents();
    for (int c = 0; c < SmColumnCount; ++c)
        m_sms->setColumnWidth(c, std::min(m_sms->columnWidth(c), kWidestColumn));
    m_filling = false;
    m_subnetEdited = false;
    showError({});
    return true;
}

void CommitTargetDialog::addSm()
{
    const int row = m_sms->rowCount();
    m_sms->insertRow(row);
    for (int c = 0; c < SmColumnCount; ++c)
        m_sms->setItem(row, c, new QTableWidgetItem(c == SmNameColumn ? QStringLiteral("sm%1").arg(row + 1) : QString()));
    m_sms->setCurrentCell(row, SmNameColumn);
    m_subnetEditor->setEnabled(true);
    markSubnetEdited();
}

void CommitTargetDialog::removeSm()
{
    const int row = m_sms->currentRow();
    if (row < 0)
        return;
    m_sms->removeRow(row);
    markSubnetEdited();
}

bool CommitTargetDialog::saveSubnetTarget()
{
    const QString path = subnetTargetPath();
    if (path.isEmpty()) {
        showError(tr("Name the subnet target file first."));
        return false;
    }
    // The table as the file's text, read back by the target file's own reader: what it refuses
    // is said with its line, and nothing is written.
    QJsonArray sms;
    for (int row = 0; row < m_sms->rowCount(); ++row) {
        QJsonObject sm;
        for (int c = 0; c < SmColumnCount; ++c) {
            const QTableWidgetItem *item = m_sms->item(row, c);
            const QString text = item ? item->text().trimmed() : QString();
            if (text.isEmpty() && c != SmNameColumn)
                continue;
            const QString key = c == SmRoutingColumn ? (m_routingMode->currentIndex() == LftRouting ? QStringLiteral("lfts") : QStringLiteral("intent"))
                                                     : QString::fromLatin1(fieldOf(c));
            sm.insert(key, text);
        }
        sms.append(sm);
    }
    const QJsonObject root{{QStringLiteral("subnet"), m_subnetName->text().trimmed()}, {QStringLiteral("sms"), sms}};
    const Result<SubnetTarget> checked = readSubnetTarget(QJsonDocument(root).toJson(QJsonDocument::Indented), path);
    if (!checked) {
        showError(tr("Not saved: %1").arg(checked.error().toString()));
        return false;
    }
    if (const Status written = writeFileAtomically(path, writeSubnetTarget(*checked)); !written) {
        showError(tr("Not saved: %1").arg(written.error().toString()));
        return false;
    }
    m_loadedPath.clear();
    m_subnetEdited = false;
    loadSubnetTarget(path);  // as the file now says it (relative paths made absolute)
    m_error->setStyleSheet({});
    m_error->setText(tr("Saved %1: %n SM(s).", nullptr, int(checked->sms.size())).arg(path));
    m_error->show();
    return true;
}

void CommitTargetDialog::accept()
{
    if (subnetTargetPath() != m_loadedPath)
        subnetPathEdited();  // typed, and OK pressed before the field was left
    const QString path = subnetTargetPath();
    if (!path.isEmpty() && m_subnetEdited && !saveSubnetTarget())
        return;
    CommitTarget edited;
    edited.intentPath = m_intent->text().trimmed();
    edited.lftsPath = edited.intentPath.isEmpty() ? m_lfts->text().trimmed() : QString();
    edited.partitionsPath = m_partitions->text().trimmed();
    edited.pidFile = m_pid->text().trimmed();
    edited.logPath = m_log->text().trimmed();
    edited.optionsPath = m_options->text().trimmed();
    if (m_session) {
        // Read by the session first: a file it refuses changes nothing.
        if (const Status set = m_session->setSubnetTarget(path); !set) {
            showError(tr("The subnet target cannot be used: %1").arg(set.error().toString()));
            return;
        }
        m_session->setCommitTarget(edited);
    } else if (!path.isEmpty()) {
        if (const Result<SubnetTarget> read = readSubnetTargetFile(path); !read) {
            showError(tr("The subnet target cannot be used: %1").arg(read.error().toString()));
            return;
        }
    }
    saveCommitTarget(edited);
    saveSubnetTargetPath(path);
    // The Subnet Managers dock shows the SMs of the new target as the fabric tells them.
    if (m_session && !path.isEmpty() && m_session->isLive())
        m_session->checkSubnetManagers();
    QDialog::accept();
}

}  // namespace weft
