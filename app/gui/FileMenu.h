#pragma once
// The desk's File menu: topology files, the demo fabric, LFT dumps, projects and the recent
// files, each read without error before it replaces anything (a bad file never loses what is
// shown), and never over unsaved edits without asking first.

#include "Fabric.h"
#include "Tenancy.h"

#include <QObject>
#include <QList>
#include <QString>

class QMainWindow;
class QAction;
class QMenu;

namespace weft {

class FabricDocument;

class FileMenu : public QObject
{
    Q_OBJECT

public:
    FileMenu(QMainWindow *window, FabricDocument *document);

    void showFabric(Fabric fabric, Tenancy tenancy, const QString &title);
    // Without a dialog: false with "file:line: message" in *error, and nothing changed.
    bool openTopologyFile(const QString &path, QString *error);
    bool loadDemoFabric(QString *error);
    void openDemoFabric();  // shows the error in a message box
    bool openLftDump(const QString &path, QString *error);
    bool openProject(const QString &path, QString *error);
    bool saveProject(const QString &path, QString *error);

    // Unsaved edits would be lost by what is about to happen (`what`): asks to save them first.
    // False when the operator cancels. Asks only while the window is shown.
    bool maySetEditsAside(const QString &what);
    // The fabric services' actions (Connect to Fabric Service…), after the files'.
    void addConnectionActions(const QList<QAction *> &actions);

Q_SIGNALS:
    void statusMessage(const QString &text, int timeoutMs);
    // An LFT dump became the current tables.
    void lftDumpOpened();

private:
    QMenu *m_menu = nullptr;
    QAction *m_connectionsAnchor = nullptr;
    QString projectDirectory() const;
    void chooseTopologyFile();
    void chooseLftDump();
    void chooseProjectToOpen();
    bool chooseProjectToSave();
    void saveCurrentProject();
    void openRecentFile(const QString &path);
    void showOpenError(const QString &path, const QString &error);
    void addRecentFile(const QString &path);
    void updateRecentFilesMenu();

    QMainWindow *m_window;
    FabricDocument *m_document;
    QMenu *m_recentMenu = nullptr;
    QString m_projectPath;
};

}  // namespace weft
