// cli.h - the dmasim command line: subcommands run, sweep, advise, merge,
// plot and config, and the mapping of errors to exit status (docs/cli.md):
// 0 success, 1 simulation error, 2 bad usage or bad config.
#pragma once

#include <string>
#include <vector>

namespace dmasim::sim {

int cli_main(int argc, char* argv[]);

/// `dmasim run`'s options.
struct RunCommand {
    std::vector<std::string> configs;  ///< layered left to right; none: configs/default.yaml
    std::string platform;              ///< platform file over the configs, or empty
    std::vector<std::string> sets;
    std::string report;
    std::string trace;
    std::string vcd;
    std::string vcd_axi;
    bool trace_flows = false;
    std::string trace_window;  ///< "FROM:TO" in cycles; empty = the whole run
    uint64_t trace_max_mib = 0;   ///< set from tb::kDefaultTraceMaxMib
    uint64_t max_sim_cycles = 0;  ///< set from tb::kDefaultMaxSimCycles
    bool quiet = false;
};

/// Loads and checks the config, simulates, prints and writes the report.
/// Returns 0, or 1 if the integrity check failed; throws on errors.
int run_command(const RunCommand& command);

}  // namespace dmasim::sim
