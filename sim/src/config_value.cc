// config_value.cc - text <-> typed values for config keys, with the type
// and range checks every source of values (YAML, --set, sweeps) shares.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include "config_error.h"
#include "config_keys.h"
#include "config_units.h"
#include "number_grammar.h"
#include "suggest.h"

namespace dmasim::sim {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    return s;
}

bool is_power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

[[noreturn]] void reject(const KeyDef& key, const std::string& text, std::string_view why) {
    throw std::invalid_argument(fmt::format("{} = '{}': {} (allowed: {})", key.name, excerpt(text),
                                            why, describe_allowed(key)));
}

Number parse_number_of(const KeyDef& key, const std::string& text) {
    try {
        return parse_number(text);
    } catch (const std::invalid_argument& e) {
        reject(key, text, e.what());
    }
}

Value parse_integer(const KeyDef& key, const std::string& text) {
    const Number n = parse_number_of(key, text);
    if (!n.integral) reject(key, text, "not a whole number");
    if (!n.magnitude || (n.negative && *n.magnitude != 0)) reject(key, text, "out of range");
    const uint64_t v = *n.magnitude;
    if (v < key.int_min || v > key.int_max) reject(key, text, "out of range");
    if (key.power_of_two && !is_power_of_two(v)) reject(key, text, "not a power of two");
    if (!key.int_values.empty() &&
        std::find(key.int_values.begin(), key.int_values.end(), v) == key.int_values.end())
        reject(key, text, "not an allowed value");
    return v;
}

Value parse_real(const KeyDef& key, const std::string& text) {
    const double v = parse_number_of(key, text).value;
    if (!std::isfinite(v)) reject(key, text, "not a finite number");
    if (v < key.real_min || v > key.real_max) reject(key, text, "out of range");
    return v;
}

/// The YAML 1.2 core schema's booleans, as for numbers: YAML 1.1's yes,
/// no, on, off, y and n are plain text there, so they are refused rather
/// than read one way by dmasim and another by other tools.
Value parse_boolean(const KeyDef& key, const std::string& text) {
    if (text == "true" || text == "True" || text == "TRUE") return true;
    if (text == "false" || text == "False" || text == "FALSE") return false;
    const std::string t = lower(text);
    if (t == "yes" || t == "on" || t == "y") reject(key, text, "a YAML 1.1 boolean: write true");
    if (t == "no" || t == "off" || t == "n") reject(key, text, "a YAML 1.1 boolean: write false");
    reject(key, text, "not a boolean: write true or false");
}

Value parse_choice(const KeyDef& key, const std::string& text) {
    if (std::find(key.choices.begin(), key.choices.end(), text) != key.choices.end()) return text;
    if (auto guess = closest_match(text, key.choices))
        reject(key, text, fmt::format("unknown value, did you mean {}?", *guess));
    reject(key, text, "unknown value");
}

}  // namespace

std::string format_value(const Value& value) {
    return std::visit(
        [](const auto& v) -> std::string {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, bool>)
                return v ? "true" : "false";
            else if constexpr (std::is_same_v<T, std::string>)
                return v;
            else
                return fmt::format("{}", v);
        },
        value);
}

std::string describe_allowed(const KeyDef& key) {
    switch (key.type) {
        case KeyType::integer:
            if (!key.int_values.empty()) return fmt::format("{}", fmt::join(key.int_values, ", "));
            return fmt::format("{} .. {}{}", key.int_min, key.int_max,
                               key.power_of_two ? ", power of two" : "");
        case KeyType::real:
            return fmt::format("{} .. {}", key.real_min, key.real_max);
        case KeyType::boolean:
            return "true, false";
        case KeyType::choice:
            return fmt::format("{}", fmt::join(key.choices, ", "));
        case KeyType::text:
            break;
    }
    return "any text";
}

Value parse_value(const KeyDef& key, const std::string& given) {
    if (given.size() > kMaxTextBytes)
        reject(key, given, fmt::format("longer than {} bytes", kMaxTextBytes));
    const std::string text = in_key_unit(key, given).value_or(given);
    switch (key.type) {
        case KeyType::integer:
            return parse_integer(key, text);
        case KeyType::real:
            return parse_real(key, text);
        case KeyType::boolean:
            return parse_boolean(key, text);
        case KeyType::choice:
            return parse_choice(key, text);
        case KeyType::text:
            break;
    }
    return text;
}

}  // namespace dmasim::sim
