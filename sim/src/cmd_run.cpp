// cmd_run.cpp - `dmasim run`: one simulation in this process.
#include <dmasim/tb/scenario.h>
#include <fmt/format.h>

#include <chrono>

#include "cli.h"
#include "config_loader.h"
#include "paths.h"
#include "report.h"
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

/// "FROM:TO" in cycles, either side optional; exit 2 naming the option.
tb::RunOptions run_options(const RunCommand& c) {
    tb::RunOptions o{c.trace, c.vcd};
    o.trace_max_bytes = c.trace_max_mib << 20;
    if (c.trace_window.empty()) return o;
    const Location where{"--trace-window"};
    const auto colon = c.trace_window.find(':');
    if (colon == std::string::npos)
        throw ConfigError(
            where, fmt::format("{}: expected FROM:TO in cycles, e.g. 10000:20000", c.trace_window));
    auto cycles = [&](const std::string& text, uint64_t fallback) {
        if (text.empty()) return fallback;
        const bool digits = text.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || text.size() > 19)
            throw ConfigError(where, fmt::format("{}: '{}' is not a cycle number (0 to 10^19)",
                                                 c.trace_window, text));
        return uint64_t{std::stoull(text)};
    };
    o.trace_from_cycle = cycles(c.trace_window.substr(0, colon), 0);
    o.trace_to_cycle = cycles(c.trace_window.substr(colon + 1), UINT64_MAX);
    if (o.trace_from_cycle >= o.trace_to_cycle)
        throw ConfigError(where, fmt::format("{}: FROM must be below TO", c.trace_window));
    return o;
}

}  // namespace

int run_command(const RunCommand& c) {
    const ConfigBuilder builder =
        build_config(c.config.empty() ? default_config_path() : c.config, c.sets);
    check_scenario(builder);
    const tb::SimConfig& config = builder.config();

    const auto start = std::chrono::steady_clock::now();
    const tb::RunResult result = tb::run_simulation(config, run_options(c));
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    if (!c.report.empty())
        write_file_atomically(c.report, make_report(config, result, wall).dump(2) + "\n");
    if (!c.quiet) fmt::print("{}", summary_text(config, result, wall));
    if (!result.trace_note.empty()) fmt::print(stderr, "dmasim: note: {}\n", result.trace_note);
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
