// sweep_memory.cc - see sweep_memory.h.
#include "sweep_memory.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <numeric>

namespace dmasim::sim {
namespace {

std::string gib(uint64_t bytes) { return fmt::format("{:.1f} GiB", bytes / double(1ull << 30)); }

}  // namespace

std::string host_memory_at_once_error(const HostMemory& host,
                                      const std::vector<const tb::SimConfig*>& configs,
                                      unsigned jobs) {
    if (!host.needed || !host.available || configs.empty()) return {};
    const auto available = host.available();
    if (!available) return {};
    std::vector<uint64_t> needs;
    for (const tb::SimConfig* config : configs) needs.push_back(host.needed(*config));
    const size_t at_once = std::min<size_t>(std::max(1u, jobs), needs.size());
    std::partial_sort(needs.begin(), needs.begin() + at_once, needs.end(), std::greater<>());
    const uint64_t total = std::accumulate(needs.begin(), needs.begin() + at_once, uint64_t{0});
    if (total <= *available) return {};
    return fmt::format(
        "{} points at once need about {} of host memory ({} x up to {} per point, the largest "
        "points of the sweep) but {} is available: lower -j or shrink the points",
        at_once, gib(total), at_once, gib(needs.front()), gib(*available));
}

}  // namespace dmasim::sim
