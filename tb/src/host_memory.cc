// host_memory.cc - see host_memory.h.
#include "host_memory.h"

#include <fmt/format.h>
#include <sglist/mm.h>
#include <sys/mman.h>

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
    return w.distribution == DMASIM_SEG_FIXED ? w.segment_bytes : w.segment_bytes_max;
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

#ifndef MADV_POPULATE_WRITE
constexpr int MADV_POPULATE_WRITE = 23;  // Linux 5.14
#endif

void populate(uintptr_t begin, uintptr_t end) {
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
}

std::string gib(uint64_t bytes) { return fmt::format("{:.1f} GiB", bytes / double(1ull << 30)); }

}  // namespace

uint64_t host_bytes_needed(const std::vector<WorkloadConfig>& lists) {
    uint64_t bytes = kProcessBytes;
    for (const WorkloadConfig& w : lists) {
        const uint64_t buffers = w.direction == DMA_HW_MEM_TO_MEM ? 2 : 1;
        const uint64_t segment = w.offset + largest_segment(w);
        // packed: segments back to back, so frames follow the bytes (plus
        // one per buffer for the fragment block left partly used).
        const uint64_t frames_per_buffer = w.buffers == DMASIM_BUF_PACKED
                                               ? (w.entries * segment + kPage - 1) / kPage + 1
                                               : w.entries * ((segment + kPage - 1) / kPage);
        // payload none never touches a data frame: only its struct page counts.
        const uint64_t frame_bytes =
            kPageDescriptorBytes + (w.payload == Payload::checked ? kPage : 0);
        bytes += frames_per_buffer * buffers * frame_bytes + w.entries * buffers * kEntryBytes;
    }
    return bytes;
}

void populate_buffers(const sg_table& sgt) {
    uintptr_t run_begin = 0, run_end = 0;
    scatterlist* sg;
    unsigned i;
    for_each_sgtable_sg(&sgt, sg, i) {
        // Packed segments share pages and follow each other: they extend one run.
        const auto begin = reinterpret_cast<uintptr_t>(page_address(sg_page(sg)));
        const uintptr_t end = begin + PAGE_ALIGN(uint64_t{sg->offset} + sg->length);
        if (begin >= run_begin && begin <= run_end) {
            run_end = std::max(run_end, end);
            continue;
        }
        populate(run_begin, run_end);
        run_begin = begin;
        run_end = end;
    }
    populate(run_begin, run_end);
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
        config.workload.direction == DMA_HW_MEM_TO_MEM ? ", twice for mem_to_mem" : "",
        lists.size() > 1 ? fmt::format(", in {} lists held at once by workload.scenario = {}",
                                       lists.size(), config.workload.scenario)
                         : "");
}

}  // namespace dmasim::tb
