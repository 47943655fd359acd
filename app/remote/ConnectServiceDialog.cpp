#include "ConnectServiceDialog.h"

#include "FabricSession.h"
#include "JobPartitions.h"
#include "TelemetrySampler.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QTimer>
#include <QtConcurrent>

namespace weft::remote {

// ---- the dialog -------------------------------------------------------------------------------

ConnectServiceDialog::ConnectServiceDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("connectServiceDialog"));
    setWindowTitle(tr("Connect to Fabric Service"));
    auto *form = new QFormLayout;
    QSettings settings;
    m_address = new QLineEdit(settings.value(QStringLiteral("service/address")).toString(), this);
    m_address->setObjectName(QStringLiteral("serviceAddress"));
    m_address->setPlaceholderText(tr("sm1.example.org:8443"));
    form->addRow(tr("&Address:"), m_address);
    m_token = new QLineEdit(this);
    m_token->setObjectName(QStringLiteral("serviceToken"));
    m_token->setEchoMode(QLineEdit::Password);
    m_token->setPlaceholderText(tr("weft_… (from weft serve token add)"));
    form->addRow(tr("&Token:"), m_token);
    auto fileRow = [this, form](QLineEdit *&edit, const QString &label, const QString &name, const QString &key) {
        edit = new QLineEdit(QSettings().value(key).toString(), this);
        edit->setObjectName(name);
        auto *browse = new QPushButton(tr("Browse…"), this);
        connect(browse, &QPushButton::clicked, this, [this, edit] {
            const QString path = QFileDialog::getOpenFileName(this, tr("Choose a PEM File"), edit->text(), tr("PEM files (*.pem *.crt *.key);;All files (*)"));
            if (!path.isEmpty())
                edit->setText(path);
        });
        auto *row = new QHBoxLayout;
        row->addWidget(edit);
        row->addWidget(browse);
        // A row of a layout gets no buddy from the form: without one the mnemonic shows as "&".
        auto *caption = new QLabel(label, this);
        caption->setBuddy(edit);
        form->addRow(caption, row);
    };
    fileRow(m_certificate, tr("or client &certificate:"), QStringLiteral("serviceCertificate"), QStringLiteral("service/certificate"));
    fileRow(m_key, tr("its &key:"), QStringLiteral("serviceKey"), QStringLiteral("service/key"));
    auto *note = new QLabel(tr("The service's own certificate is shown the first time you connect, to be trusted as ssh trusts a host "
                               "key; later connections accept that certificate and no other."),
                            this);
    note->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (m_address->text().trimmed().isEmpty() || (m_token->text().isEmpty() && m_certificate->text().isEmpty())) {
            QMessageBox::warning(this, windowTitle(), tr("Give the service's address and a token or a client certificate."));
            return;
        }
        QSettings s;
        s.setValue(QStringLiteral("service/address"), m_address->text().trimmed());
        s.setValue(QStringLiteral("service/certificate"), m_certificate->text());
        s.setValue(QStringLiteral("service/key"), m_key->text());
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
    resize(520, sizeHint().height());
}

QString ConnectServiceDialog::address() const
{
    return m_address->text().trimmed();
}

ServiceCredential ConnectServiceDialog::credential() const
{
    return ServiceCredential{m_token->text().trimmed().toLatin1(), m_certificate->text(), m_key->text()};
}

// ---- the connections --------------------------------------------------------------------------

