#include "EbbBottlenecks.h"

namespace weft {

std::vector<EbbBottleneck> topEbbBottlenecks(const EbbResult &result, int count)
{
    std::vector<EbbBottleneck> top;
    const double sampled = double(result.samples) * double(result.streamsPerSample);
    for (const EbbChannel &channel : result.channels) {
        if (int(top.size()) >= count)
            break;
        if (channel.bottleneckStreams == 0)
            continue;
        top.push_back({channel.from, channel.bottleneckStreams, sampled > 0 ? double(channel.bottleneckStreams) / sampled : 0.0,
                       channel.meanCongestion});
    }
    return top;
}

}  // namespace weft
