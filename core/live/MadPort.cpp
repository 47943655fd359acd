#include "MadPort.h"

#include <infiniband/umad.h>

#include <QtGlobal>

#include <dlfcn.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

namespace weft {

namespace {

constexpr int kManagementClasses = 256;  // libibmad's MAX_CLASS: its class-to-agent table

// What libibumad refused this thread last: a port (its result and the errno of the failed
// open) or an agent (the class and the errno of the failed registration).
struct UmadRefusal
{
    enum class Kind : std::uint8_t { None, OpenPort, RegisterAgent };
    Kind kind = Kind::None;
    int result = 0;
    int error = 0;
    int mgmtClass = 0;
};
thread_local UmadRefusal t_refusal;

// The agents registered on each umad port of this process, kept by the stand-ins for libibumad
// at the end of this file so that closing a port unregisters them all (see there why). Used
// under umadMutex() only.
class AgentLedger
{
public:
    void registered(int fd, int agent) { m_agents[fd].push_back(agent); }

    void unregistered(int fd, int agent)
    {
        const auto found = m_agents.find(fd);
        if (found == m_agents.end())
            return;
        std::vector<int> &agents = found->second;
        agents.erase(std::remove(agents.begin(), agents.end(), agent), agents.end());
        if (agents.empty())
            m_agents.erase(found);
    }

    // The port's agents, no longer noted: the caller unregisters them and closes the port.
    std::vector<int> take(int fd)
    {
        std::vector<int> agents;
        if (const auto found = m_agents.find(fd); found != m_agents.end()) {
            agents = std::move(found->second);
            m_agents.erase(found);
        }
        return agents;
    }

