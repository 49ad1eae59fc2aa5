// registry.cc - scenarios by name (see scenario.h).
#include <dmasim/tb/scenario.h>

#include <algorithm>

namespace dmasim::tb {

ScenarioRegistry& ScenarioRegistry::instance() {
    static ScenarioRegistry registry;
    return registry;
}

ScenarioInfo& ScenarioRegistry::entry(std::string_view name) {
    auto it = std::find_if(scenarios_.begin(), scenarios_.end(),
                           [&](const ScenarioInfo& s) { return s.name == name; });
    if (it != scenarios_.end()) return *it;
    scenarios_.push_back(ScenarioInfo{std::string(name)});
    return scenarios_.back();
}

void ScenarioRegistry::add_run(std::string_view name, ScenarioRun run) { entry(name).run = run; }

void ScenarioRegistry::add_setup(std::string_view name, ScenarioSetup setup) {
    entry(name).setup = setup;
}

void ScenarioRegistry::add_check(std::string_view name, ScenarioCheck check) {
    entry(name).check = check;
}

void ScenarioRegistry::add_traits(std::string_view name, unsigned traits) {
    entry(name).traits |= traits;
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

}  // namespace dmasim::tb
