#include "FileMenu.h"

#include "DemoFabric.h"
#include "FabricDocument.h"
#include "FabricSession.h"
#include "LftDump.h"
#include "LidAssignment.h"
#include "TopologyFile.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QUndoStack>

namespace weft {

namespace {

constexpr int kMaxRecentFiles = 8;
const QString kRecentFilesKey = QStringLiteral("recentFiles");
const QString kLastDirectoryKey = QStringLiteral("lastDirectory");
const QString kProjectDirectoryKey = QStringLiteral("lastProjectDirectory");
const QString kProjectSuffix = QStringLiteral("weft");

}  // namespace

FileMenu::FileMenu(QMainWindow *window, FabricDocument *document)
    : QObject(window), m_window(window), m_document(document)
{
    QMenu *menu = window->menuBar()->addMenu(tr("&File"));
    m_menu = menu;
    QAction *open = menu->addAction(tr("&Open Topology…"), this, &FileMenu::chooseTopologyFile);
    open->setShortcut(QKeySequence::Open);
    menu->addAction(tr("Open &Demo Fabric"), this, [this] {
        if (maySetEditsAside(tr("The demo fabric replaces the fabric shown.")))
            openDemoFabric();
    });
    QAction *openProject = menu->addAction(tr("Open &Project…"), this, &FileMenu::chooseProjectToOpen);
    openProject->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QAction *openLfts = menu->addAction(tr("Open &LFT Dump…"), this, &FileMenu::chooseLftDump);
    openLfts->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    openLfts->setStatusTip(tr("Load the forwarding tables the fabric holds now (ibroute, dump_lfts or OpenSM's dump)"));
    m_recentMenu = menu->addMenu(tr("Open &Recent"));
    updateRecentFilesMenu();
    m_connectionsAnchor = menu->addSeparator();
    QAction *save = menu->addAction(tr("&Save Project"), this, &FileMenu::saveCurrentProject);
    save->setShortcut(QKeySequence::Save);
    QAction *saveAs = menu->addAction(tr("Save Project &As…"), this, [this] { chooseProjectToSave(); });
    saveAs->setShortcut(QKeySequence::SaveAs);
    menu->addSeparator();
    QAction *quit = menu->addAction(tr("&Quit"), window, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);
    // Another fabric: the project that was open belongs to the one before.
    connect(m_document, &FabricDocument::fabricReset, this, [this] { m_projectPath.clear(); });
}

void FileMenu::showFabric(Fabric fabric, Tenancy tenancy, const QString &title)
{
    // The scene lays the fabric out when the document announces it: at once when it is small,
    // on a worker thread otherwise (sceneShown() then follows).
    m_document->reset(std::make_shared<const Fabric>(std::move(fabric)), std::move(tenancy), title);
}

void FileMenu::addConnectionActions(const QList<QAction *> &actions)
{
    m_menu->insertSeparator(m_connectionsAnchor);
    m_menu->insertActions(m_connectionsAnchor, actions);
}

bool FileMenu::maySetEditsAside(const QString &what)
{
    if (m_document->undoStack()->isClean() || !m_window->isVisible())
        return true;
    const auto answer = QMessageBox::question(m_window, tr("Unsaved Changes"),
                                              tr("%1 The partitions, policies or weights have unsaved changes. Save them as a project first?").arg(what),
                                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    return answer == QMessageBox::Discard || (answer == QMessageBox::Save && chooseProjectToSave());
}

QString FileMenu::projectDirectory() const
{
    // Where the operator keeps projects, never a lab's temporary directory that goes with it.
    if (!m_projectPath.isEmpty())
        return m_projectPath;
    const QString last = QSettings().value(kProjectDirectoryKey).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir())
        return last;
    return QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
}

bool FileMenu::openLftDump(const QString &path, QString *error)
{
    const std::shared_ptr<const Fabric> shown = m_document->fabric();
    if (!shown) {
        if (error)
            *error = tr("open a fabric first");
        return false;
    }
    Result<ForwardingTables> read = readLftDumpFile(path, shown.get());
    if (!read) {
        if (error)
            *error = read.error().toString();
        return false;
    }
    auto tables = std::make_shared<const ForwardingTables>(std::move(read).value());
    const QString name = QFileInfo(path).fileName();
    m_document->session()->setCurrentTables(tables, name);
    Q_EMIT lftDumpOpened();
    const QStringList coverage = lftCoverageWarnings(*tables, *shown);
    Q_EMIT statusMessage(coverage.isEmpty() ? tr("Current tables: %1").arg(name)
                                                : tr("Current tables: %1 (%n switch(es) not fully covered)", nullptr, int(coverage.size())).arg(name),
                             10000);
    return true;
}

void FileMenu::chooseLftDump()
{
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open LFT Dump"), settings.value(kLastDirectoryKey).toString(),
                                                      tr("LFT dumps (*.lfts *.dump *.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(kLastDirectoryKey, QFileInfo(path).absolutePath());
    QString error;
    if (!openLftDump(path, &error))
        QMessageBox::warning(m_window, tr("Cannot Open the LFT Dump"), error);
}

bool FileMenu::openProject(const QString &path, QString *error)
{
    if (!m_document->fabric()) {
        if (error)
            *error = tr("open the project's fabric first");
        return false;
    }
    QStringList missing;
    const Status opened = m_document->openProject(path, &missing);
    if (!opened) {
        if (error)
            *error = opened.error().toString();
        return false;
    }
    m_projectPath = path;
    addRecentFile(path);
    if (!missing.isEmpty())
        Q_EMIT statusMessage(tr("%n GUID(s) of the project are not in this fabric and were left out", nullptr, int(missing.size())), 15000);
    return true;
}

bool FileMenu::saveProject(const QString &path, QString *error)
{
    const Status saved = m_document->saveProject(path);
    if (!saved) {
        if (error)
            *error = saved.error().toString();
        return false;
    }
    m_projectPath = path;
    QSettings().setValue(kProjectDirectoryKey, QFileInfo(path).absolutePath());
    addRecentFile(path);
    Q_EMIT statusMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 5000);
    return true;
}

void FileMenu::chooseProjectToOpen()
{
    if (!maySetEditsAside(tr("Opening a project replaces the partitions, policies and weights.")))
        return;
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open Project"), projectDirectory(), tr("Weft projects (*.weft);;All files (*)"));
    if (path.isEmpty())
        return;
    QSettings().setValue(kProjectDirectoryKey, QFileInfo(path).absolutePath());
    QString error;
    if (!openProject(path, &error))
        QMessageBox::warning(m_window, tr("Cannot Open the Project"), error);
}

bool FileMenu::chooseProjectToSave()
{
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save Project"), projectDirectory(), tr("Weft projects (*.weft)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + kProjectSuffix;
    QString error;
    if (!saveProject(path, &error)) {
        QMessageBox::warning(m_window, tr("Cannot Save the Project"), error);
        return false;
    }
    return true;
}

void FileMenu::saveCurrentProject()
{
    if (m_projectPath.isEmpty()) {
        chooseProjectToSave();
        return;
    }
    QString error;
    if (!saveProject(m_projectPath, &error))
        QMessageBox::warning(m_window, tr("Cannot Save the Project"), error);
}

bool FileMenu::openTopologyFile(const QString &path, QString *error)
{
    Result<Fabric> read = readTopologyFile(path);
    if (!read) {
        if (error)
            *error = read.error().toString();
        return false;
    }
    Fabric fabric = std::move(read).value();
    // A design not cabled yet (a generator's fat-tree, an ibsim net file) has no LIDs, and no
    // engine routes without them: give them as OpenSM gives them at its first sweep, from the
    // first CA's port, as `weft convert --assign-lids` does, and say so.
    QString note;
    if (fabric.maxLid() == 0 && !fabric.endNodes().empty()) {
        Result<Fabric> assigned = assignLidsAsOpenSm(fabric);
        if (assigned) {
            fabric = std::move(assigned).value();
            QString smPort;
            for (const Port &port : fabric.ports())
                if (port.lid == 1 && port.node != kNoIndex) {
                    smPort = QStringLiteral("%1[%2]").arg(fabric.node(port.node).description).arg(port.number);
                    break;
                }
            note = tr("%1 has no LIDs: Weft gave them as OpenSM would at its first sweep with its SM on %2 (LIDs 1-%3; "
                      "weft convert --assign-lids names another SM port). A live fabric's own LIDs replace them at discovery.")
                       .arg(QFileInfo(path).fileName(), smPort)
                       .arg(fabric.maxLid());
        } else {
            note = tr("%1 has no LIDs, and none could be given (%2): it is drawn, but no engine routes it.")
                       .arg(QFileInfo(path).fileName(), assigned.error().toString());
        }
    }
    showFabric(std::move(fabric), Tenancy(), QFileInfo(path).fileName());
    addRecentFile(path);
    if (!note.isEmpty())
        Q_EMIT statusMessage(note, 60000);
    return true;
}

bool FileMenu::loadDemoFabric(QString *error)
{
    Result<DemoFabric> demo = makeDemoFabric();
    if (!demo) {
        if (error)
            *error = demo.error().toString();
        return false;
    }
    DemoFabric value = std::move(demo).value();
    showFabric(std::move(value.fabric), std::move(value.tenancy), value.title);
    return true;
}

void FileMenu::openDemoFabric()
{
    QString error;
    if (!loadDemoFabric(&error))
        QMessageBox::warning(m_window, tr("Cannot Open the Demo Fabric"), error);
}

void FileMenu::chooseTopologyFile()
{
    if (!maySetEditsAside(tr("Opening a topology replaces the fabric shown.")))
        return;
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open Topology"), settings.value(kLastDirectoryKey).toString(),
                                                      tr("Topology files (ibnetdiscover, ibsim) (*.txt *.net *.topo);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(kLastDirectoryKey, QFileInfo(path).absolutePath());
    openRecentFile(path);
}

void FileMenu::openRecentFile(const QString &path)
{
    QString error;
    if (QFileInfo(path).suffix() == kProjectSuffix) {
        if (!openProject(path, &error))
            QMessageBox::warning(m_window, tr("Cannot Open the Project"), error);
        return;
    }
    if (!openTopologyFile(path, &error))
        showOpenError(path, error);
}

void FileMenu::showOpenError(const QString &path, const QString &error)
{
    QMessageBox box(QMessageBox::Warning, tr("Cannot Open Topology"),
                    tr("%1 could not be read. The fabric shown before is unchanged.").arg(QFileInfo(path).fileName()),
                    QMessageBox::Ok, m_window);
    box.setInformativeText(error);
    box.exec();
}

void FileMenu::addRecentFile(const QString &path)
{
    QSettings settings;
    QStringList files = settings.value(kRecentFilesKey).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue(kRecentFilesKey, files);
    updateRecentFilesMenu();
}

void FileMenu::updateRecentFilesMenu()
{
    m_recentMenu->clear();
    const QStringList files = QSettings().value(kRecentFilesKey).toStringList();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files.at(i);
        QAction *action = m_recentMenu->addAction(tr("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()), this, [this, path] {
            if (maySetEditsAside(tr("Opening %1 replaces what is shown.").arg(QFileInfo(path).fileName())))
                openRecentFile(path);
        });
        action->setToolTip(path);
        action->setStatusTip(path);
    }
    if (files.isEmpty()) {
        m_recentMenu->addAction(tr("No Recent Files"))->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("&Clear List"), this, [this] {
        QSettings().remove(kRecentFilesKey);
        updateRecentFilesMenu();
    });
}


}  // namespace weft
