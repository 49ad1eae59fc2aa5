// fit_input.h - what `dmasim fit` reads: the keys to fit with their
// ranges, and the measured points, each checked before anything runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config_keys.h"

namespace dmasim::sim {

/// A whole-number key and the values the search may give it: every
/// integer of [lo, hi], or only the powers of two there for keys that
/// must be one. Values are addressed by index, 0 .. size() - 1.
struct FitKey {
    const KeyDef* def = nullptr;
    uint64_t lo = 0, hi = 0;

    uint64_t size() const;
    uint64_t value(uint64_t index) const;
    /// Index of the allowed value nearest `v` (clamped into the range).
    uint64_t index_of(uint64_t v) const;
};

/// Values a fitted key's range may hold: its values are indexed by 64-bit
/// numbers, so the one range of 2^64 values (0..2^64-1) is refused.
inline constexpr uint64_t kMaxFitValues = UINT64_MAX;

/// Parses "KEY=LO..HI". LO and HI take units as config values do
/// (1KiB..64KiB, 1GHz; a time such as 1us..2us on a cycle key is converted
/// at `clock_mhz`, the profile's clock). Throws ConfigError naming the
/// argument: unknown key, a key that is not a whole number (only those can
/// be fitted), LO > HI, a bound outside the key's own range or not whole in
/// its unit, or more than kMaxFitValues values.
FitKey parse_fit_key(const std::string& arg, double clock_mhz);

/// The measured points: config columns (canonical value text per row) and
/// the measurements, any result or statistic column of results.csv
/// (`cycles`, `throughput_gbps`, `dma.ch0.fetch_to_read_cycles`, ...); a
/// row measures at least one of them.
struct FitPoints {
    std::string file;
    std::vector<std::string> measures;             ///< measurement columns, file order
    std::vector<std::string> keys;                 ///< config key columns, file order
    std::vector<std::vector<std::string>> values;  ///< [row][key], canonical
    std::vector<std::vector<std::optional<double>>>
        measured;                ///< [row][measure], empty = not measured
    std::vector<int> lines;      ///< [row] line in the file
    std::vector<bool> held_out;  ///< [row]
};

/// Reads POINTS.csv. Throws ConfigError naming file, line and column for
/// an unknown column, a fitted key given as a column, a value its key
/// refuses, a measurement that is not a number or not > 0, or a row that
/// measures nothing.
FitPoints read_fit_points(const std::string& path, const std::vector<FitKey>& fitted);

}  // namespace dmasim::sim
