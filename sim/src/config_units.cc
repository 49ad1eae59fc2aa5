// config_units.cc - number + unit suffix -> number in a key's own unit.
#include "config_units.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "config_error.h"

namespace dmasim::sim {
namespace {

enum class Quantity { size, frequency, time };

struct Unit {
    std::string_view suffix;
    Quantity quantity;
    double scale;  ///< in bytes, Hz or ns
};

constexpr double kKi = 1024.0;
constexpr Unit kUnits[] = {
    {"B", Quantity::size, 1},
    {"KiB", Quantity::size, kKi},
    {"MiB", Quantity::size, kKi* kKi},
    {"GiB", Quantity::size, kKi* kKi* kKi},
    {"TiB", Quantity::size, kKi* kKi* kKi* kKi},
    {"kB", Quantity::size, 1e3},
    {"KB", Quantity::size, 1e3},
    {"MB", Quantity::size, 1e6},
    {"GB", Quantity::size, 1e9},
    {"TB", Quantity::size, 1e12},
    {"Hz", Quantity::frequency, 1},
    {"kHz", Quantity::frequency, 1e3},
    {"MHz", Quantity::frequency, 1e6},
    {"GHz", Quantity::frequency, 1e9},
    {"ps", Quantity::time, 1e-3},
    {"ns", Quantity::time, 1},
    {"us", Quantity::time, 1e3},
    {"ms", Quantity::time, 1e6},
    {"s", Quantity::time, 1e9},
};

const char* quantity_name(Quantity q) {
    switch (q) {
        case Quantity::size:
            return "size";
        case Quantity::frequency:
            return "frequency";
        case Quantity::time:
            break;
    }
    return "time";
}

struct Measure {
    double number;
    const Unit* unit;
};

/// Splits "4KiB" / "1.5 GHz" into number and unit; nullopt unless the text
/// is a non-negative decimal number followed by a known unit.
std::optional<Measure> split(const std::string& text) {
    size_t end = 0;
    while (end < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.'))
        ++end;
    if (end == 0) return std::nullopt;
    size_t unit_at = end;
    while (unit_at < text.size() && text[unit_at] == ' ') ++unit_at;
    const std::string_view suffix = std::string_view(text).substr(unit_at);
    for (const Unit& unit : kUnits) {
        if (suffix != unit.suffix) continue;
        const std::string digits = text.substr(0, end);
        char* stop = nullptr;
        const double number = std::strtod(digits.c_str(), &stop);
        if (stop != digits.c_str() + digits.size()) return std::nullopt;
        return Measure{number, &unit};
    }
    return std::nullopt;
}

/// What a key's unit measures and the scale of one of it, if anything.
std::optional<Unit> key_unit(const KeyDef& key) {
    if (key.unit == "bytes") return Unit{"bytes", Quantity::size, 1};
    if (key.unit == "MiB") return Unit{"MiB", Quantity::size, kKi * kKi};
    if (key.unit == "MHz") return Unit{"MHz", Quantity::frequency, 1e6};
    if (key.unit == "ns") return Unit{"ns", Quantity::time, 1};
    return std::nullopt;
}

/// `value` as the text of an integer key (must be whole) or a real key;
/// `quoted` is how an error shows the value given.
std::string number_text(const KeyDef& key, const std::string& quoted, double value,
                        std::string_view unit) {
    if (key.type != KeyType::integer) return fmt::format("{}", value);
    const double whole = std::round(value);
    if (std::fabs(value - whole) > 1e-9 * std::max(1.0, whole))
        throw std::invalid_argument(fmt::format("{} = '{}': is {} {}, not a whole number of {}",
                                                key.name, quoted, value, unit, unit));
    return fmt::format("{:.0f}", whole);
}

}  // namespace

std::optional<std::string> in_key_unit(const KeyDef& key, const std::string& text) {
    const auto measure = split(text);
    if (!measure) return std::nullopt;
    const Quantity given = measure->unit->quantity;
    if (given == Quantity::time && takes_time(key)) return std::nullopt;  // needs the clock
    const auto target = key_unit(key);
    if (!target || target->quantity != given)
        throw std::invalid_argument(fmt::format(
            "{} = '{}': {} is a {} unit, but {} takes {}", key.name, excerpt(text),
            measure->unit->suffix,
            quantity_name(given), key.name,
            target ? fmt::format("a {} (in {})", quantity_name(target->quantity), key.unit)
            : takes_time(key)
                ? std::string("cycles or a time (e.g. 10ns)")
                : fmt::format("a plain number{}", key.unit.empty() ? "" : " of " + key.unit)));
    return number_text(key, excerpt(text), measure->number * measure->unit->scale / target->scale,
                       target->suffix);
}

std::optional<double> time_in_ns(const std::string& text) {
    const auto measure = split(text);
    if (!measure || measure->unit->quantity != Quantity::time) return std::nullopt;
    return measure->number * measure->unit->scale;
}

bool takes_time(const KeyDef& key) { return key.unit == "cycles"; }

std::string cycles_text(const KeyDef& key, const std::string& text, double ns, double clock_mhz) {
    return number_text(key, fmt::format("{} at {} MHz", excerpt(text), clock_mhz),
                       ns * clock_mhz / 1000,
                       "cycles");
}

}  // namespace dmasim::sim
