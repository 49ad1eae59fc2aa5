// sweep_memory.h - will -j N points at once fit in the host's memory? Each
// point checks its own need when it starts, against what is free then;
// N running together need N times as much, checked before any starts.
#pragma once

#include <dmasim/tb/sim_config.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dmasim::sim {

/// The testbench's estimates (dmasim_cli does not link it): host bytes a
/// point needs, and what the host has. Unset: nothing is checked.
struct HostMemory {
    std::function<uint64_t(const tb::SimConfig&)> needed;
    std::function<std::optional<uint64_t>()> available;
};

/// Why `configs`, run `jobs` at a time, will not fit in host memory (the
/// `jobs` largest needs added up), or empty.
std::string host_memory_at_once_error(const HostMemory& host,
                                      const std::vector<const tb::SimConfig*>& configs,
                                      unsigned jobs);

}  // namespace dmasim::sim
