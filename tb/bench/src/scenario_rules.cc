// scenario_rules.cc - the one place a config is judged against its
// scenario: the shared rules a scenario's traits select (declared with the
// testbench's other rules, validate.h), then its own check (scenario.h).
#include <dmasim/tb/scenario.h>
#include <dmasim/tb/validate.h>

#include "xfer_spec.h"

namespace dmasim::tb {
namespace {

std::optional<ScenarioRefusal> first_refusal(
    const std::vector<model::CheckedRule<SimConfig>>& rules, const SimConfig& config) {
    std::vector<model::ParamProblem> problems = model::check_rules(rules, config);
    if (problems.empty()) return std::nullopt;
    return ScenarioRefusal{std::move(problems.front().message), std::move(problems.front().keys)};
}

}  // namespace

std::optional<ScenarioRefusal> scenario_refusal(const ScenarioInfo& scenario,
                                                const SimConfig& config) {
    if (scenario.traits & kChecksMemory)
        if (auto refusal = first_refusal(memory_check_rules(), config)) return refusal;
    if (!(scenario.traits & kInjectsErrors))
        if (auto refusal = first_refusal(walk_limit_rules(), config)) return refusal;
    if (!(scenario.traits & kKeepsRing))
        if (auto refusal = first_refusal(ring_rules(), config)) return refusal;
    const bool replays = scenario.traits & kReplaysTraces;
    if (auto refusal = first_refusal(replays ? replay_rules() : trace_rules(), config))
        return refusal;
    if (scenario.check)
        if (auto refusal = scenario.check(config)) return refusal;
    // Every list it holds at once (validate() weighs the configured one),
    // once its own check has found them readable (a trace's, say).
    if (std::string why = iova_fit_error(config, scenario.lists(config)); !why.empty())
        return ScenarioRefusal{std::move(why), iova_fit_keys()};
    return std::nullopt;
}

}  // namespace dmasim::tb
