// host_memory.h - will a run fit in the host's memory? Checked before the
// simulated RAM is touched, so a list too large for the machine is an
// exit-2 error naming the keys that drive it, not an OOM kill (rc 137).
#pragma once

#include <dmasim/tb/run.h>
#include <sglist/scatterlist.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dmasim::tb {

/// Host bytes a run touches: every page of the buffers of `lists` (the
/// workloads its scenario holds at once, ScenarioInfo::lists; simulated
/// RAM is reserved lazily, so only touched pages count; payload none
/// touches none, and packed buffers share pages), their page descriptors
/// and scatterlist entries, and a fixed allowance for the process itself.
uint64_t host_bytes_needed(const std::vector<WorkloadConfig>& lists);

/// Bytes the host can still give this process: MemAvailable, lowered by a
/// cgroup v2 memory.max; none if neither can be read.
std::optional<uint64_t> host_bytes_available();

/// Backs the pages under a list's buffers with host memory now,
/// MADV_POPULATE_WRITE on each run of contiguous pages, up to IOV_MAX runs
/// per system call (process_madvise), instead of a fault per page when the
/// buffers are first filled. Only the buffers: the other
/// frames a transfer holds (descriptor chunks, whose blocks may have pages
/// no slot uses) keep being backed as they are touched. On a kernel without
/// MADV_POPULATE_WRITE the pages are faulted in by the fill as before.
void populate_buffers(const sg_table& sgt);

/// Why `config`, whose scenario holds `lists` at once, will not fit in
/// host memory, or empty.
std::string host_memory_error(const SimConfig& config, const std::vector<WorkloadConfig>& lists);

}  // namespace dmasim::tb
