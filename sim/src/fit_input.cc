// fit_input.cc - checking the keys and points `dmasim fit` is given.
#include "fit_input.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "config_error.h"
#include "config_units.h"
#include "csv_table.h"
#include "statistics_catalog.h"

namespace dmasim::sim {
namespace {

/// Every fifth row from the fifth is held out, when there are enough rows
/// for both sets to mean something.
constexpr size_t kHoldOutEvery = 5;

uint64_t floor_log2(uint64_t v) { return 63 - static_cast<uint64_t>(__builtin_clzll(v)); }

/// A bound as a config value takes it: a plain number, a size or
/// frequency with its unit (parse_value()), or a time on a cycle key,
/// converted at `clock_mhz` as ConfigBuilder converts one.
uint64_t parse_bound(const KeyDef& key, const std::string& text, const std::string& arg,
                     double clock_mhz) {
    try {
        const std::optional<double> ns = takes_time(key) ? time_in_ns(text) : std::nullopt;
        return std::get<uint64_t>(
            parse_value(key, ns ? cycles_text(key, text, *ns, clock_mhz) : text));
    } catch (const std::invalid_argument& e) {
        throw ConfigError({"--key", 0}, fmt::format("'{}': {}", arg, e.what()), {key.name});
    }
}

/// A run result or statistic: anything results.csv holds that is not a key.
bool is_measure(const std::string& column) {
    return !find_key(column) && find_column(column).has_value();
}

double parse_measurement(const std::string& text, const Location& where,
                         const std::string& column) {
    size_t used = 0;
    double v = 0;
    try {
        v = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (text.empty() || used != text.size() || !std::isfinite(v) || v <= 0)
        throw ConfigError(where,
                          fmt::format("column '{}': '{}' is not a positive number", column, text));
    return v;
}

}  // namespace

uint64_t FitKey::size() const {
    if (!def->power_of_two) return hi - lo + 1;
    return floor_log2(hi) - floor_log2(lo) + 1;
}

uint64_t FitKey::value(uint64_t index) const {
    return def->power_of_two ? lo << index : lo + index;
}

uint64_t FitKey::index_of(uint64_t v) const {
    v = std::min(std::max(v, lo), hi);
    return def->power_of_two ? floor_log2(v) - floor_log2(lo) : v - lo;
}

FitKey parse_fit_key(const std::string& arg, double clock_mhz) {
    const size_t eq = arg.find('=');
    const size_t dots = arg.find("..", eq == std::string::npos ? 0 : eq);
    if (eq == std::string::npos || dots == std::string::npos)
        throw ConfigError({"--key", 0}, fmt::format("'{}' is not KEY=LO..HI", arg));
    const std::string name = arg.substr(0, eq);
    const KeyDef* key = find_key(name);
    if (!key) throw ConfigError({"--key", 0}, fmt::format("unknown key '{}'", name));
    if (key->type != KeyType::integer || !key->int_values.empty())
        throw ConfigError({"--key", 0},
                          fmt::format("'{}' cannot be fitted: only whole-number keys with a "
                                      "range can (it accepts {})",
                                      name, describe_allowed(*key)),
                          {name});
    FitKey fit{key, parse_bound(*key, arg.substr(eq + 1, dots - eq - 1), arg, clock_mhz),
               parse_bound(*key, arg.substr(dots + 2), arg, clock_mhz)};
    if (fit.lo > fit.hi)
        throw ConfigError({"--key", 0},
                          fmt::format("'{}': the range {}..{} is empty", arg, fit.lo, fit.hi),
                          {name});
    // Counted in 128 bits: 0..2^64-1 holds 2^64 values, one more than a
    // 64-bit count (or value index) can say.
    const unsigned __int128 count = static_cast<unsigned __int128>(fit.hi) - fit.lo + 1;
    if (count > kMaxFitValues)
        throw ConfigError({"--key", 0},
                          fmt::format("'{}': the range {}..{} holds 2^64 values, more than the "
                                      "{} a fit can search; narrow it by one",
                                      arg, fit.lo, fit.hi, kMaxFitValues),
                          {name});
    return fit;
}

FitPoints read_fit_points(const std::string& path, const std::vector<FitKey>& fitted) {
    const CsvTable table = read_csv(path);
    FitPoints points{path, {}, {}, {}, {}, {}, {}};
    std::vector<const KeyDef*> defs;
    std::vector<int> key_columns, measure_columns;
    for (size_t c = 0; c < table.header.size(); ++c) {
        const std::string& name = table.header[c];
        if (is_measure(name)) {
            measure_columns.push_back(static_cast<int>(c));
            points.measures.push_back(name);
            continue;
        }
        const KeyDef* key = find_key(name);
        if (!key) {
            // No column is that long: no did-you-mean either (edit distance costs its length).
            const std::optional<std::string> guess =
                name.size() > kMaxTextBytes ? std::nullopt : closest_column(name);
            throw ConfigError({path, 1},
                              fmt::format("column '{}' is neither a config key nor a measurement "
                                          "(cycles, throughput_gbps, or a statistic of "
                                          "docs/statistics.md such as "
                                          "dma.ch0.fetch_to_read_cycles){}",
                                          name, guess ? ", did you mean " + *guess + "?" : ""));
        }
        for (const FitKey& f : fitted)
            if (f.def == key)
                throw ConfigError({path, 1},
                                  fmt::format("column '{}' is a key being fitted", name));
        defs.push_back(key);
        key_columns.push_back(static_cast<int>(c));
        points.keys.push_back(name);
    }
    if (measure_columns.empty())
        throw ConfigError({path, 1},
                          "no measurement column: add 'cycles', 'throughput_gbps' or a statistic");
    if (table.rows.empty()) throw ConfigError({path, 0}, "no points: the file has only a header");

    for (const CsvRow& row : table.rows) {
        const Location where{path, row.line};
        std::vector<std::string> values;
        for (size_t k = 0; k < defs.size(); ++k) {
            const std::string& text = row.fields[key_columns[k]];
            try {
                values.push_back(format_value(parse_value(*defs[k], text)));
            } catch (const std::invalid_argument& e) {
                throw ConfigError(where, fmt::format("column '{}': {}", defs[k]->name, e.what()),
                                  {defs[k]->name});
            }
        }
        std::vector<std::optional<double>> measured;
        for (size_t m = 0; m < measure_columns.size(); ++m) {
            const std::string& text = row.fields[measure_columns[m]];
            measured.push_back(text.empty() ? std::nullopt
                                            : std::optional<double>(parse_measurement(
                                                  text, where, points.measures[m])));
        }
        if (std::none_of(measured.begin(), measured.end(),
                         [](const auto& v) { return v.has_value(); }))
            throw ConfigError(where, fmt::format("no measurement in this row: give {}",
                                                 fmt::join(points.measures, " or ")));
        points.values.push_back(std::move(values));
        points.measured.push_back(std::move(measured));
        points.lines.push_back(row.line);
    }
    const size_t n = points.measured.size();
    for (size_t r = 0; r < n; ++r)
        points.held_out.push_back(n >= kHoldOutEvery && r % kHoldOutEvery == kHoldOutEvery - 1);
    return points;
}

}  // namespace dmasim::sim
