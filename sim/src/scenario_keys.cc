// scenario_keys.cc - one config key per declared scenario parameter, with
// the same typing, range checks, docs and did-you-mean as built-in keys.
#include "scenario_keys.h"

#include <dmasim/tb/scenario.h>

#include "config_keys.h"

namespace dmasim::sim {
namespace {

KeyDef param_key(const tb::ScenarioParam& p) {
    KeyDef k;
    k.name = p.key();
    k.type = p.integer ? KeyType::integer : KeyType::real;
    k.unit = p.unit;
    k.description = p.description;
    k.int_min = static_cast<uint64_t>(p.min);
    k.int_max = static_cast<uint64_t>(p.max);
    k.real_min = p.min;
    k.real_max = p.max;
    const std::string key = k.name;
    const double fallback = p.default_value;
    const bool integer = p.integer;
    k.get = [key, fallback, integer](const tb::SimConfig& c) {
        auto it = c.scenario_params.find(key);
        const double v = it == c.scenario_params.end() ? fallback : it->second;
        return integer ? Value{static_cast<uint64_t>(v)} : Value{v};
    };
    k.set = [key, integer](tb::SimConfig& c, const Value& v) {
        c.scenario_params[key] =
            integer ? static_cast<double>(std::get<uint64_t>(v)) : std::get<double>(v);
    };
    return k;
}

}  // namespace

std::vector<std::string> register_scenario_keys() {
    const auto& registry = tb::ScenarioRegistry::instance();
    std::vector<KeyDef> keys;
    for (const auto& param : registry.params()) keys.push_back(param_key(param));
    add_config_keys(std::move(keys));
    return registry.errors();
}

}  // namespace dmasim::sim
