#pragma once
// Node weights learned from traffic (spec 000-pftree.md §2.6): after a measurement period the
// receive bandwidth of every node is mapped linearly onto the operator's weight range [a, b].

#include <vector>

namespace weft {

// The corrected Eq. 1: W(x) = (x - min B)(b - a)/(max B - min B) + a, so the least-receiving node
// gets a and the most-receiving b. (The paper prints (x - a) in place of (x - min B), which maps
// neither end where it should.) When every bandwidth is the same, every weight is a.
std::vector<double> weightsFromReceiveBandwidth(const std::vector<double> &bandwidth, double a, double b);

}  // namespace weft
