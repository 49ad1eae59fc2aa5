// cmd_run.cpp - `dmasim run`: one simulation in this process.
#include <dmasim/tb/scenario.h>
#include <fmt/format.h>

#include <chrono>

#include "cli.h"
#include "config_loader.h"
#include "paths.h"
#include "report.h"
#include "signals.h"
#include "suggest.h"

namespace dmasim::sim {
namespace {

/// Scenarios are compiled into tb/, so the names are only known here.
void check_scenario(const ConfigBuilder& builder) {
    const auto& registry = tb::ScenarioRegistry::instance();
    const std::string& name = builder.config().workload.scenario;
    if (registry.find(name)) return;
    auto names = registry.names();
    auto guess = closest_match(name, names);
    throw ConfigError(
        builder.origin({"workload.scenario"}),
        fmt::format("unknown scenario '{}'{} (known: {})", name,
                    guess ? ", did you mean " + *guess + "?" : "", fmt::join(names, ", ")));
}

/// A result must never be lost after a long simulation: every output path
/// is checked before elaboration (exit 2 naming the option and why).
void check_outputs(const RunCommand& c) {
    const std::pair<const char*, const std::string&> outputs[] = {
        {"--report", c.report}, {"--trace", c.trace}, {"--vcd", c.vcd}};
    for (const auto& [option, path] : outputs) {
        if (path.empty()) continue;
        if (std::string why = tb::unwritable(path); !why.empty())
            throw tb::ConfigError(fmt::format("{} {}: {}", option, path, why));
    }
}

}  // namespace

int run_command(const RunCommand& c) {
    exit_cleanly_on_signals();
    const ConfigBuilder builder =
        build_config(c.config.empty() ? default_config_path() : c.config, c.sets);
    check_scenario(builder);
    check_outputs(c);
    const tb::SimConfig& config = builder.config();

    const auto start = std::chrono::steady_clock::now();
    const tb::RunResult result = tb::run_simulation(config, {c.trace, c.vcd, c.max_sim_cycles});
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    if (!c.report.empty())
        write_file_atomically(c.report, make_report(config, result, wall).dump(2) + "\n");
    if (!c.quiet) fmt::print("{}", summary_text(config, result, wall));
    if (result.leaked_pages > 0)
        fmt::print(stderr, "dmasim: warning: {} simulated page frames were not freed\n",
                   result.leaked_pages);
    if (!result.integrity) {
        fmt::print(stderr, "dmasim: integrity check failed: {}\n", result.failure);
        return 1;
    }
    return 0;
}

}  // namespace dmasim::sim