ServiceConnections::ServiceConnections(QMainWindow *window, FabricSession *session, std::function<bool()> discover)
    : QObject(window), m_window(window), m_session(session), m_discover(std::move(discover))
{
    m_connect = new QAction(tr("Connect to Fabric &Service…"), this);
    m_connect->setObjectName(QStringLiteral("connectServiceAction"));
    m_connect->setStatusTip(tr("Work on a fabric served by weft serve on its SM host: no local adapter needed"));
    connect(m_connect, &QAction::triggered, this, &ServiceConnections::chooseAndConnect);
    m_disconnect = new QAction(tr("&Disconnect from Fabric Service"), this);
    m_disconnect->setObjectName(QStringLiteral("disconnectServiceAction"));
    m_disconnect->setEnabled(false);
    connect(m_disconnect, &QAction::triggered, this, [this] {
        if (m_current < 0)
            return;
        const int gone = m_current;
        makeCurrent(-1);
        m_services.erase(m_services.begin() + gone);
        refreshSwitcher();
    });
    m_switcher = new QComboBox(window);
    m_switcher->setObjectName(QStringLiteral("subnetSwitcher"));
    m_switcher->setToolTip(tr("The fabric this desk works on: the local one, or a connected fabric service's subnet"));
    m_switcher->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_switcher, &QComboBox::activated, this, [this](int row) { makeCurrent(row - 1); });
    refreshSwitcher();
    m_jobsTimer = new QTimer(this);
    m_jobsTimer->setInterval(kJobsPollMs);
    connect(m_jobsTimer, &QTimer::timeout, this, &ServiceConnections::refreshJobs);
    connect(m_session, &FabricSession::discoveryFinished, this, [this](bool ok) {
        if (ok && m_current >= 0)
            refreshJobs();
    });
}

void ServiceConnections::refreshJobs()
{
    if (m_current < 0 || m_readingJobs)
        return;
    m_readingJobs = true;
    std::shared_ptr<ServiceClient> client = m_services[std::size_t(m_current)].client;
    QtConcurrent::run([client] { return client->jobs(); }).then(this, [this, client](const Result<QJsonObject> &answer) {
        m_readingJobs = false;
        // Another service made current meanwhile: its own reading follows.
        if (m_current < 0 || m_services[std::size_t(m_current)].client != client)
            return;
        Result<std::vector<JobTenant>> jobs = answer ? jobTenantsFromJson(*answer) : Result<std::vector<JobTenant>>(answer.error());
        if (!jobs) {
            // The jobs shown stay as last read; the operator hears why once, not every poll.
            const QString message = tr("Slurm's jobs could not be read from %1: %2").arg(client->hostPort(), jobs.error().toString());
            if (message != m_jobsError)
                Q_EMIT statusMessage(message, 15000);
            m_jobsError = message;
            return;
        }
        m_jobsError.clear();
        setJobs(std::move(*jobs));
    });
}

void ServiceConnections::setJobs(std::vector<JobTenant> jobs)
{
    if (jobs == m_jobs)
        return;
    m_jobs = std::move(jobs);
    Q_EMIT jobsChanged(m_jobs);
}

void ServiceConnections::chooseAndConnect()
{
    auto *dialog = new ConnectServiceDialog(m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { connectTo(dialog->address(), dialog->credential()); });
    dialog->open();
}

void ServiceConnections::connectTo(const QString &address, const ServiceCredential &credential, bool trustNewCertificate)
{
    if (m_connecting) {
        Q_EMIT connected(false, tr("a connection is being made"));
        return;
    }
    m_connecting = true;
    auto client = std::make_shared<ServiceClient>(address, credential);
    Q_EMIT statusMessage(tr("Connecting to %1…").arg(client->hostPort()), 0);
    QtConcurrent::run([client] { return client->contact(); })
        .then(this, [this, client, trustNewCertificate](const Result<ServiceContact> &contact) {
            m_connecting = false;
            contacted(client, contact, trustNewCertificate);
        });
}

