// paths.h - files dmasim finds relative to its own executable (installed
// or in a build tree) or the source tree, never the current directory.
#pragma once

#include <string>

namespace dmasim::sim {

/// Records the install prefix a dmasim executable built outside the tree
/// (dmasim_add_scenarios(), docs/scenarios.md) finds its files under;
/// called from a static initialiser that CMake function generates.
bool use_install_prefix(const char* prefix);

/// Absolute path of the running executable.
std::string self_exe();

/// configs/default.yaml; throws std::runtime_error if none is found.
std::string default_config_path();

/// sim/plot/dmasim_plot.py; throws std::runtime_error if none is found.
std::string plot_script_path();

}  // namespace dmasim::sim
