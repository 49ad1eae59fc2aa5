// histogram.cc - see histogram.h.
#include "histogram.h"

#include <dmasim/model/stats.h>

#include <algorithm>
#include <map>

namespace dmasim::tb {

Histogram make_histogram(std::string name, std::string unit, const std::vector<uint32_t>& values) {
    Histogram h;
    h.name = std::move(name);
    h.unit = std::move(unit);
    h.count = values.size();
    if (values.empty()) return h;
    h.p50 = model::percentile(values, 50);
    h.p90 = model::percentile(values, 90);
    h.p99 = model::percentile(values, 99);
    h.max = *std::max_element(values.begin(), values.end());
    std::map<uint64_t, uint64_t> by_bucket;  // lower bound -> count; 0 holds only 0
    for (uint32_t v : values) {
        uint64_t from = v == 0 ? 0 : 1;
        while (from * 2 <= v) from *= 2;
        by_bucket[from] += 1;
    }
    for (const auto& [from, count] : by_bucket)
        h.buckets.push_back({from, from ? from * 2 : 1, count});
    return h;
}

}  // namespace dmasim::tb
