// cmd_run.cpp - `dmasim run`: one simulation in this process.
#include <fmt/format.h>

#include <chrono>

#include "cli.h"
#include "config_loader.h"
#include "paths.h"
#include "report.h"
#include "scenario_check.h"

namespace dmasim::sim {

int run_command(const RunCommand& c) {
    const ConfigBuilder builder =
        build_config(c.configs.empty() ? std::vector{default_config_path()} : c.configs, c.sets);
    check_scenario(builder);
    const tb::SimConfig& config = builder.config();

    const auto start = std::chrono::steady_clock::now();
    const tb::RunResult result = tb::run_simulation(config, {c.trace, c.vcd});
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // The summary comes first: if an output cannot be written, the
    // simulated result has still reached the terminal.
    if (!c.quiet) fmt::print("{}", summary_text(config, result, wall));
    std::vector<std::string> unwritten = result.output_errors;
    if (!c.report.empty()) try {
            write_file_atomically(c.report, make_report(config, result, wall).dump(2) + "\n");
        } catch (const std::exception& e) {
            unwritten.push_back(fmt::format("report: {}", e.what()));
        }
    if (result.leaked_pages > 0)
        fmt::print(stderr, "dmasim: warning: {} simulated page frames were not freed\n",
                   result.leaked_pages);
    for (const auto& why : unwritten)
        fmt::print(stderr, "dmasim: error: output not written after the run: {}\n", why);
    if (!result.integrity) {
        fmt::print(stderr, "dmasim: integrity check failed: {}\n", result.failure);
        return 1;
    }
    return unwritten.empty() ? 0 : 1;
}

}  // namespace dmasim::sim
