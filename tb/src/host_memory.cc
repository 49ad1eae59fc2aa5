// host_memory.cc - see host_memory.h.
#include "host_memory.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace dmasim::tb {
namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kPageDescriptorBytes = 64;    ///< sglist's struct page per frame
constexpr uint64_t kEntryBytes = 256;            ///< scatterlist entries, descriptors, bookkeeping
constexpr uint64_t kProcessBytes = 64ull << 20;  ///< SystemC, the model, the binary

uint64_t largest_segment(const WorkloadConfig& w) {
    return w.distribution == SizeDistribution::fixed ? w.segment_bytes : w.segment_bytes_max;
}

std::optional<uint64_t> mem_available() {
    std::ifstream in("/proc/meminfo");
    for (std::string key; in >> key;) {
        uint64_t kib = 0;
        if (key == "MemAvailable:" && in >> kib) return kib * 1024;
        in.ignore(4096, '\n');
    }
    return std::nullopt;
}

/// Room left under this process's cgroup v2 limit, if it has one.
std::optional<uint64_t> cgroup_room() {
    uint64_t max = 0, current = 0;
    std::ifstream limit("/sys/fs/cgroup/memory.max"), used("/sys/fs/cgroup/memory.current");
    if (!(limit >> max) || !(used >> current)) return std::nullopt;  // "max": no limit
    return max > current ? max - current : 0;
}

std::string gib(uint64_t bytes) { return fmt::format("{:.1f} GiB", bytes / double(1ull << 30)); }

}  // namespace

uint64_t host_bytes_needed(const std::vector<WorkloadConfig>& lists) {
    uint64_t bytes = kProcessBytes;
    for (const WorkloadConfig& w : lists) {
        const uint64_t buffers = w.direction == Direction::mem_to_mem ? 2 : 1;
        const uint64_t pages_per_entry = (w.offset + largest_segment(w) + kPage - 1) / kPage;
        const uint64_t pages = w.entries * pages_per_entry * buffers;
        bytes += pages * (kPage + kPageDescriptorBytes) + w.entries * buffers * kEntryBytes;
    }
    return bytes;
}

std::optional<uint64_t> host_bytes_available() {
    const auto available = mem_available();
    const auto room = cgroup_room();
    if (available && room) return std::min(*available, *room);
    return available ? available : room;
}

std::string host_memory_error(const SimConfig& config, const std::vector<WorkloadConfig>& lists) {
    const auto available = host_bytes_available();
    const uint64_t needed = host_bytes_needed(lists);
    if (!available || needed <= *available) return {};
    return fmt::format(
        "this run needs about {} of host memory but {} is available: its buffers are "
        "workload.entries = {} x workload.segment_bytes (up to {} bytes each){}{}; shrink them",
        gib(needed), gib(*available), config.workload.entries, largest_segment(config.workload),
        config.workload.direction == Direction::mem_to_mem ? ", twice for mem_to_mem" : "",
        lists.size() > 1 ? fmt::format(", in {} lists held at once by workload.scenario = {}",
                                       lists.size(), config.workload.scenario)
                         : "");
}

}  // namespace dmasim::tb
