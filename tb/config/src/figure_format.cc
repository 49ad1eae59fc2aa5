// figure_format.cc - see figure_format.h.
#include <dmasim/tb/figure_format.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace dmasim::tb::figures {
namespace {

/// Decimals that give @a (> 0) @digits significant digits, none when its
/// whole part already has them.
int decimals_for(double a, int digits) {
    const int exponent = static_cast<int>(std::floor(std::log10(a)));
    return std::max(0, digits - 1 - exponent);
}

/// Magnitudes printed in fixed notation; outside them an exponent is
/// clearer than a run of zeros.
bool fixed_notation(double a) { return a >= 1e-4 && a < 1e15; }

/// @v rounded the way significant() prints it.
double rounded(double v, int digits) {
    const double a = std::fabs(v);
    if (!std::isfinite(v) || a == 0 || !fixed_notation(a)) return v;
    const double scale = std::pow(10.0, decimals_for(a, digits));
    return std::round(v * scale) / scale;
}

struct Unit {
    const char* name;
    double size;  ///< in the base unit
};

/// The largest of @units (smallest first) in which @v, rounded to @digits,
/// is still at least 1.
size_t unit_for_value(double v, const Unit* units, size_t n, int digits) {
    size_t i = 0;
    while (i + 1 < n &&
           std::fabs(rounded(v / units[i].size, digits)) >= units[i + 1].size / units[i].size)
        ++i;
    return i;
}

std::string scaled(double v, const Unit* units, size_t n, int digits) {
    const Unit& unit = units[unit_for_value(v, units, n, digits)];
    return fmt::format("{} {}", significant(v / unit.size, digits), unit.name);
}

constexpr Unit kTimes[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
constexpr Unit kRates[] = {{"B/s", 1}, {"kB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9}, {"TB/s", 1e12}};
constexpr Unit kSizes[] = {{"B", 1},
                           {"KiB", 1024.0},
                           {"MiB", 1024.0 * 1024},
                           {"GiB", 1024.0 * 1024 * 1024},
                           {"TiB", 1024.0 * 1024 * 1024 * 1024}};

bool plain_word(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::islower(static_cast<unsigned char>(c));
    });
}

bool ends_with(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

}  // namespace

std::string significant(double v, int digits) {
    const double a = std::fabs(v);
    if (!std::isfinite(v)) return fmt::format("{}", v);
    if (a == 0) return "0";
    if (!fixed_notation(a)) return fmt::format("{:.{}g}", v, digits);
    std::string text = fmt::format("{:.{}f}", v, decimals_for(a, digits));
    if (text.find('.') != std::string::npos) {
        text.erase(text.find_last_not_of('0') + 1);
        if (text.back() == '.') text.pop_back();
    }
    return text == "-0" ? "0" : text;
}

std::string time_ns(double ns, int digits) { return scaled(ns, kTimes, std::size(kTimes), digits); }

std::string rate(double bytes_per_second, int digits) {
    return scaled(bytes_per_second, kRates, std::size(kRates), digits);
}

RateScale::RateScale(double largest_bytes_per_second) {
    const Unit& unit =
        kRates[unit_for_value(largest_bytes_per_second, kRates, std::size(kRates), kDigits)];
    divisor_ = unit.size;
    unit_ = unit.name;
}

std::string RateScale::operator()(double bytes_per_second, int digits) const {
    return fmt::format("{} {}", significant(bytes_per_second / divisor_, digits), unit_);
}

std::string bytes(double bytes, int digits) {
    return scaled(bytes, kSizes, std::size(kSizes), digits);
}

std::string percent(double fraction) { return significant(100 * fraction, 3) + " %"; }

std::string count(uint64_t n, std::string_view singular, std::string_view plural) {
    return fmt::format("{} {}", n, n == 1 ? singular : plural);
}

std::string unit_for(double v, std::string_view unit) {
    if (std::fabs(v) != 1 || !plain_word(unit) || unit.size() <= 2) return std::string(unit);
    if (ends_with(unit, "ies")) return std::string(unit.substr(0, unit.size() - 3)) + "y";
    if (ends_with(unit, "s") && !ends_with(unit, "ss") && !ends_with(unit, "us"))
        return std::string(unit.substr(0, unit.size() - 1));
    return std::string(unit);
}

std::string percentile_caveat(uint64_t samples, std::string_view singular,
                              std::string_view plural) {
    if (samples == 0 || samples >= kFewSamples) return "";
    const std::string sample = count(samples, singular, plural);
    if (samples == 1) return fmt::format("from only {}: every percentile is that one", sample);
    // Nearest rank: p90 = ceil(0.9 n) is the n-th sample for every n < 10.
    return fmt::format("from only {}: {} and above are their maximum", sample,
                       samples < 10 ? "p90" : "p99");
}

}  // namespace dmasim::tb::figures
