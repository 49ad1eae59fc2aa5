// config_loader.h - builds a SimConfig from YAML files, YAML nodes and
// --set assignments, remembering where each key was set so that errors
// (including cross-key checks) can name the file and line.
#pragma once

#include <yaml-cpp/yaml.h>

#include <map>
#include <string>
#include <vector>

#include "config_error.h"
#include "config_keys.h"

namespace dmasim::sim {

class ConfigBuilder {
public:
    /// Applies a YAML config file (nested maps or dotted keys).
    void apply_file(const std::string& path);
    /// Applies an already parsed YAML map; `file` names it in errors.
    void apply_yaml(const YAML::Node& map, const std::string& file);
    /// Applies one "KEY=VALUE" assignment from the command line.
    void apply_set(const std::string& assignment);
    /// Applies one value given as text.
    void apply(const std::string& key, const std::string& text, const Location& where);

    /// Runs the cross-key checks; throws ConfigError naming the offending key.
    void validate() const;

    const tb::SimConfig& config() const { return config_; }

    /// Where the first of `keys` that was set explicitly was set (a check
    /// involving several keys names the one the user wrote).
    Location origin(const std::vector<std::string>& keys) const;

private:
    void apply_node(const std::string& prefix, const YAML::Node& map, const std::string& file,
                    std::map<std::string, Location>& seen);

    tb::SimConfig config_;
    std::map<std::string, Location> origin_;
};

/// Throws ConfigError (with a did-you-mean) unless `name` is a config key.
const KeyDef& known_key(const std::string& name, const Location& where);

/// Loads `path`, then each --set assignment, and validates the result.
ConfigBuilder build_config(const std::string& path, const std::vector<std::string>& sets);

/// build_config(), for callers that need only the config.
tb::SimConfig load_config(const std::string& path, const std::vector<std::string>& sets);

}  // namespace dmasim::sim
