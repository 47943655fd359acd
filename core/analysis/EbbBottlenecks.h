#pragma once
// The links that limit the most streams of an eBB run (EffectiveBisection.h), with the share of
// the sampled streams each limits: what the map highlights (View ▸ Show eBB Bottlenecks).

#include "EffectiveBisection.h"

#include <cstdint>
#include <vector>

namespace weft {

struct EbbBottleneck
{
    PortIndex from = kNoIndex;  // the directed channel: the port it leaves by
    std::uint64_t streams = 0;  // streams it limited, over all samples (EbbChannel::bottleneckStreams)
    double share = 0;           // of all sampled streams (samples × streams per sample), 0..1
    double meanCongestion = 0;
};

// The first `count` channels of `result` that limited at least one stream, in the result's order
// (most often limiting first, then by mean congestion).
std::vector<EbbBottleneck> topEbbBottlenecks(const EbbResult &result, int count = 10);

}  // namespace weft
