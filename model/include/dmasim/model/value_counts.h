// value_counts.h - how often each value occurred, for exact nearest-rank
// percentiles and histograms of per-descriptor figures without keeping
// every sample: a list of 16 Mi descriptors would otherwise hold 64 MiB of
// latencies (and copies of them to sort).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace dmasim::model {

class ValueCounts {
public:
    /// Counts one occurrence of `v`. Values below kDenseLimit (every
    /// latency of a steady pipeline) cost one array increment; rarer large
    /// ones go to a sorted map.
    void add(uint32_t v) {
        if (v < dense_.size())
            ++dense_[v];
        else
            add_slow(v);
        ++count_;
    }
    uint64_t count() const { return count_; }
    /// Largest value counted (0 when empty).
    uint64_t max() const;
    /// Nearest rank: the smallest value with at least p% of the values at
    /// or below it (0 when empty).
    uint64_t percentile(double p) const;
    /// Calls f(value, count) for every value counted, ascending.
    template <class F>
    void for_each(F f) const {
        for (size_t v = 0; v < dense_.size(); ++v)
            if (dense_[v]) f(uint64_t(v), dense_[v]);
        for (const auto& [v, n] : sparse_) f(uint64_t(v), n);
    }

    static constexpr uint32_t kDenseLimit = 1u << 16;  ///< 512 KiB of counts at most

private:
    void add_slow(uint32_t v);

    std::vector<uint64_t> dense_;          ///< count of value v at [v], grown on demand
    std::map<uint32_t, uint64_t> sparse_;  ///< values >= kDenseLimit
    uint64_t count_ = 0;
};

}  // namespace dmasim::model
