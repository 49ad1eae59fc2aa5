// sweep_values.cpp - value lists, ranges and power-of-two series.
#include "sweep_values.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "config_units.h"

namespace dmasim::sim {
namespace {

constexpr size_t kMaxValues = 1000000;  // a longer list is surely a mistake

Location where_of(const YAML::Node& node, const std::string& file) {
    return {file, node.Mark().line + 1};
}

/// The numbers of a {range:} or {pow2:} list, which must be scalars.
std::vector<double> numbers(const YAML::Node& list, size_t count, const char* form,
                            const std::string& file) {
    if (!list.IsSequence() || list.size() != count)
        throw ConfigError(where_of(list, file),
                          fmt::format("{} takes a list of {} numbers", form, count));
    std::vector<double> out;
    for (const auto& item : list) {
        try {
            out.push_back(std::stod(item.Scalar()));
        } catch (const std::exception&) {
            throw ConfigError(where_of(item, file),
                              fmt::format("{}: '{}' is not a number", form, item.Scalar()));
        }
    }
    return out;
}

std::vector<std::string> range_values(const KeyDef& key, const YAML::Node& list,
                                      const std::string& file) {
    auto n = numbers(list, 3, "range", file);
    const double lo = n[0], hi = n[1], step = n[2];
    if (!(step > 0) || lo > hi)
        throw ConfigError(where_of(list, file), "range needs lo <= hi and step > 0");
    // Counting steps (rather than adding) keeps real ranges free of drift;
    // the tolerance lets hi itself in despite rounding.
    const size_t count = static_cast<size_t>(std::floor((hi - lo) / step + 1e-9)) + 1;
    if (count > kMaxValues) throw ConfigError(where_of(list, file), "range has too many values");
    std::vector<std::string> out;
    for (size_t i = 0; i < count; ++i) {
        double v = lo + static_cast<double>(i) * step;
        out.push_back(key.type == KeyType::integer ? fmt::format("{:.0f}", v)
                                                   : fmt::format("{}", v));
    }
    return out;
}

bool is_power_of_two(double v) {
    return v >= 1 && v <= 0x1p63 && std::exp2(std::round(std::log2(v))) == v;
}

std::vector<std::string> pow2_values(const YAML::Node& list, const std::string& file) {
    auto n = numbers(list, 2, "pow2", file);
    if (!is_power_of_two(n[0]) || !is_power_of_two(n[1]) || n[0] > n[1])
        throw ConfigError(where_of(list, file), "pow2 needs two powers of two, lo <= hi");
    std::vector<std::string> out;
    for (double v = n[0]; v <= n[1]; v *= 2) out.push_back(fmt::format("{:.0f}", v));
    return out;
}

/// The values as text, each with the line it came from.
std::vector<std::pair<std::string, Location>> raw_values(const KeyDef& key, const YAML::Node& node,
                                                         const std::string& file) {
    std::vector<std::pair<std::string, Location>> out;
    auto add_all = [&](const std::vector<std::string>& texts) {
        for (const auto& t : texts) out.emplace_back(t, where_of(node, file));
    };
    if (node.IsScalar()) {
        out.emplace_back(node.Scalar(), where_of(node, file));
    } else if (node.IsSequence()) {
        for (const auto& item : node) {
            if (!item.IsScalar())
                throw ConfigError(where_of(item, file), "a value list holds single values");
            out.emplace_back(item.Scalar(), where_of(item, file));
        }
    } else if (node.IsMap() && node.size() == 1 && node["range"]) {
        add_all(range_values(key, node["range"], file));
    } else if (node.IsMap() && node.size() == 1 && node["pow2"]) {
        add_all(pow2_values(node["pow2"], file));
    } else {
        throw ConfigError(where_of(node, file),
                          fmt::format("{}: expected [a, b, ...], {{range: [lo, hi, step]}} or "
                                      "{{pow2: [lo, hi]}}",
                                      key.name));
    }
    return out;
}

}  // namespace

std::vector<Assignment> expand_value_list(const KeyDef& key, const YAML::Node& node,
                                          const std::string& file) {
    std::vector<Assignment> out;
    for (auto& [text, where] : raw_values(key, node, file)) {
        // A time on a cycle key is checked when a point applies it at its clock.
        if (takes_time(key) && time_in_ns(text)) {
            out.push_back({key.name, text, where});
            continue;
        }
        try {
            parse_value(key, text);
            // "4KiB" is swept as 4096: CSV columns and point identities use the number.
            out.push_back({key.name, in_key_unit(key, text).value_or(text), where});
        } catch (const std::invalid_argument& e) {
            throw ConfigError(where, e.what());
        }
    }
    if (out.empty()) throw ConfigError(where_of(node, file), key.name + ": empty value list");
    return out;
}

}  // namespace dmasim::sim
