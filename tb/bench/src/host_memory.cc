// host_memory.cc - see host_memory.h.
#include "host_memory.h"

#include <fmt/format.h>
#include <sglist/mm.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <fstream>
#include <string>
#include <utility>

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

/// Bytes of `runs` the kernel backed in one process_madvise call: any
/// advice is taken for the calling process since Linux 6.13. 0 if it failed.
size_t populate_in_one_call(const iovec* runs, size_t count) {
#if defined(SYS_pidfd_open) && defined(SYS_process_madvise)
    static const int self = static_cast<int>(syscall(SYS_pidfd_open, getpid(), 0));
    if (self < 0) return 0;
    const long done = syscall(SYS_process_madvise, self, runs, count, MADV_POPULATE_WRITE, 0);
    return done < 0 ? 0 : static_cast<size_t>(done);
#else
    return 0;
#endif
}

/// Pages [first, second) of host memory.
using PageRun = std::pair<uintptr_t, uintptr_t>;

/// Joins [begin, end) to the last of `runs` if it starts inside or right
/// after it, else appends it.
void add_run(std::vector<PageRun>& runs, uintptr_t begin, uintptr_t end) {
    if (!runs.empty() && begin >= runs.back().first && begin <= runs.back().second)
        runs.back().second = std::max(runs.back().second, end);
    else
        runs.emplace_back(begin, end);
}

/// The page runs under a list's segments in address order, adjacent ones
/// joined: scattered placement puts the segments of a pages list at random,
/// so in list order each was a run (and a system call) of its own.
std::vector<PageRun> page_runs(const sg_table& sgt) {
    std::vector<PageRun> in_list_order, runs;
    scatterlist* sg;
    unsigned i;
    for_each_sgtable_sg(&sgt, sg, i) {
        // Packed segments share pages and follow each other: they extend one run.
        const auto begin = reinterpret_cast<uintptr_t>(page_address(sg_page(sg)));
        add_run(in_list_order, begin, begin + PAGE_ALIGN(uint64_t{sg->offset} + sg->length));
    }
    std::sort(in_list_order.begin(), in_list_order.end());
    for (const auto& [begin, end] : in_list_order) add_run(runs, begin, end);
    return runs;
}

/// Backs `runs`, IOV_MAX a system call; on an older kernel (or a partial
/// answer) one madvise a run. Failing both, the fills fault the pages in.
void populate(const std::vector<PageRun>& runs) {
    std::vector<iovec> batch;
    for (size_t first = 0; first < runs.size(); first += IOV_MAX) {
        const size_t count = std::min<size_t>(IOV_MAX, runs.size() - first);
        size_t bytes = 0;
        batch.clear();
        for (size_t i = first; i < first + count; ++i) {
            batch.push_back(
                {reinterpret_cast<void*>(runs[i].first), runs[i].second - runs[i].first});
            bytes += batch.back().iov_len;
        }
        if (populate_in_one_call(batch.data(), count) == bytes) continue;
        for (const iovec& run : batch) madvise(run.iov_base, run.iov_len, MADV_POPULATE_WRITE);
    }
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

void populate_buffers(const sg_table& sgt) { populate(page_runs(sgt)); }

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
