// registry.cc - scenarios and their parameters by name (see scenario.h).
#include <dmasim/tb/scenario.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace dmasim::tb {

std::string ScenarioParam::key() const { return fmt::format("scenario.{}.{}", scenario, name); }

ScenarioRegistry& ScenarioRegistry::instance() {
    static ScenarioRegistry registry;
    return registry;
}

ScenarioInfo& ScenarioRegistry::entry(std::string_view name) {
    auto it = std::find_if(scenarios_.begin(), scenarios_.end(),
                           [&](const ScenarioInfo& s) { return s.name == name; });
    if (it != scenarios_.end()) return *it;
    ScenarioInfo info;
    info.name = name;
    scenarios_.push_back(std::move(info));
    return scenarios_.back();
}

void ScenarioRegistry::add_run(std::string_view name, ScenarioRun run, const char* file) {
    ScenarioInfo& info = entry(name);
    // Two files defining one name would otherwise be settled by link order.
    if (info.run)
        errors_.push_back(
            fmt::format("scenario '{}' is defined twice: in {} and in {}", name, info.file, file));
    info.run = run;
    info.file = file;
}

void ScenarioRegistry::add_setup(std::string_view name, ScenarioSetup setup) {
    entry(name).setup = setup;
}

void ScenarioRegistry::add_check(std::string_view name, ScenarioCheck check, unsigned traits) {
    ScenarioInfo& info = entry(name);
    info.check = check;
    info.traits |= traits;
}

void ScenarioRegistry::add_traits(std::string_view name, unsigned traits) {
    entry(name).traits |= traits;
}

void ScenarioRegistry::add_footprint(std::string_view name, ScenarioFootprint footprint) {
    entry(name).footprint = footprint;
}

std::vector<WorkloadConfig> ScenarioInfo::lists(const SimConfig& config) const {
    return footprint ? footprint(config) : std::vector{config.workload};
}

namespace {

/// Whole numbers a double holds exactly: an integer parameter's values are
/// kept as doubles (SimConfig::scenario_params).
constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53

/// What is wrong with a declared parameter, as a config key row must be
/// (a usable range holding its default, numbers only, documented), or "".
std::string param_problem(const ScenarioParam& p) {
    if (!p.unit || !p.description || !*p.description)
        return "has no description (every config key is documented)";
    for (const auto& [what, v] :
         {std::pair{"default", p.default_value}, {"minimum", p.min}, {"maximum", p.max}}) {
        if (!std::isfinite(v)) return fmt::format("has a {} of {}, not a finite number", what, v);
        if (p.integer && v != std::floor(v))
            return fmt::format("is a whole number but has a {} of {}", what, v);
    }
    if (p.min > p.max)
        return fmt::format("has an empty range {} .. {} (the minimum is above the maximum)", p.min,
                           p.max);
    if (p.default_value < p.min || p.default_value > p.max)
        return fmt::format("has a default of {} outside its range {} .. {}", p.default_value, p.min,
                           p.max);
    if (p.integer && (p.min < 0 || p.max > kMaxExactInteger))
        return fmt::format(
            "is a whole number with the range {} .. {}, outside 0 .. 2^53 (whole-number keys are "
            "unsigned and kept exactly as doubles)",
            p.min, p.max);
    return {};
}

}  // namespace

void ScenarioRegistry::add_param(const ScenarioParam& param) {
    if (find_param(param.key()))
        errors_.push_back(fmt::format("scenario parameter {} is declared twice", param.key()));
    // Refused at start: every run of the binary, every sweep point, would
    // otherwise fail on the parameter's own declaration.
    if (std::string why = param_problem(param); !why.empty())
        errors_.push_back(fmt::format("scenario {}: parameter {} (DMASIM_SCENARIO_PARAM) {}",
                                      param.scenario, param.key(), why));
    entry(param.scenario).params.push_back(param);
}

const ScenarioInfo* ScenarioRegistry::find(std::string_view name) const {
    auto it = std::find_if(scenarios_.begin(), scenarios_.end(),
                           [&](const ScenarioInfo& s) { return s.name == name && s.run; });
    return it == scenarios_.end() ? nullptr : &*it;
}

std::vector<std::string> ScenarioRegistry::names() const {
    std::vector<std::string> out;
    for (const ScenarioInfo& s : scenarios_)
        if (s.run) out.push_back(s.name);
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<ScenarioParam> ScenarioRegistry::params() const {
    std::vector<ScenarioParam> out;
    for (const auto& name : names()) {
        const auto& declared = find(name)->params;
        out.insert(out.end(), declared.begin(), declared.end());
    }
    return out;
}

const ScenarioParam* ScenarioRegistry::find_param(std::string_view key) const {
    for (const ScenarioInfo& s : scenarios_)
        for (const ScenarioParam& p : s.params)
            if (p.key() == key) return &p;
    return nullptr;
}

double ScenarioBench::param(std::string_view name) const {
    const std::string key = fmt::format("scenario.{}.{}", config().workload.scenario, name);
    if (auto it = config().scenario_params.find(key); it != config().scenario_params.end())
        return it->second;
    const ScenarioParam* declared = ScenarioRegistry::instance().find_param(key);
    if (!declared) throw std::logic_error(fmt::format("{} is not a declared parameter", key));
    return declared->default_value;
}

}  // namespace dmasim::tb
