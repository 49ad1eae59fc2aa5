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

/// What the scenario's traits (tb::ScenarioTrait) rule out.
void check_scenario_fits(const ConfigBuilder& builder) {
    const auto& w = builder.config().workload;
    const auto& dma = builder.config().platform.dma;
    const unsigned traits = tb::ScenarioRegistry::instance().find(w.scenario)->traits;
    auto require = [&builder](bool ok, std::initializer_list<const char*> keys,
                              const std::string& message) {
        if (!ok) throw ConfigError(builder.origin(keys), message);
    };
    require(w.payload == tb::Payload::checked || !(traits & tb::kChecksMemory),
            {"workload.payload", "workload.scenario"},
            fmt::format("workload.payload = none leaves scenario {} nothing to check (it checks "
                        "memory contents): use workload.payload = checked",
                        w.scenario));
    // The engine stops a list beyond its limits with CHAIN_LOOP; refuse it
    // now rather than after simulating, unless the scenario means to.
    if (traits & tb::kInjectsErrors) return;
    require(w.chain_depth - 1 <= dma.max_chain_depth,
            {"workload.chain_depth", "dma.max_chain_depth"},
            fmt::format("workload.chain_depth = {} makes {} chain links, more than "
                        "dma.max_chain_depth = {}: the engine would stop with CHAIN_LOOP; "
                        "raise dma.max_chain_depth or lower workload.chain_depth",
                        w.chain_depth, w.chain_depth - 1, dma.max_chain_depth));
    require(w.entries <= dma.max_descriptors, {"workload.entries", "dma.max_descriptors"},
            fmt::format("workload.entries = {} descriptors are more than "
                        "dma.max_descriptors = {}: the engine would stop with CHAIN_LOOP; "
                        "raise dma.max_descriptors or shorten the list",
                        w.entries, dma.max_descriptors));
}

}  // namespace

int run_command(const RunCommand& c) {
    const ConfigBuilder builder =
        build_config(c.config.empty() ? default_config_path() : c.config, c.sets);
    check_scenario(builder);
    check_scenario_fits(builder);
    const tb::SimConfig& config = builder.config();

    const auto start = std::chrono::steady_clock::now();
    const tb::RunResult result = tb::run_simulation(config, {c.trace, c.vcd});
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