    // A port just opened has this number: anything noted under it belonged to a port closed
    // without umad_close_port, and its agent numbers may be another port's by now.
    void forget(int fd) { m_agents.erase(fd); }

private:
    std::unordered_map<int, std::vector<int>> m_agents;
};

AgentLedger &agentLedger()
{
    static AgentLedger ledger;
    return ledger;
}

// `Function` is deduced from the stand-in of the same name, whose type is libibumad's.
template <class Function>
Function libibumadDefinition(Function, const char *name)
{
    void *found = dlsym(RTLD_NEXT, name);
    if (!found)
        qFatal("weft_live: libibumad's %s not found (%s)", name, dlerror());
    return reinterpret_cast<Function>(found);
}

// libibumad's own definitions of what this file stands in for.
struct Libibumad
{
    decltype(&::umad_open_port) openPort = libibumadDefinition(&::umad_open_port, "umad_open_port");
    decltype(&::umad_close_port) closePort = libibumadDefinition(&::umad_close_port, "umad_close_port");
    decltype(&::umad_register) registerAgent = libibumadDefinition(&::umad_register, "umad_register");
    decltype(&::umad_register_oui) registerOuiAgent = libibumadDefinition(&::umad_register_oui, "umad_register_oui");
    decltype(&::umad_unregister) unregisterAgent = libibumadDefinition(&::umad_unregister, "umad_unregister");
};

const Libibumad &libibumad()
{
    static const Libibumad functions;
    return functions;
}

// After libibumad registered an agent (`agent` >= 0) or refused to; errno is kept for the caller.
int noteRegistration(int fd, int mgmtClass, int agent)
{
    const int error = errno;
    if (agent >= 0)
        agentLedger().registered(fd, agent);
    else
        t_refusal = {UmadRefusal::Kind::RegisterAgent, agent, error, mgmtClass};
    errno = error;
    return agent;
}

QString managementClassText(int mgmtClass)
{
    const QString number = QStringLiteral("management class 0x%1").arg(mgmtClass, 2, 16, QLatin1Char('0'));
    switch (mgmtClass) {
    case IB_SMI_CLASS: return number + QStringLiteral(" (subnet management)");
    case IB_SMI_DIRECT_CLASS: return number + QStringLiteral(" (directed-route subnet management)");
    case IB_SA_CLASS: return number + QStringLiteral(" (subnet administration)");
    case IB_PERFORMANCE_CLASS: return number + QStringLiteral(" (performance management)");
    default: return number;
    }
}

QString openRefusalText(const UmadRefusal &refusal, const LiveOptions &options)
{
    switch (-refusal.result) {
    case EOPNOTSUPP: return QStringLiteral("the kernel's user MAD interface is missing (is the ib_umad module loaded?)");
    case ENODEV:
        return options.caPort > 0 ? QStringLiteral("the adapter has no InfiniBand port %1").arg(options.caPort)
                                  : QStringLiteral("the adapter has no InfiniBand port that is active or up");
    case EINVAL:
        return QStringLiteral("the adapter has no umad device for %1").arg(options.caPort > 0 ? QStringLiteral("port %1").arg(options.caPort) : QStringLiteral("the port chosen"));
    case EIO: break;  // open() of the device failed: its errno says why
    default: return QStringLiteral("its umad device could not be opened (%1)").arg(qt_error_string(-refusal.result));
    }
    switch (refusal.error) {
    case EACCES:
    case EPERM:
        return QStringLiteral("no permission to open its umad device (/dev/infiniband/umad*): run as root or get read-write "
                              "access to the device");
    case ENOENT:
    case ENXIO:
    case ENODEV: return QStringLiteral("its umad device under /dev/infiniband does not exist (is the ib_umad module loaded?)");
    case EMFILE:
    case ENFILE: return QStringLiteral("too many files are open to open its umad device");
    default: return QStringLiteral("its umad device could not be opened (%1)").arg(qt_error_string(refusal.error));
    }
}

QString registerRefusalText(const UmadRefusal &refusal)
{
    const QString what = QStringLiteral("no agent could be registered for %1").arg(managementClassText(refusal.mgmtClass));
    const QString why = qt_error_string(refusal.error);
    switch (refusal.error) {
    case ENOMEM:
    case ENOSPC: return QStringLiteral("%1: the adapter's MAD agents are used up (%2)").arg(what, why);
    case EINVAL:
    case EBUSY:
    case EEXIST: return QStringLiteral("%1: the class is taken by another agent or not supported (%2)").arg(what, why);
    default: return QStringLiteral("%1 (%2)").arg(what, why);
    }
}

}  // namespace

std::recursive_mutex &umadMutex()
{
    static std::recursive_mutex mutex;
    return mutex;
}

static int openFileLimit()
{
    rlimit limit{};
    return getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY ? int(limit.rlim_cur) : -1;
}

// (umad_get_cas_names is no use here: with no device it still names a default one.)
Result<QStringList> adapterNames()
{
    if (umad_init() < 0)
        return Error{{}, 0, QStringLiteral("cannot use umad (InfiniBand user MAD access): is the ib_umad module loaded?")};
    errno = 0;
    umad_device_node *devices = umad_get_ca_device_list();
    if (!devices && (errno == EMFILE || errno == ENFILE))
        return Error{{}, 0, QStringLiteral("cannot list the InfiniBand adapters: %1 (this process may open %2 files)").arg(qt_error_string(errno)).arg(openFileLimit())};
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

UmadRefusalWatch::UmadRefusalWatch()
{
    t_refusal = {};
}

QString UmadRefusalWatch::cause(const LiveOptions &options) const
{
    switch (t_refusal.kind) {
    case UmadRefusal::Kind::None: return {};
    case UmadRefusal::Kind::OpenPort: return openRefusalText(t_refusal, options);
    case UmadRefusal::Kind::RegisterAgent: return registerRefusalText(t_refusal);
    }
    return {};
}

void MadPortCloser::operator()(ibmad_port *port) const
{
    std::lock_guard<std::recursive_mutex> lock(umadMutex());
    // umad_close_port (below, in mad_rpc_close_port) would unregister them too; done here as well
    // so that Weft's own ports do not depend on libibmad's call reaching that definition.
    const int fd = mad_rpc_portid(port);
    for (int mgmtClass = 1; mgmtClass < kManagementClasses; ++mgmtClass)
        if (const int agent = mad_rpc_class_agent(port, mgmtClass); agent >= 0)
            umad_unregister(fd, agent);
    mad_rpc_close_port(port);
}

namespace {
std::atomic<int> g_madPortAttempts{0};
}  // namespace

int madPortAttempts()
{
    return g_madPortAttempts.load();
}

Result<MadPortHandle> openMadPort(const LiveOptions &options, std::initializer_list<int> classes)
{
    g_madPortAttempts.fetch_add(1);
    std::lock_guard<std::recursive_mutex> lock(umadMutex());
    if (Status s = checkAdapter(options); !s)
        return Error{{}, 0, QStringLiteral("cannot open a MAD port on %1: %2").arg(adapterText(options), s.error().message)};
    std::vector<int> wanted(classes);
    QByteArray ca = options.caName.toLocal8Bit();
    madrpc_show_errors(0);
    const UmadRefusalWatch refusals;
    errno = 0;
    ibmad_port *port = mad_rpc_open_port(ca.isEmpty() ? nullptr : ca.data(), options.caPort, wanted.data(), int(wanted.size()));
    if (!port) {
        QString cause = refusals.cause(options);
        if (cause.isEmpty()) {
            QStringList names;
            for (const int mgmtClass : wanted)
                names << managementClassText(mgmtClass);
            cause = QStringLiteral("libibmad could not open it for %1 (%2)").arg(names.join(QStringLiteral(", ")), qt_error_string(errno));
        }
        return Error{{}, 0, QStringLiteral("cannot open a MAD port on %1: %2").arg(adapterText(options), cause)};
    }
    mad_rpc_set_timeout(port, std::max(1, options.timeoutMs));
    mad_rpc_set_retries(port, std::max(0, options.retries));
    return MadPortHandle(port);
}

GmpEvent receiveGmpEvent(int fd, std::vector<std::uint8_t> &buffer, int waitMs, int dataOffset, int dataSize)
{
    GmpEvent event;
    int length = IB_MAD_SIZE;
    if (umad_recv(fd, buffer.data(), &length, std::max(1, waitMs)) < 0)
        return event;
    auto *mad = static_cast<std::uint8_t *>(umad_get_mad(buffer.data()));
    event.tid = std::uint32_t(mad_get_field64(mad, 0, IB_MAD_TRID_F));
    if (umad_status(buffer.data()) != 0) {
        event.kind = GmpEvent::Kind::Lost;  // our request, given back unanswered
        return event;
    }
    if (!mad_get_field(mad, 0, IB_MAD_RESPONSE_F))
        return GmpEvent{};  // a request to this port (a trap's repress, a query): not ours
    event.kind = GmpEvent::Kind::Answer;
    // A directed-route SMP's status word carries the direction bit on top.
    const bool directed = mad_get_field(mad, 0, IB_MAD_MGMTCLASS_F) == IB_SMI_DIRECT_CLASS;
    event.madStatus = int(mad_get_field(mad, 0, directed ? IB_DRSMP_STATUS_F : IB_MAD_STATUS_F));
    std::copy(mad + dataOffset, mad + dataOffset + dataSize, event.data.begin());
    return event;
}

}  // namespace weft

// Stand-ins for libibumad's umad_open_port, umad_register(_oui), umad_unregister and
// umad_close_port, so that no MAD agent outlives its port. The kernel's ib_umad frees every
// agent of a umad file when the file is closed, but ibsim's libumad2sim (the lab, the tests,
// `weft lab`) frees only one per closed file, of the 32 a simulated adapter has for the whole
// process. libibmad closes its ports without unregistering their agents, and libibnetdisc opens
// two such ports in every discovery, which Weft cannot change: each port with two classes leaked
// an agent, and after a few discoveries no port could be opened. So each agent is noted against
// its port when registered, and closing the port unregisters them first: right on both stacks
// (on the kernel's it is what the close does anyway). A refused open or registration is kept for
// UmadRefusalWatch, as libibmad and libibnetdisc report no cause. Each takes umadMutex(), so that
// libibnetdisc's ports are opened and closed under the same lock as Weft's own (libumad2sim
// changes its agent tables without a lock of its own when a port closes).
//
// These are the executable's definitions, exported (the linker exports them because libibmad
// and libibnetdisc refer to them; `nm -D weft` lists them), so the dynamic linker finds them
// before libibumad's for every caller in the process; they call libibumad's own, found with
// dlsym(RTLD_NEXT), and leave errno as it left it. (libumad2sim routes a class's answers to the
// port that registered the class last, and unregistering any agent of the class ends that
// routing: two ports of one class open at once were never served there; PortCounterReader keeps
// every query of a pass on one port.)
extern "C" {

__attribute__((visibility("default"))) int umad_open_port(const char *ca_name, int portnum)
{
    weft::g_madPortAttempts.fetch_add(1);
    std::lock_guard<std::recursive_mutex> lock(weft::umadMutex());
    const int fd = weft::libibumad().openPort(ca_name, portnum);
    const int error = errno;
    if (fd >= 0)
        weft::agentLedger().forget(fd);
    else
        weft::t_refusal = {weft::UmadRefusal::Kind::OpenPort, fd, error, 0};
    errno = error;
    return fd;
}

__attribute__((visibility("default"))) int umad_register(int portid, int mgmt_class, int mgmt_version, uint8_t rmpp_version,
                                                         long method_mask[16 / sizeof(long)])
{
    std::lock_guard<std::recursive_mutex> lock(weft::umadMutex());
    const int agent = weft::libibumad().registerAgent(portid, mgmt_class, mgmt_version, rmpp_version, method_mask);
    return weft::noteRegistration(portid, mgmt_class, agent);
}

__attribute__((visibility("default"))) int umad_register_oui(int portid, int mgmt_class, uint8_t rmpp_version, uint8_t oui[3],
                                                             long method_mask[16 / sizeof(long)])
{
    std::lock_guard<std::recursive_mutex> lock(weft::umadMutex());
    const int agent = weft::libibumad().registerOuiAgent(portid, mgmt_class, rmpp_version, oui, method_mask);
    return weft::noteRegistration(portid, mgmt_class, agent);
}

__attribute__((visibility("default"))) int umad_unregister(int portid, int agentid)
{
    std::lock_guard<std::recursive_mutex> lock(weft::umadMutex());
    const int result = weft::libibumad().unregisterAgent(portid, agentid);
    const int error = errno;
    weft::agentLedger().unregistered(portid, agentid);
    errno = error;
    return result;
}

__attribute__((visibility("default"))) int umad_close_port(int portid)
{
    std::lock_guard<std::recursive_mutex> lock(weft::umadMutex());
    for (const int agent : weft::agentLedger().take(portid))
        weft::libibumad().unregisterAgent(portid, agent);
    return weft::libibumad().closePort(portid);
}

// libibmad numbers transactions with a plain static counter, and libibnetdisc files the SMPs it
// has on the wire under those numbers. A counter pass on one thread and a discovery on another
// could be handed the same number, or set the counter back to numbers already on the wire, and
// libibnetdisc then freed an SMP twice (a double free in ibnd_discover_fabric, a few times in a
// thousand discoveries beside counter passes in the lab). This stand-in, which libibmad's own
// calls reach too, counts atomically from a random start (as libibmad does, so that a restarted
// process does not take a late answer meant for its predecessor as its own). Never 0: libibmad
// reads 0 as "none yet". Userland transaction IDs are 32 bits (the kernel puts the agent in the
// upper half).
__attribute__((visibility("default"))) uint64_t mad_trid(void)
{
    static std::atomic<std::uint32_t> last{std::random_device{}()};
    std::uint32_t next = 0;
    while (next == 0)
        next = last.fetch_add(1, std::memory_order_relaxed) + 1;
    return next;
}

}  // extern "C"
