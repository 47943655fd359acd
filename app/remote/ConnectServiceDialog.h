#pragma once
// File ▸ Connect to Fabric Service…: a fabric served by `weft serve` on an SM host, worked on
// from this desk as if it were local (ServiceConnections). The dialog asks for the address and a
// credential (a token, or a client certificate and its key); ServiceConnections connects, asks
// the operator to trust the server's certificate the first time (its SHA-256 shown, as ssh shows
// a host key) and keeps every service connected, one current, with a switcher per subnet.

#include "JobTenants.h"
#include "ServiceClient.h"

#include <QDialog>
#include <QObject>

#include <memory>
#include <vector>

class QAction;
class QComboBox;
class QLineEdit;
class QMainWindow;
class QTimer;

namespace weft {

class FabricSession;

namespace remote {

class ConnectServiceDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ConnectServiceDialog(QWidget *parent = nullptr);
    QString address() const;
    ServiceCredential credential() const;

private:
    QLineEdit *m_address = nullptr;
    QLineEdit *m_token = nullptr;
    QLineEdit *m_certificate = nullptr;
    QLineEdit *m_key = nullptr;
};

// The services this desk is connected to; the current one is the session's reader, commit
// target and telemetry source. Index 0 of the switcher is the local fabric.
class ServiceConnections : public QObject
{
    Q_OBJECT

public:
    // `discover`: starts a first discovery through the session (the Fabric menu's, with its
    // progress and messages).
    ServiceConnections(QMainWindow *window, FabricSession *session, std::function<bool()> discover);

    QAction *connectAction() const { return m_connect; }
    QAction *disconnectAction() const { return m_disconnect; }
    QComboBox *switcher() const { return m_switcher; }

    // Connects without the dialog (a test's, or a saved service's): `trustNewCertificate` pins a
    // certificate seen for the first time without asking. connected() follows.
    void connectTo(const QString &address, const ServiceCredential &credential, bool trustNewCertificate = false);
    int serviceCount() const { return int(m_services.size()); }
    // -1: the local fabric.
    int currentService() const { return m_current; }
    void makeCurrent(int index);

    // Slurm's jobs with a partition on the current service's fabric (GET jobs), read when a
    // service is made current, after each discovery through it and every kJobsPollMs; jobsChanged()
    // follows when they differ. Nothing while the desk works on the local fabric.
    static constexpr int kJobsPollMs = 5000;
    void refreshJobs();
    const std::vector<JobTenant> &jobs() const { return m_jobs; }

Q_SIGNALS:
    void connected(bool ok, const QString &message);
    void statusMessage(const QString &text, int timeoutMs);
    void jobsChanged(const std::vector<weft::JobTenant> &jobs);

private:
    struct Service
    {
        std::shared_ptr<ServiceClient> client;
        QString subnet;
        QString user;
        bool pluginMode = false;
    };
    void chooseAndConnect();
    void contacted(std::shared_ptr<ServiceClient> client, const Result<ServiceContact> &contact, bool trustNewCertificate);
    void refreshSwitcher();
    void setJobs(std::vector<JobTenant> jobs);

    QMainWindow *m_window;
    FabricSession *m_session;
    std::function<bool()> m_discover;
    QAction *m_connect = nullptr;
    QAction *m_disconnect = nullptr;
    QComboBox *m_switcher = nullptr;
    std::vector<Service> m_services;
    int m_current = -1;
    bool m_connecting = false;
    QTimer *m_jobsTimer = nullptr;
    bool m_readingJobs = false;
    QString m_jobsError;  // the last one said, said once
    std::vector<JobTenant> m_jobs;
};

}  // namespace remote
}  // namespace weft
