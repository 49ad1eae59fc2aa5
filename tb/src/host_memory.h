// host_memory.h - will a run fit in the host's memory? Checked before the
// simulated RAM is touched, so a list too large for the machine is an
// exit-2 error naming the keys that drive it, not an OOM kill (rc 137).
#pragma once

#include <dmasim/tb/run.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dmasim::tb {

/// Host bytes a run touches: every page of the buffers of `lists` (the
/// workloads its scenario holds at once, ScenarioInfo::lists; simulated
/// RAM is reserved lazily, so only touched pages count), their page
/// descriptors and scatterlist entries, and a fixed allowance for the
/// process itself.
uint64_t host_bytes_needed(const std::vector<WorkloadConfig>& lists);

/// Bytes the host can still give this process: MemAvailable, lowered by a
/// cgroup v2 memory.max; none if neither can be read.
std::optional<uint64_t> host_bytes_available();

/// Why `config`, whose scenario holds `lists` at once, will not fit in
/// host memory, or empty.
std::string host_memory_error(const SimConfig& config, const std::vector<WorkloadConfig>& lists);

}  // namespace dmasim::tb
