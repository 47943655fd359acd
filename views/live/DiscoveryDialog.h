#pragma once
// Fabric > Discover: which local adapter and port to discover through. The adapters are those
// libibumad lists (FabricSession::localAdapters); the defaults are the diagnostic tools' (the first adapter, its first active
// port), so accepting the dialog as it opens discovers what `ibnetdiscover` would.

#include "LocalAdapters.h"

#include <QDialog>

#include <vector>

class QComboBox;
class QDialogButtonBox;
class QLabel;

namespace weft {

class DiscoveryDialog : public QDialog
{
    Q_OBJECT

public:
    explicit DiscoveryDialog(QWidget *parent = nullptr);

    // The adapter and port chosen; the first adapter's name and port 0 (its first active port)
    // for the defaults.
    QString adapterName() const;
    int adapterPort() const;
    // Lists the adapters again (done once on construction); the error, if any, is shown.
    void refresh();
    QString errorText() const;

private:
    void fillPorts();

    std::vector<LocalAdapter> m_adapters;
    QComboBox *m_adapter;
    QComboBox *m_port;
    QLabel *m_error;
    QDialogButtonBox *m_buttons;
};

}  // namespace weft
