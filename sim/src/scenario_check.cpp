// scenario_check.cpp - see scenario_check.h.
#include "scenario_check.h"

#include <dmasim/tb/scenario.h>
#include <fmt/format.h>

#include "suggest.h"

namespace dmasim::sim {

void check_scenario(const ConfigBuilder& builder) {
    const auto& registry = tb::ScenarioRegistry::instance();
    const std::string& name = builder.config().workload.scenario;
    const tb::ScenarioInfo* scenario = registry.find(name);
    if (!scenario) {
        auto names = registry.names();
        auto guess = closest_match(name, names);
        throw ConfigError(
            builder.origin({"workload.scenario"}),
            fmt::format("unknown scenario '{}'{} (known: {})", name,
                        guess ? ", did you mean " + *guess + "?" : "", fmt::join(names, ", ")),
            {"workload.scenario"});
    }
    const auto& w = builder.config().workload;
    const auto& dma = builder.config().platform.dma;
    auto require = [&builder](bool ok, const std::vector<std::string>& keys,
                              const std::string& message) {
        if (!ok) throw ConfigError(builder.origin(keys), message, keys);
    };
    const unsigned traits = scenario->traits;
    require(w.payload == tb::Payload::checked || !(traits & tb::kChecksMemory),
            {"workload.payload", "workload.scenario"},
            fmt::format("workload.payload = none leaves scenario {} nothing to check (it checks "
                        "memory contents): use workload.payload = checked",
                        w.scenario));
    // The engine stops a list beyond its limits with CHAIN_LOOP; refuse it
    // now rather than after simulating, unless the scenario means to.
    if (!(traits & tb::kInjectsErrors)) {
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
    if (!scenario->check) return;
    if (auto refusal = scenario->check(builder.config()))
        throw ConfigError(builder.origin(refusal->keys), refusal->why, refusal->keys);
}

}  // namespace dmasim::sim
