// scenario_keys.h - scenario parameters into the config key table. Only
// binaries that link the testbench (dmasim, the docs generator, tests)
// know the scenarios, so they call this at start-up.
#pragma once

#include <string>
#include <vector>

namespace dmasim::sim {

/// Adds a key scenario.<scenario>.<param> per declared parameter. Returns
/// the registry's mistakes (a scenario name defined in two files, ...);
/// callers refuse to start while there are any.
std::vector<std::string> register_scenario_keys();

}  // namespace dmasim::sim
