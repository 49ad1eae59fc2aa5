// config_keys.h - the one table of configuration keys.
//
// Every dotted key a YAML config or --set may name, one per row of the
// layers' parameter tables (model/param_rows.h, tb/workload_rows.h), with
// its type, unit, allowed values, description and the SimConfig field it
// sets. The loader, validation, `dmasim config --explain` and
// docs/configuration.md are all derived from this table.
#pragma once

#include <dmasim/hw/dma_hw.h>
#include <dmasim/tb/sim_config.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace dmasim::sim {

/// A key's kind of value: the kind of its parameter row.
using KeyType = model::ParamKind;

/// A typed key value: integer keys hold uint64_t, choice and text keys a string.
using Value = model::ParamValue;

struct KeyDef {
    std::string name;  ///< dotted path, e.g. "dma.max_burst_beats"
    KeyType type = KeyType::text;
    std::string unit;                   ///< empty when the value has no unit
    uint64_t int_min = 0, int_max = 0;  ///< integer keys: inclusive range
    bool power_of_two = false;          ///< integer keys: value must be 2^k
    std::vector<uint64_t> int_values;   ///< integer keys: if any, the only values allowed
    double real_min = 0, real_max = 0;  ///< real keys: inclusive range
    std::vector<std::string> choices;   ///< choice keys: allowed spellings
    bool path = false;  ///< text keys naming a file, relative to the config setting it
    std::string description;
    model::WhatIf what_if;  ///< the step `dmasim advise` tries (scenario keys: none)
    std::function<Value(const tb::SimConfig&)> get;
    std::function<void(tb::SimConfig&, const Value&)> set;

    /// The value a default-constructed SimConfig holds.
    Value default_value() const { return get(tb::SimConfig{}); }
};

/// Every key, in documentation order.
const std::vector<KeyDef>& config_keys();

/// Appends keys declared outside the table (scenario parameters, which
/// only the binaries that link the testbench know). Call before anything
/// reads the table: find_key() pointers are not stable across it.
void add_config_keys(std::vector<KeyDef> keys);

/// The key named `name`, or nullptr.
const KeyDef* find_key(std::string_view name);

/// Canonical text of a value (what reports, CSVs and resolved configs show).
std::string format_value(const Value& value);

/// Human text of what a key accepts, e.g. "1 .. 256, power of two".
std::string describe_allowed(const KeyDef& key);

/// Parses `text` as a value of `key`, checking type and range.
/// Throws std::invalid_argument with a message naming the allowed values.
Value parse_value(const KeyDef& key, const std::string& text);

}  // namespace dmasim::sim
