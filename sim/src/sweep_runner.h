// sweep_runner.h - `dmasim sweep`: every point in its own `dmasim run`
// child process, N at a time, then results.csv and plots.
#pragma once

#include <string>
#include <vector>

#include "sweep_memory.h"
#include "sweep_spec.h"

namespace dmasim::sim {

struct SweepOptions {
    std::string sweep_file;
    std::string out_dir;
    std::string default_config;  ///< base when the sweep file names none
    std::string dmasim_exe;      ///< the binary each point runs
    /// --set KEY=VALUE, fixed for every point.
    std::vector<std::string> sets;
    unsigned jobs = 1;
    uint64_t max_points = kDefaultMaxPoints;
    /// Forwarded to every point's `dmasim run --max-sim-cycles`.
    uint64_t max_sim_cycles = tb::kDefaultMaxSimCycles;
    Shard shard;
    bool resume = false;
    bool prune = false;  ///< remove files of points no longer in the sweep
    bool plot = true;
    PointCheck check;  ///< run on every point besides validate()
    HostMemory host;   ///< -j points at once must fit in it
};

/// Runs the sweep; returns 0 if every point ran, 1 if any failed.
/// Throws ConfigError for a bad sweep file (exit 2).
int run_sweep(const SweepOptions& options);

}  // namespace dmasim::sim
