// The setups `weft bench results` builds its rows on: fabrics from the generator, partitions,
// flows, and the seeded draws, shared by the per-seed sections (Headline*.cpp).

#include "HeadlineSetups.h"

#include "EffectiveBisection.h"
#include "PartitionAwareFatTree.h"
#include "RoutingEngine.h"

#include <algorithm>

namespace weft::cli::headline {

// A uniform draw below `bound` from mt19937_64 by our own mapping (the standard distributions
// differ between libraries; the raw engine does not).
std::uint64_t draw(std::mt19937_64 &random, std::uint64_t bound)
{
    return random() % bound;
}

// `count` of `items` picked without replacement, in their original order.
std::vector<int> pick(std::vector<int> items, int count, std::mt19937_64 &random)
{
    for (std::size_t i = items.size(); i > 1; --i)
        std::swap(items[i - 1], items[std::size_t(draw(random, i))]);
    items.resize(std::size_t(count));
    std::sort(items.begin(), items.end());
    return items;
}

Result<GeneratedFabric> xgftFabric(const QString &spec, bool hypervisors, int vfs)
{
    Result<XgftShape> shape = parseXgft(spec);
    if (!shape)
        return shape.error();
    GeneratorOptions options;
    options.shape = FabricShapeKind::Xgft;
    options.xgft = *shape;
    options.hypervisors = hypervisors;
    options.vfsPerHypervisor = vfs;
    return generateFabric(options);
}

Result<GeneratedFabric> radixFabric(int radix, int levels, int removeLinks, bool hypervisors, int vfs)
{
    GeneratorOptions options;
    options.shape = FabricShapeKind::SwitchRadix;
    options.radix = radix;
    options.levels = levels;
    options.removeRandomLinks = removeLinks;
    options.seed = 1;
    options.hypervisors = hypervisors;
    options.vfsPerHypervisor = vfs;
    return generateFabric(options);
}

PortIndex hostPort(const GeneratedFabric &g, int host)
{
    return g.fabric.portOf(g.hosts[std::size_t(host)], 1);
}

Partition fullPartition(const QString &name, std::uint16_t pkey, IsolationPolicy policy, const GeneratedFabric &g,
                        const std::vector<int> &hosts)
{
    Partition p;
    p.name = name;
    p.pkey = pkey;
    p.policy = policy;
    p.defaultMembership = Membership::Full;
    for (int h : hosts) {
        PartitionMember m;
        m.guid = g.fabric.port(hostPort(g, h)).guid;
        m.membership = Membership::Full;
        m.explicitMembership = true;
        p.members.push_back(m);
    }
    return p;
}

// pFTree as the paper's baseline (Algorithm::Base), pFTree-Ext as `weft route --engine pftree`.
Result<Routing> routeWith(const QString &engine, const Fabric &fabric, const Tenancy &tenancy)
{
    if (engine == QLatin1String("pftree-base")) {
        PartitionAwareFatTreeEngine base(PartitionAwareFatTreeEngine::Algorithm::Base);
        if (Status s = base.prepare(fabric, tenancy, {}); !s)
            return s.error();
        return base.route({});
    }
    return routeFabric(engine, fabric, tenancy);
}

// Σ of the rates of flows [0, count) when all `flows` run together, or with `slowest` the
// least of them (what an all-to-all waits for).
Result<double> rateOfFirst(const Fabric &fabric, const ForwardingTables &tables, const std::vector<FluidFlow> &flows,
                           std::size_t count, bool slowest)
{
    Result<FluidThroughput> r = fluidThroughput(fabric, tables, flows);
    if (!r)
        return r.error();
    double sum = 0;
    double least = count ? r->rates[0] : 0;
    for (std::size_t i = 0; i < count; ++i) {
        sum += r->rates[i];
        least = std::min(least, r->rates[i]);
    }
    return slowest ? least : sum;
}

std::vector<FluidFlow> allToAll(const GeneratedFabric &g, const std::vector<int> &hosts)
{
    std::vector<FluidFlow> flows;
    flows.reserve(hosts.size() * hosts.size());
    for (int a : hosts)
        for (int b : hosts)
            if (a != b)
                flows.push_back({hostPort(g, a), hostPort(g, b), 1});
    return flows;
}

Result<double> paperEbb(const Fabric &fabric, const ForwardingTables &tables, int samples, const std::vector<Guid> &participants)
{
    EbbModel model;
    model.linkRates = false;
    model.participants = participants;
    Result<EffectiveBisection> prepared = EffectiveBisection::prepare(fabric, tables, {}, model);
    if (!prepared)
        return prepared.error();
    EbbRun run;
    run.samples = samples;
    run.threads = 2;
    Result<EbbResult> r = prepared->run(run);
    if (!r)
        return r.error();
    return r->mean;
}

}  // namespace weft::cli::headline
