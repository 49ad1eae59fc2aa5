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
    if (!scenario->check) return;
    if (auto refusal = scenario->check(builder.config()))
        throw ConfigError(builder.origin(refusal->keys), refusal->why, refusal->keys);
}

}  // namespace dmasim::sim
