#pragma once
// libibmad ports for every part of weft_live that sends MADs (SMPs, SA queries, performance
// GMPs). libumad keeps process-wide state (its device list, the registered agents), and the
// desk reads port counters on one thread while it discovers on another: every port is opened
// and closed under the one lock here, after a check that says plainly why none can be opened.
// Internal to weft_live.
#include "LiveFabric.h"
#include "Result.h"

#include <infiniband/mad.h>

#include <QString>
#include <QStringList>

#include <initializer_list>
#include <memory>
#include <mutex>

namespace weft {

// Held while opening or closing a MAD port or reading libumad's device list.
std::mutex &umadMutex();

// The local adapters' names; an Error saying why there are none. The caller holds umadMutex().
Result<QStringList> adapterNames();
// Done when options.caName is empty or names an adapter that exists. The caller holds umadMutex().
Status checkAdapter(const LiveOptions &options);
// "mlx5_0 port 1", "the first adapter": the adapter `options` ask for, for messages.
QString adapterText(const LiveOptions &options);

struct MadPortCloser
{
    void operator()(ibmad_port *port) const;  // closes under umadMutex()
};
using MadPortHandle = std::unique_ptr<ibmad_port, MadPortCloser>;

// A port for the management classes given, with options' timeout and retries; libibmad's own
// error lines are silenced (failures become Error values naming the adapter).
Result<MadPortHandle> openMadPort(const LiveOptions &options, std::initializer_list<int> classes);

}  // namespace weft
