#pragma once
// libibmad ports for every part of weft_live that sends MADs (SMPs, SA queries, performance
// GMPs). libumad keeps process-wide state (its device list, the registered agents), and the
// desk reads port counters on one thread while it discovers on another: every port is opened
// and closed under the one lock here, after a check that says plainly why none can be opened.
//
// A port leaves no MAD agent behind when it closes, so that a desk can discover and commit for
// as long as it runs. That holds for the ports libibnetdisc opens inside a discovery too, and
// they are opened and closed under the same lock: MadPort.cpp stands in for libibumad's calls
// that open, register, unregister and close, and for libibmad's transaction counter, which two
// threads could not share (see there why). Internal to weft_live.
#include "GmpPipeline.h"
#include "LiveFabric.h"
#include "Result.h"

#include <infiniband/mad.h>

#include <QString>
#include <QStringList>

#include <initializer_list>
#include <memory>
#include <mutex>
#include <vector>

namespace weft {

// Held while opening, registering, unregistering or closing anything of libibumad's (the
// stand-ins in MadPort.cpp take it, so libibnetdisc's ports are opened under it too) or reading
// its device list. Recursive: Weft's own ports hold it around libibmad's calls, which reach the
// stand-ins.
std::recursive_mutex &umadMutex();

// How many times this process has tried to open a MAD port (Weft's own or libibnetdisc's through
// the stand-in for umad_open_port), whether or not it opened: a desk working through a fabric
// service (app/remote) must never try, and its test holds it to that.
int madPortAttempts();

// The local adapters' names; an Error saying why there are none. The caller holds umadMutex().
Result<QStringList> adapterNames();
// Done when options.caName is empty or names an adapter that exists. The caller holds umadMutex().
Status checkAdapter(const LiveOptions &options);
// "mlx5_0 port 1", "the first adapter": the adapter `options` ask for, for messages.
QString adapterText(const LiveOptions &options);

struct MadPortCloser
{
    // Unregisters the port's agents, then closes it, under umadMutex().
    void operator()(ibmad_port *port) const;
};
using MadPortHandle = std::unique_ptr<ibmad_port, MadPortCloser>;

// A port for the management classes given, with options' timeout and retries. When it cannot be
// opened the Error says why, naming the adapter: its umad device could not be opened (no
// permission, no such port, ib_umad not loaded) or an agent for a management class could not be
// registered (the adapter's agents used up, the class refused). libibmad still prints its own
// line about the failure on stderr; the Error does not depend on it.
Result<MadPortHandle> openMadPort(const LiveOptions &options, std::initializer_list<int> classes);

// Why libibumad refused this thread's last attempt to open a umad port or register an agent, in
// the words openMadPort uses; empty when nothing was refused since the watch began. For calls
// made inside libibmad and libibnetdisc (a discovery), which report no cause of their own.
class UmadRefusalWatch
{
public:
    UmadRefusalWatch();  // forgets what this thread was refused before
    QString cause(const LiveOptions &options) const;
};

// The next event on a GMP pipeline's umad file, for the readers that send through one (SMPs,
// port counters): an answer with its status (a directed-route SMP's without the direction bit)
// and `dataSize` bytes of data from `dataOffset`, a request of ours given back unanswered, or
// nothing within `waitMs` (at least 1: umad_recv would block at 0). `buffer` is the receive
// buffer, umad_size() + IB_MAD_SIZE bytes. Requests addressed to this port are not answers.
GmpEvent receiveGmpEvent(int fd, std::vector<std::uint8_t> &buffer, int waitMs, int dataOffset, int dataSize);

}  // namespace weft
