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

/// Files a `base:` chain may hold, the file that starts it included: far
/// more than layering engine, platform and experiment needs, and a bound on
/// the loader's recursion (one stack frame per file).
inline constexpr size_t kMaxBaseDepth = 32;

class ConfigBuilder {
public:
    /// Applies a YAML config file (nested maps or dotted keys), after the
    /// chain of files its `base:` key names (relative to it; a cycle or a
    /// chain of more than kMaxBaseDepth files throws).
    void apply_file(const std::string& path);
    /// Applies a platform file as apply_file() does, refusing (at its file
    /// and line) any key that is not a platform key (platform_keys.h).
    void apply_platform_file(const std::string& path);
    /// Applies an already parsed YAML map; `file` names it in errors.
    void apply_yaml(const YAML::Node& map, const std::string& file);
    /// Applies one "KEY=VALUE" assignment from the command line.
    void apply_set(const std::string& assignment);
    /// Applies one value given as text (times on cycle keys are converted
    /// at clock_mhz, and again whenever clock_mhz changes; one that is not
    /// whole at the final clock is reported by validate()). Throws
    /// ConfigError naming the key for a value the key does not take.
    void apply(const std::string& key, const std::string& text, const Location& where);

    /// Runs the cross-key checks (a time on a cycle key not whole at the
    /// final clock is the first); throws ConfigError naming the offending key.
    void validate() const;

    const tb::SimConfig& config() const { return config_; }

    /// Where the one of `keys` set last was set (a check involving several
    /// keys names the value that broke it: a --set over a file, a file over
    /// its base:), or the default of the first if none was set.
    Location origin(const std::vector<std::string>& keys) const;
    /// Throws ConfigError with `message`, naming origin(keys) (and listing
    /// them), unless `ok`.
    void require(bool ok, const std::vector<std::string>& keys, const std::string& message) const;

private:
    void apply_node(const std::string& prefix, const YAML::Node& map, const std::string& file,
                    std::map<std::string, Location>& seen);
    void set_cycles_from_time(const KeyDef& key);
    /// Throws the first time that is not a whole number of cycles at the clock.
    void check_times() const;

    /// A cycle key given as a time, kept so a later clock_mhz reconverts it.
    struct TimeValue {
        std::string text;
        double ns;
        std::string problem;  ///< why it does not convert at the current clock, or empty
    };

    tb::SimConfig config_;
    /// Where a key was set last, and when (in order of assignment).
    struct Origin {
        Location where;
        uint64_t order;
    };
    std::map<std::string, Origin> origin_;
    uint64_t assignments_ = 0;
    std::map<std::string, TimeValue> times_;
    std::vector<std::string> reading_;  ///< files whose base: chain is being read
    bool platform_only_ = false;        ///< reading a platform file
};

/// Throws ConfigError (with a did-you-mean) unless `name` is a config key.
const KeyDef& known_key(const std::string& name, const Location& where);

/// A file that `config_file` names (a path key's value), relative to its
/// folder ("" for the working directory), as an absolute path.
std::string path_from(const std::string& config_file, const std::string& path);

/// The config file a `section:` node (`base:`, `platform:`) names,
/// relative to the file holding it; throws ConfigError at the node if it
/// is not a path to an existing file.
std::string config_path_at(const YAML::Node& node, const std::string& including_file,
                           const std::string& section = "base");

/// Loads the files left to right (a later file overrides an earlier one),
/// then the platform file if one is given (its keys override the files'),
/// then each --set assignment, and validates the result.
ConfigBuilder build_config(const std::vector<std::string>& paths,
                           const std::vector<std::string>& sets, const std::string& platform = "");
ConfigBuilder build_config(const std::string& path, const std::vector<std::string>& sets);

/// build_config(), for callers that need only the config.
tb::SimConfig load_config(const std::vector<std::string>& paths,
                          const std::vector<std::string>& sets, const std::string& platform = "");
tb::SimConfig load_config(const std::string& path, const std::vector<std::string>& sets);

}  // namespace dmasim::sim
