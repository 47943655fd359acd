#include "LiveRead.h"

#include "IntentRouting.h"

#include "LiveCommitBackend.h"
#include "PKeyTables.h"
#include "PartitionsConf.h"

namespace weft {

namespace {

const QString kCancelled = QStringLiteral("cancelled");

}  // namespace

Result<LiveState> readLiveState(const LiveOptions &givenOptions, const QString &partitionsConf, const LiveReadProgress &progress,
                                const std::atomic_bool *cancel)
{
    LiveOptions options = givenOptions;
    const auto cancelled = [cancel] { return cancel && cancel->load(); };
    const auto step = [&](const QString &name) {
        if (progress)
            progress(name, 0, 0);
        options.progress = [progress, cancelled, name](int done, int total) {
            if (progress)
                progress(name, done, total);
            return !cancelled();
        };
    };
    const auto stopped = [&](const Error &error) -> Error { return cancelled() ? Error{{}, 0, kCancelled} : error; };

    step(QStringLiteral("Discovering the fabric"));
    Result<Fabric> fabric = discoverFabric(options);
    if (!fabric || cancelled())
        return stopped(fabric ? Error{} : fabric.error());
    LiveState state;
    state.fabric = std::make_shared<const Fabric>(std::move(*fabric));
    step(QStringLiteral("Reading the forwarding tables"));
    Result<ForwardingTables> tables = readForwardingTables(*state.fabric, options);
    if (!tables || cancelled())
        return stopped(tables ? Error{} : tables.error());
    step(QStringLiteral("Reading the P_Key tables"));
    Result<PKeyTables> pkeys = readPKeyTables(*state.fabric, options);
    if (!pkeys || cancelled())
        return stopped(pkeys ? Error{} : pkeys.error());
    step(QStringLiteral("Finding the subnet manager"));
    const Result<Guid> sm = findMasterSmPort(*state.fabric, options);
    if (cancelled())
        return stopped({});
    state.held.smPort = sm ? *sm : 0;
    if (!sm)
        state.smPortProblem = sm.error().toString();
    state.partitions = partitionsHeld(*state.fabric, *pkeys);
    // The tables hold no names: those of the partitions.conf OpenSM is given.
    if (!partitionsConf.isEmpty())
        if (const Result<PartitionsConfResult> named = readPartitionsConfFile(partitionsConf))
            nameAfter(state.partitions, named->partitions);
    state.held.lfts = std::make_shared<const ForwardingTables>(std::move(*tables));
    state.held.pkeys = std::make_shared<const PKeyTables>(std::move(*pkeys));
    return state;
}

CommitBackend liveAccess(const LiveOptions &options)
{
    CommitBackend backend = liveCommitBackend(options);
    backend.routeIntent = routeIntentFile;  // a plugin-mode target's tables, as OpenSM's engine routes its intent
    return backend;
}

}  // namespace weft
