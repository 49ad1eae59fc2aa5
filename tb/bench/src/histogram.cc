// histogram.cc - see histogram.h.
#include "histogram.h"

#include <map>

namespace dmasim::tb {

Histogram make_histogram(std::string name, std::string unit, const model::ValueCounts& values) {
    Histogram h;
    h.name = std::move(name);
    h.unit = std::move(unit);
    h.count = values.count();
    if (h.count == 0) return h;
    h.p50 = values.percentile(50);
    h.p90 = values.percentile(90);
    h.p99 = values.percentile(99);
    h.max = values.max();
    std::map<uint64_t, uint64_t> by_bucket;  // lower bound -> count; 0 holds only 0
    values.for_each([&by_bucket](uint64_t v, uint64_t n) {
        uint64_t from = v == 0 ? 0 : 1;
        while (from * 2 <= v) from *= 2;
        by_bucket[from] += n;
    });
    for (const auto& [from, count] : by_bucket)
        h.buckets.push_back({from, from ? from * 2 : 1, count});
    return h;
}

}  // namespace dmasim::tb
