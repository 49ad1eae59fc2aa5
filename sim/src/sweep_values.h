// sweep_values.h - one value list of a sweep file: [a, b, ...],
// {range: [lo, hi, step]} or {pow2: [lo, hi]}, all inclusive.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <vector>

#include "config_keys.h"
#include "sweep_spec.h"

namespace dmasim::sim {

/// Expands `node` into one assignment of `key` per value, each checked
/// against the key's type and range. More than `limit` values is an error
/// found before they are made. Throws ConfigError naming file and line.
std::vector<Assignment> expand_value_list(const KeyDef& key, const YAML::Node& node,
                                          const std::string& file, uint64_t limit);

}  // namespace dmasim::sim
