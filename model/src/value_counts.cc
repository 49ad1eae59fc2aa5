// value_counts.cc - see value_counts.h.
#include <dmasim/model/value_counts.h>

#include <algorithm>
#include <cmath>

namespace dmasim::model {

void ValueCounts::add_slow(uint32_t v) {
    if (v >= kDenseLimit) {
        ++sparse_[v];
        return;
    }
    // Doubling keeps growth amortised while latencies creep upwards.
    const size_t size = std::max<size_t>(v + 1, 2 * dense_.size());
    dense_.resize(std::min<size_t>(size, kDenseLimit));
    ++dense_[v];
}

uint64_t ValueCounts::max() const {
    if (!sparse_.empty()) return sparse_.rbegin()->first;
    for (size_t v = dense_.size(); v-- > 0;)
        if (dense_[v]) return v;
    return 0;
}

uint64_t ValueCounts::percentile(double p) const {
    if (count_ == 0) return 0;
    const auto rank = static_cast<uint64_t>(std::ceil(p / 100.0 * count_));
    const uint64_t wanted = std::clamp<uint64_t>(rank, 1, count_);
    uint64_t seen = 0, found = 0;
    bool done = false;
    for_each([&](uint64_t v, uint64_t n) {
        if (done) return;
        seen += n;
        if (seen >= wanted) {
            found = v;
            done = true;
        }
    });
    return found;
}

}  // namespace dmasim::model
