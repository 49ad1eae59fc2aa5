// scenario_check.h - the checks only the dmasim executable can make: it
// links the testbench, so it knows which scenarios exist and what each
// needs of the config.
#pragma once

#include "config_loader.h"

namespace dmasim::sim {

/// Throws ConfigError (naming the line that set the key) unless
/// workload.scenario names a compiled-in scenario whose own check accepts
/// the config. The error lists the keys involved (ConfigError::keys).
void check_scenario(const ConfigBuilder& builder);

}  // namespace dmasim::sim
