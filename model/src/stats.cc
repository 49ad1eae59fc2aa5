// stats.cc - see stats.h.
#include <dmasim/model/stats.h>

#include <algorithm>
#include <cmath>

namespace dmasim::model {

uint64_t percentile(std::vector<uint32_t> values, double p) {
    if (values.empty()) return 0;
    // Nearest rank: the smallest value with at least p% of values at or below it.
    const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * values.size()));
    const size_t index = std::clamp<size_t>(rank, 1, values.size()) - 1;
    std::nth_element(values.begin(), values.begin() + index, values.end());
    return values[index];
}

}  // namespace dmasim::model
