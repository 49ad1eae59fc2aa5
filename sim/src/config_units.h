// config_units.h - unit strings for size, frequency and time values
// ("4KiB", "2MiB", "1GHz", "250MHz", "10ns"), converted to the number a key
// is stored in, so resolved configs and reports always hold the canonical
// number (docs/configuration.md, "Units").
#pragma once

#include <optional>
#include <string>

#include "config_keys.h"

namespace dmasim::sim {

/// `text` rewritten as a plain number in `key`'s unit, or nullopt when
/// `text` carries no unit suffix. Sizes apply to keys in bytes or MiB,
/// frequencies to keys in MHz. Throws std::invalid_argument for a unit the
/// key does not take or a value that is not whole in the key's unit.
/// Times on cycle keys need the clock: see time_in_ns() and ConfigBuilder.
std::optional<std::string> in_key_unit(const KeyDef& key, const std::string& text);

/// Nanoseconds of a time string ("10ns", "1.5us"), or nullopt if `text` is
/// not a number followed by a time unit (ps, ns, us, ms, s).
std::optional<double> time_in_ns(const std::string& text);

/// Whether `key` is counted in clock cycles (so it takes times, converted
/// at the configured clock).
bool takes_time(const KeyDef& key);

/// Cycles of `ns` nanoseconds at `clock_mhz`, as text for parse_value().
/// Throws std::invalid_argument unless it is a whole number of cycles.
std::string cycles_text(const KeyDef& key, const std::string& text, double ns, double clock_mhz);

}  // namespace dmasim::sim
