// scenario_rules.cc - the one place a config is judged against its
// scenario: the shared rules a scenario's traits select (declared with the
// testbench's other rules, validate.h), then its own check (scenario.h).
#include <dmasim/tb/scenario.h>
#include <dmasim/tb/validate.h>

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
    return scenario.check ? scenario.check(config) : std::nullopt;
}

}  // namespace dmasim::tb
