// scenario_check.cc - see scenario_check.h.
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
        builder.require(
            false, {"workload.scenario"},
            fmt::format("unknown scenario '{}'{} (known: {})", excerpt(name),
                        guess ? ", did you mean " + *guess + "?" : "", fmt::join(names, ", ")));
        return;
    }
    if (auto refusal = tb::scenario_refusal(*scenario, builder.config()))
        builder.require(false, refusal->keys, refusal->why);
}

}  // namespace dmasim::sim
