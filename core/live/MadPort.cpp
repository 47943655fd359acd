#include "MadPort.h"

#include <infiniband/umad.h>

#include <algorithm>
#include <vector>

namespace weft {

std::mutex &umadMutex()
{
    static std::mutex mutex;
    return mutex;
}

// (umad_get_cas_names is no use here: with no device it still names a default one.)
Result<QStringList> adapterNames()
{
    if (umad_init() < 0)
        return Error{{}, 0, QStringLiteral("cannot use umad (InfiniBand user MAD access): is the ib_umad module loaded?")};
    umad_device_node *devices = umad_get_ca_device_list();
    if (!devices)
        return Error{{}, 0, QStringLiteral("no InfiniBand adapter found on this host (none under /sys/class/infiniband, "
                                           "or the ib_umad module is not loaded)")};
    QStringList found;
    for (const umad_device_node *d = devices; d; d = d->next)
        found << QString::fromLocal8Bit(d->ca_name);
    umad_free_ca_device_list(devices);
    return found;
}

Status checkAdapter(const LiveOptions &options)
{
    Result<QStringList> names = adapterNames();
    if (!names)
        return names.error();
    const QStringList &found = *names;
    if (options.caName.isEmpty() || found.contains(options.caName))
        return Done{};
    return Error{{}, 0, QStringLiteral("no InfiniBand adapter named \"%1\" (found: %2)").arg(options.caName, found.join(QStringLiteral(", ")))};
}

QString adapterText(const LiveOptions &options)
{
    const QString name = options.caName.isEmpty() ? QStringLiteral("the first adapter") : options.caName;
    return options.caPort > 0 ? QStringLiteral("%1 port %2").arg(name).arg(options.caPort) : name;
}

void MadPortCloser::operator()(ibmad_port *port) const
{
    std::lock_guard<std::mutex> lock(umadMutex());
    mad_rpc_close_port(port);
}

Result<MadPortHandle> openMadPort(const LiveOptions &options, std::initializer_list<int> classes)
{
    std::lock_guard<std::mutex> lock(umadMutex());
    if (Status s = checkAdapter(options); !s)
        return Error{{}, 0, QStringLiteral("cannot open a MAD port on %1: %2").arg(adapterText(options), s.error().message)};
    std::vector<int> wanted(classes);
    QByteArray ca = options.caName.toLocal8Bit();
    madrpc_show_errors(0);
    ibmad_port *port = mad_rpc_open_port(ca.isEmpty() ? nullptr : ca.data(), options.caPort, wanted.data(), int(wanted.size()));
    if (!port)
        return Error{{}, 0, QStringLiteral("cannot open a MAD port on %1 (no permission on /dev/infiniband/umad*?)").arg(adapterText(options))};
    mad_rpc_set_timeout(port, std::max(1, options.timeoutMs));
    mad_rpc_set_retries(port, std::max(0, options.retries));
    return MadPortHandle(port);
}

}  // namespace weft
