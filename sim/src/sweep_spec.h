// sweep_spec.h - a sweep file (docs/sweeps.md): base config, fixed overrides and
// the axes whose cross product gives the points.
#pragma once

#include <dmasim/tb/sim_config.h>
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "config_error.h"

namespace dmasim::sim {

class ConfigBuilder;

/// One key set to one value (as text), and where the sweep file says so.
struct Assignment {
    std::string key;
    std::string text;
    Location where;
};

/// One dimension of the cross product: a single swept key, or a zip group
/// whose keys step together. steps[i] holds one assignment per key.
struct SweepAxis {
    std::vector<std::string> keys;
    std::vector<std::vector<Assignment>> steps;
    bool zipped = false;
};

/// The swept "key" of a `base:` that lists several configs: an axis whose
/// values are the configs' names (file stems), each point starting from its
/// own file, with `set:` and the other axes on top.
inline constexpr const char* kBaseAxis = "base";

struct SweepSpec {
    std::string file;
    std::string base;  ///< config file the points start from (a base axis: its first)
    /// A base axis's files by name (file stem); empty without one.
    std::map<std::string, std::string> base_files;
    /// A platform file applied over every point's base (`platform:`), or empty.
    std::string platform;
    YAML::Node set;  ///< fixed overrides applied to every point (may be null)
    /// `sweep --set KEY=VALUE` assignments, applied after `set:`.
    std::vector<std::string> cli_sets;
    std::vector<SweepAxis> axes;

    /// Swept keys in axis order (zip groups contribute all their keys).
    std::vector<std::string> swept_keys() const;
    size_t point_count() const;
    /// The values of point `index` (0-based; the last axis varies fastest).
    std::vector<Assignment> point_values(size_t index) const;
    /// The config file a point with `values` starts from.
    const std::string& base_of(const std::vector<Assignment>& values) const;
};

/// --max-points when not given: a day of points at about a second each.
inline constexpr uint64_t kDefaultMaxPoints = 100000;

/// Parses and checks a sweep file: sections, keys, every value's type and
/// range, and that it has at most `max_points` points (found before any
/// axis is built past that). `default_base` is used when the file names
/// no `base:`. Throws ConfigError (exit 2) naming the file and line.
SweepSpec load_sweep(const std::string& path, const std::string& default_base,
                     uint64_t max_points = kDefaultMaxPoints);

/// A point of the sweep, resolved; `skipped` explains why it cannot run
/// (a cross-key check failed), empty if it can.
struct SweepPoint {
    size_t index = 0;
    std::string id;  ///< content hash naming its files (sweep_identity.h)
    std::vector<Assignment> values;
    tb::SimConfig config;
    std::string skipped;
};

/// The config every point starts from: the base file (a base axis: the
/// first) with the platform file and `set:` applied.
tb::SimConfig common_config(const SweepSpec& spec);

/// A check of a whole config beyond ConfigBuilder::validate() (the
/// executable adds the scenario's); throws ConfigError.
using PointCheck = std::function<void(const ConfigBuilder&)>;

/// Resolves every point. Errors in the base config or `set:` throw, and so
/// does a failed check that involves no swept key (it would fail every
/// point alike); a point that fails a check on a swept key (a time on a
/// cycle key that is not whole at a swept clock_mhz included) is returned
/// with `skipped` set.
std::vector<SweepPoint> expand_sweep(const SweepSpec& spec, const PointCheck& check = {});

/// --shard K/N: runs the points with index mod N == K - 1.
struct Shard {
    size_t k = 1;
    size_t n = 1;
    bool contains(size_t index) const { return index % n == k - 1; }
};

/// Parses "K/N" with 1 <= K <= N; throws ConfigError otherwise.
Shard parse_shard(const std::string& text);

}  // namespace dmasim::sim
