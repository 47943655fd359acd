#include "NodeWeights.h"

#include <algorithm>

namespace weft {

std::vector<double> weightsFromReceiveBandwidth(const std::vector<double> &bandwidth, double a, double b)
{
    std::vector<double> weights(bandwidth.size(), a);
    if (bandwidth.empty())
        return weights;
    const auto [lo, hi] = std::minmax_element(bandwidth.begin(), bandwidth.end());
    const double span = *hi - *lo;
    if (span <= 0.0)
        return weights;
    for (std::size_t i = 0; i < bandwidth.size(); ++i)
        weights[i] = (bandwidth[i] - *lo) * (b - a) / span + a;
    return weights;
}

}  // namespace weft
