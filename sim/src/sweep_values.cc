// sweep_values.cc - value lists, ranges and power-of-two series.
#include "sweep_values.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "config_loader.h"
#include "config_units.h"
#include "number_grammar.h"

namespace dmasim::sim {
namespace {

Location where_of(const YAML::Node& node, const std::string& file) {
    return {file, node.Mark().line + 1};
}

/// The numbers of a {range:} or {pow2:} list: scalars in the number grammar
/// every value uses (number_grammar.h).
std::vector<Number> numbers(const YAML::Node& list, size_t count, const char* form,
                            const std::string& file) {
    if (!list.IsSequence() || list.size() != count)
        throw ConfigError(where_of(list, file),
                          fmt::format("{} takes a list of {} numbers", form, count));
    std::vector<Number> out;
    for (const auto& item : list) {
        try {
            if (!item.IsScalar()) throw std::invalid_argument("not a number");
            out.push_back(parse_number(item.Scalar()));
        } catch (const std::invalid_argument& e) {
            throw ConfigError(where_of(item, file),
                              fmt::format("{}: '{}': {}", form, excerpt(item.Scalar()), e.what()));
        }
    }
    return out;
}

[[noreturn]] void too_many(const YAML::Node& list, const std::string& file, uint64_t limit) {
    throw ConfigError(where_of(list, file),
                      fmt::format("more than {} values: with the axes before it, the sweep "
                                  "would have more points than --max-points allows",
                                  limit));
}

/// Integer keys step in exact integers: lo, hi and step must be whole.
std::vector<std::string> integer_range(const std::vector<Number>& n, const YAML::Node& list,
                                       const std::string& file, uint64_t limit) {
    for (const auto& v : n)
        if (!v.integral || !v.magnitude || (v.negative && *v.magnitude != 0))
            throw ConfigError(where_of(list, file),
                              "range of an integer key takes whole numbers 0 .. 2^64-1");
    const uint64_t lo = *n[0].magnitude, hi = *n[1].magnitude, step = *n[2].magnitude;
    if (step == 0 || lo > hi)
        throw ConfigError(where_of(list, file), "range needs lo <= hi and step > 0");
    const uint64_t steps = (hi - lo) / step;  // count - 1, which cannot overflow
    if (steps >= limit) too_many(list, file, limit);
    std::vector<std::string> out;
    for (uint64_t i = 0; i <= steps; ++i) out.push_back(fmt::format("{}", lo + i * step));
    return out;
}

std::vector<std::string> real_range(const std::vector<Number>& n, const YAML::Node& list,
                                    const std::string& file, uint64_t limit) {
    const double lo = n[0].value, hi = n[1].value, step = n[2].value;
    if (!std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(step) || !(step > 0) || lo > hi)
        throw ConfigError(where_of(list, file), "range needs finite lo <= hi and step > 0");
    // Counting steps (rather than adding) keeps real ranges free of drift;
    // the tolerance lets hi itself in despite rounding.
    const double steps = std::floor((hi - lo) / step + 1e-9);
    if (steps >= static_cast<double>(limit)) too_many(list, file, limit);
    const auto count = static_cast<uint64_t>(steps) + 1;
    std::vector<std::string> out;
    for (uint64_t i = 0; i < count; ++i)
        out.push_back(fmt::format("{}", lo + static_cast<double>(i) * step));
    return out;
}

std::vector<std::string> range_values(const KeyDef& key, const YAML::Node& list,
                                      const std::string& file, uint64_t limit) {
    const auto n = numbers(list, 3, "range", file);
    return key.type == KeyType::integer ? integer_range(n, list, file, limit)
                                        : real_range(n, list, file, limit);
}

bool is_power_of_two(const Number& n) {
    return n.integral && n.magnitude && !n.negative && *n.magnitude != 0 &&
           (*n.magnitude & (*n.magnitude - 1)) == 0;
}

std::vector<std::string> pow2_values(const YAML::Node& list, const std::string& file,
                                     uint64_t limit) {
    const auto n = numbers(list, 2, "pow2", file);
    if (!is_power_of_two(n[0]) || !is_power_of_two(n[1]) || *n[0].magnitude > *n[1].magnitude)
        throw ConfigError(where_of(list, file), "pow2 needs two powers of two, lo <= hi");
    // log2(hi / lo) + 1 values, at most 64.
    uint64_t count = 1;
    while ((*n[0].magnitude << (count - 1)) != *n[1].magnitude) ++count;
    if (count > limit) too_many(list, file, limit);
    std::vector<std::string> out;
    for (uint64_t i = 0; i < count; ++i) out.push_back(fmt::format("{}", *n[0].magnitude << i));
    return out;
}

/// The values as text, each with the line it came from.
std::vector<std::pair<std::string, Location>> raw_values(const KeyDef& key, const YAML::Node& node,
                                                         const std::string& file, uint64_t limit) {
    std::vector<std::pair<std::string, Location>> out;
    auto add_all = [&](const std::vector<std::string>& texts) {
        for (const auto& t : texts) out.emplace_back(t, where_of(node, file));
    };
    if (node.IsScalar()) {
        out.emplace_back(node.Scalar(), where_of(node, file));
    } else if (node.IsSequence()) {
        if (node.size() > limit) too_many(node, file, limit);
        for (const auto& item : node) {
            if (!item.IsScalar())
                throw ConfigError(where_of(item, file), "a value list holds single values");
            out.emplace_back(item.Scalar(), where_of(item, file));
        }
    } else if (node.IsMap() && node.size() == 1 && node["range"]) {
        add_all(range_values(key, node["range"], file, limit));
    } else if (node.IsMap() && node.size() == 1 && node["pow2"]) {
        add_all(pow2_values(node["pow2"], file, limit));
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
                                          const std::string& file, uint64_t limit) {
    std::vector<Assignment> out;
    for (auto& [text, where] : raw_values(key, node, file, limit)) {
        // A time on a cycle key is checked when a point applies it at its clock.
        if (takes_time(key) && time_in_ns(text)) {
            out.push_back({key.name, text, where});
            continue;
        }
        // A file, as in a config, is relative to the sweep file.
        if (key.path) {
            out.push_back({key.name, path_from(file, text), where});
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
