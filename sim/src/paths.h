// paths.h - files dmasim finds relative to its own executable (installed
// or in a build tree) or the source tree, never the current directory.
#pragma once

#include <string>

namespace dmasim::sim {

/// Absolute path of the running executable.
std::string self_exe();

/// configs/default.yaml; throws std::runtime_error if none is found.
std::string default_config_path();

/// sim/plot/dmasim_plot.py; throws std::runtime_error if none is found.
std::string plot_script_path();

}  // namespace dmasim::sim
