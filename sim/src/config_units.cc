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
    uint64_t base;  ///< in bytes, Hz or ps: integers, so whole values are judged exactly

    /// In bytes, Hz or ns (the unit of the cycle keys' times).
    double scale() const {
        return quantity == Quantity::time ? static_cast<double>(base) / 1000
                                          : static_cast<double>(base);
    }
};

constexpr uint64_t kKi = 1024;
constexpr Unit kUnits[] = {
    {"B", Quantity::size, 1},
    {"KiB", Quantity::size, kKi},
    {"MiB", Quantity::size, kKi* kKi},
    {"GiB", Quantity::size, kKi* kKi* kKi},
    {"TiB", Quantity::size, kKi* kKi* kKi* kKi},
    {"kB", Quantity::size, 1000},
    {"KB", Quantity::size, 1000},
    {"MB", Quantity::size, 1000000},
    {"GB", Quantity::size, 1000000000},
    {"TB", Quantity::size, 1000000000000},
    {"Hz", Quantity::frequency, 1},
    {"kHz", Quantity::frequency, 1000},
    {"MHz", Quantity::frequency, 1000000},
    {"GHz", Quantity::frequency, 1000000000},
    {"ps", Quantity::time, 1},
    {"ns", Quantity::time, 1000},
    {"us", Quantity::time, 1000000},
    {"ms", Quantity::time, 1000000000},
    {"s", Quantity::time, 1000000000000},
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
    std::string digits;  ///< the number as written: digits and at most one '.'
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
        std::string digits = text.substr(0, end);
        char* stop = nullptr;
        const double number = std::strtod(digits.c_str(), &stop);
        if (stop != digits.c_str() + digits.size()) return std::nullopt;
        return Measure{std::move(digits), number, &unit};
    }
    return std::nullopt;
}

/// What a key's unit measures and the size of one of it, if anything.
std::optional<Unit> key_unit(const KeyDef& key) {
    if (key.unit == "bytes") return Unit{"bytes", Quantity::size, 1};
    if (key.unit == "MiB") return Unit{"MiB", Quantity::size, kKi * kKi};
    if (key.unit == "MHz") return Unit{"MHz", Quantity::frequency, 1000000};
    if (key.unit == "ns") return Unit{"ns", Quantity::time, 1000};
    return std::nullopt;
}

[[noreturn]] void not_whole(const KeyDef& key, const std::string& quoted, double value,
                            std::string_view unit) {
    throw std::invalid_argument(fmt::format("{} = '{}': is {} {}, not a whole number of {}",
                                            key.name, quoted, value, unit, unit));
}

/// The decimal `digits` times num / den as the text of a whole number,
/// in exact integer arithmetic: a double would take 1000000000.4 B for
/// 1000000000 within its rounding. Throws unless it is whole.
std::string exact_whole_text(const KeyDef& key, const std::string& quoted, const Measure& m,
                             uint64_t num, uint64_t den, std::string_view unit) {
    using u128 = unsigned __int128;
    std::string_view digits = m.digits;
    if (digits.find('.') != std::string_view::npos) {
        while (digits.back() == '0') digits.remove_suffix(1);  // 1.50 is 1.5
        if (digits.back() == '.') digits.remove_suffix(1);
    }
    // mantissa / 10^decimals is the number: at most 19 digits, so mantissa
    // x num (num < 2^41) and 10^decimals x den (den < 2^21) fit 128 bits.
    u128 mantissa = 0, divisor = den;
    size_t significant = 0;
    bool fraction = false;
    for (char c : digits) {
        if (c == '.') {
            fraction = true;
            continue;
        }
        if (mantissa != 0 || c != '0') ++significant;
        if (significant > 19)
            throw std::invalid_argument(
                fmt::format("{} = '{}': more than 19 significant digits", key.name, quoted));
        mantissa = mantissa * 10 + static_cast<unsigned>(c - '0');
        if (fraction) divisor *= 10;
    }
    const u128 scaled = mantissa * num;
    if (scaled % divisor != 0) not_whole(key, quoted, m.number * num / den, unit);
    const u128 whole = scaled / divisor;
    // Past 64 bits: a number every integer key refuses as out of range.
    return whole > UINT64_MAX ? "18446744073709551616"
                              : fmt::format("{}", static_cast<uint64_t>(whole));
}

/// `value` as the text of an integer key (must be whole, up to the
/// rounding of a double: it comes from a clock that may be a fraction) or
/// a real key; `quoted` is how an error shows the value given.
std::string number_text(const KeyDef& key, const std::string& quoted, double value,
                        std::string_view unit) {
    if (key.type != KeyType::integer) return fmt::format("{}", value);
    const double whole = std::round(value);
    if (std::fabs(value - whole) > 1e-12 * std::max(1.0, whole))
        not_whole(key, quoted, value, unit);
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
            measure->unit->suffix, quantity_name(given), key.name,
            target ? fmt::format("a {} (in {})", quantity_name(target->quantity), key.unit)
            : takes_time(key)
                ? std::string("cycles or a time (e.g. 10ns)")
                : fmt::format("a plain number{}", key.unit.empty() ? "" : " of " + key.unit)));
    if (key.type == KeyType::integer)
        return exact_whole_text(key, excerpt(text), *measure, measure->unit->base, target->base,
                                target->suffix);
    return number_text(key, excerpt(text),
                       measure->number * measure->unit->scale() / target->scale(), target->suffix);
}

std::optional<double> time_in_ns(const std::string& text) {
    const auto measure = split(text);
    if (!measure || measure->unit->quantity != Quantity::time) return std::nullopt;
    return measure->number * measure->unit->scale();
}

bool takes_time(const KeyDef& key) { return key.unit == "cycles"; }

std::string cycles_text(const KeyDef& key, const std::string& text, double ns, double clock_mhz) {
    return number_text(key, fmt::format("{} at {} MHz", excerpt(text), clock_mhz),
                       ns * clock_mhz / 1000, "cycles");
}

}  // namespace dmasim::sim
