// advise.h - `dmasim advise`: which knob, moved one step, would save the
// most cycles. The configuration runs as it is, then once per knob whose
// row has a what-if step (model/param_rows.h, tb/workload_rows.h), each
// run a `dmasim run` child, N at a time. A step that breaks a config rule
// with this configuration is not run; the others are ranked per group
// (engine, platform, driver/workload) by cycles saved (advice.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sweep_memory.h"
#include "sweep_spec.h"

namespace dmasim::sim {

struct AdviseRequest {
    std::vector<std::string> configs;  ///< layered left to right
    std::string platform;              ///< --platform FILE over the configs, or empty
    std::vector<std::string> sets;     ///< --set KEY=VALUE, after the configs
    std::string json;                  ///< --json OUT, or empty
    std::string dmasim_exe;            ///< the binary each run uses
    unsigned jobs = 1;
    uint64_t max_sim_cycles = tb::kDefaultMaxSimCycles;  ///< passed to every run
    PointCheck check;  ///< run on the configuration and every step besides validate()
    HostMemory host;   ///< -j runs at once must fit in it
};

/// Runs the what-ifs, prints the ranked knobs and writes --json. Returns
/// 0, 1 if a what-if's run failed, or 128 + signal if interrupted.
/// Throws ConfigError for a bad configuration or output path (exit 2) and
/// std::runtime_error if the configuration itself fails to run (exit 1).
int run_advise(const AdviseRequest& request);

}  // namespace dmasim::sim
