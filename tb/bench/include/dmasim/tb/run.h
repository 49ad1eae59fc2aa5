// run.h - runs one simulation: a SimConfig (sim_config.h) in, its
// RunResult out, with the optional outputs RunOptions names.
#pragma once

#include <dmasim/tb/sim_config.h>

#include <cstdint>
#include <optional>
#include <string>

namespace dmasim::tb {

/// MiB the trace and the VCD may grow to unless told otherwise (`--trace-max-mib`).
constexpr uint64_t kDefaultTraceMaxMib = 256;

/// Where optional outputs go (empty = not written) and how long a run may last.
struct RunOptions {
    std::string trace_path;         ///< Chrome trace-event JSON (Perfetto)
    std::string vcd_path;           ///< SystemC VCD of busy/interrupt signals
    uint64_t trace_from_cycle = 0;  ///< trace only [from, to)
    uint64_t trace_to_cycle = UINT64_MAX;
    uint64_t trace_max_bytes = kDefaultTraceMaxMib << 20;  ///< the trace stops growing here
    /// The simulation stops here with an error if the scenario has not finished.
    uint64_t max_sim_cycles = kDefaultMaxSimCycles;
    /// VCD of each channel's master port as AXI handshakes (bus.kind axi)
    std::string vcd_axi_path;
    bool trace_flows = false;  ///< the Chrome trace links each descriptor's slices
};

/// Elaborates the platform, runs the configured scenario to completion and
/// measures it. Call at most once per process (SystemC elaborates once).
/// Throws ConfigError for runs that cannot be set up.
RunResult run_simulation(const SimConfig& config, const RunOptions& options = {});

/// Host bytes a run of `config` needs, the estimate run_simulation()
/// checks before it starts (docs/timing-model.md), so a caller that runs
/// several at once (`dmasim sweep -j N`) can add them up.
uint64_t host_bytes_needed(const SimConfig& config);

/// Bytes the host can still give a process (MemAvailable, lowered by a
/// cgroup v2 memory.max); none if neither can be read.
std::optional<uint64_t> host_bytes_available();

}  // namespace dmasim::tb
