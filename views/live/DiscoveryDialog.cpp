#include "DiscoveryDialog.h"

#include "FabricSession.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace weft {

DiscoveryDialog::DiscoveryDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("discoveryDialog"));
    setWindowTitle(tr("Discover the Fabric"));
    m_adapter = new QComboBox(this);
    m_adapter->setObjectName(QStringLiteral("adapterCombo"));
    m_port = new QComboBox(this);
    m_port->setObjectName(QStringLiteral("portCombo"));
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("discoveryError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *intro = new QLabel(tr("Weft reads the subnet as ibnetdiscover does, then every switch's forwarding "
                                "table and the ports' P_Key tables, through this port:"),
                             this);
    intro->setWordWrap(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_buttons->addButton(tr("&Discover"), QDialogButtonBox::AcceptRole)->setObjectName(QStringLiteral("discoverButton"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_adapter, &QComboBox::currentIndexChanged, this, &DiscoveryDialog::fillPorts);

    auto *form = new QFormLayout;
    form->addRow(tr("&Adapter:"), m_adapter);
    form->addRow(tr("&Port:"), m_port);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    refresh();
}

void DiscoveryDialog::refresh()
{
    m_adapter->clear();
    m_adapters.clear();
    Result<std::vector<LocalAdapter>> adapters = FabricSession::localAdapters();
    m_error->setVisible(!adapters);
    m_error->setText(adapters ? QString() : adapters.error().toString());
    if (adapters)
        m_adapters = std::move(adapters).value();
    for (const LocalAdapter &adapter : m_adapters)
        m_adapter->addItem(adapter.name, adapter.name);
    fillPorts();
    for (QAbstractButton *button : m_buttons->buttons())
        if (m_buttons->buttonRole(button) == QDialogButtonBox::AcceptRole)
            button->setEnabled(!m_adapters.empty());
}

void DiscoveryDialog::fillPorts()
{
    m_port->clear();
    const int index = m_adapter->currentIndex();
    if (index < 0 || std::size_t(index) >= m_adapters.size())
        return;
    m_port->addItem(tr("First active port"), 0);
    for (const LocalAdapterPort &port : m_adapters[std::size_t(index)].ports)
        m_port->addItem(port.active ? tr("Port %1 (active, LID %2)").arg(port.number).arg(port.lid)
                                    : tr("Port %1 (not active)").arg(port.number),
                        port.number);
}

QString DiscoveryDialog::adapterName() const
{
    // The first adapter is the tools' default; naming it changes nothing, but says which it was.
    return m_adapter->currentData().toString();
}

int DiscoveryDialog::adapterPort() const
{
    return m_port->currentData().toInt();
}

QString DiscoveryDialog::errorText() const
{
    return m_error->text();
}

}  // namespace weft