void ServiceConnections::contacted(std::shared_ptr<ServiceClient> client, const Result<ServiceContact> &contact, bool trustNewCertificate)
{
    const auto fail = [this](const QString &message) {
        Q_EMIT statusMessage(message, 15000);
        Q_EMIT connected(false, message);
    };
    if (!contact)
        return fail(contact.error().toString());
    if (contact->pin == ServiceContact::Pin::Changed) {
        QMessageBox::critical(m_window, tr("The Service's Certificate Has Changed"),
                              tr("The fabric service at %1 shows another certificate than the one trusted before.\n\nTrusted: %2\nShown:   "
                                 "%3\n\nSomeone may be in between. Nothing was sent to it. If its certificate was replaced on purpose, "
                                 "remove its line from %4 and connect again.")
                                  .arg(client->hostPort(), contact->pinned, contact->fingerprint, ServiceClient::defaultKnownServicesPath()));
        return fail(tr("%1: the service's certificate changed; not connected").arg(client->hostPort()));
    }
    if (contact->pin == ServiceContact::Pin::Unknown) {
        const bool trust = trustNewCertificate
            || QMessageBox::question(m_window, tr("Trust This Fabric Service?"),
                                     tr("The authenticity of the fabric service at %1 cannot be established.\n\nIts certificate: %2\n"
                                        "SHA-256 fingerprint:\n%3\n\nCompare the fingerprint with the one on the SM host (openssl x509 "
                                        "-noout -fingerprint -sha256 -in CERT). Trust it from now on?")
                                         .arg(client->hostPort(), contact->certificate.subjectInfo(QSslCertificate::CommonName).value(0),
                                              contact->fingerprint))
                == QMessageBox::Yes;
        if (!trust)
            return fail(tr("%1: its certificate was not trusted; not connected").arg(client->hostPort()));
        if (Status pinned = client->pin(contact->fingerprint); !pinned)
            return fail(pinned.error().toString());
        // Now the status, over the pinned certificate, with the credential.
        m_connecting = true;
        QtConcurrent::run([client] { return client->contact(); }).then(this, [this, client](const Result<ServiceContact> &again) {
            m_connecting = false;
            contacted(client, again, false);
        });
        return;
    }
    Service service;
    service.client = client;
    service.subnet = contact->status.value(QStringLiteral("subnet")).toString();
    service.user = contact->status.value(QStringLiteral("you")).toObject().value(QStringLiteral("name")).toString();
    service.pluginMode = contact->status.value(QStringLiteral("plugin_mode")).toBool();
    const auto same = std::find_if(m_services.begin(), m_services.end(), [&](const Service &s) { return s.client->hostPort() == client->hostPort(); });
    int index = int(same - m_services.begin());
    if (same == m_services.end())
        m_services.push_back(service);
    else
        *same = service;
    refreshSwitcher();
    makeCurrent(index);
    Q_EMIT connected(true, tr("Connected to %1 as %2").arg(client->hostPort(), service.user));
}

void ServiceConnections::makeCurrent(int index)
{
    if (index >= int(m_services.size()))
        return;
    // The sampler reads the fabric shown; it starts again on the operator's word, for the next.
    TelemetrySampler *sampler = m_session->sampler();
    sampler->stop();
    const QString previous = m_current >= 0 ? m_services[std::size_t(m_current)].client->hostPort() : QString();
    m_current = index;
    if (index < 0) {
        m_session->setLiveReader(nullptr);
        m_session->setRemoteTarget(std::nullopt);
        m_session->setCommitUser({});
        sampler->setSource({});
        m_jobsTimer->stop();
        setJobs({});
        // The picture stays as the service last showed it; nothing local is read unasked.
        Q_EMIT statusMessage(previous.isEmpty() ? tr("Working on the local fabric")
                                                : tr("Working on the local fabric: the fabric shown is as %1 last served it; Fabric ▸ "
                                                     "Discover reads the local one")
                                                      .arg(previous),
                             15000);
    } else {
        const Service &service = m_services[std::size_t(index)];
        m_session->setLiveReader(service.client->liveReader());
        RemoteTarget target = service.client->remoteTarget(service.subnet);
        target.pluginMode = service.pluginMode;
        m_session->setRemoteTarget(std::move(target));
        m_session->setCommitUser(service.user);
        sampler->setSource(service.client->telemetrySource());
        // The previous service's jobs are not this one's; this one's are read once discovered.
        setJobs({});
        m_jobsError.clear();
        m_jobsTimer->start();
        Q_EMIT statusMessage(tr("Working on subnet %1 through the fabric service at %2").arg(service.subnet, service.client->hostPort()), 8000);
        m_discover();
    }
    m_disconnect->setEnabled(m_current >= 0);
    m_switcher->setCurrentIndex(m_current + 1);
}

void ServiceConnections::refreshSwitcher()
{
    m_switcher->clear();
    m_switcher->addItem(tr("Local fabric"));
    for (const Service &s : m_services)
        m_switcher->addItem(tr("%1 (%2)").arg(s.subnet.isEmpty() ? tr("subnet") : s.subnet, s.client->hostPort()));
    m_switcher->setCurrentIndex(m_current + 1);
    m_switcher->setVisible(!m_services.empty());
}

}  // namespace weft::remote
