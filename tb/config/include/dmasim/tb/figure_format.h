// figure_format.h - how every figure a person reads is printed: the run
// summary, scenario results, diff, fit and advise. Significant digits
// without float noise (1.509, not 1.5090000000000001), one unit scaled to
// the figure (66.28 us, 7.813 MiB, 15.82 GB/s), nouns that agree with
// their count (1 entry, 2 entries), and a word when percentiles come from
// too few samples to mean much. Machine outputs (report JSON, results.csv)
// keep full precision and never pass through here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dmasim::tb::figures {

/// Significant digits a figure gets unless its caller asks for more.
inline constexpr int kDigits = 4;

/// Below this many samples a p99 is the sample's maximum (nearest rank:
/// ceil(0.99 n) = n for every n < 100), so a summary says so.
inline constexpr uint64_t kFewSamples = 100;

/// significant - @v rounded to @digits significant digits, trailing zeros
/// dropped: 1.5090000000000001 -> "1.509", 31.406000000000002 -> "31.41",
/// 0.000123456 -> "0.0001235". Digits left of the point are never rounded
/// away (1462217.4 -> "1462217"), so a figure never turns into an exponent;
/// only magnitudes below 1e-4 or above 1e15 do ("1.235e-05").
std::string significant(double v, int digits = kDigits);

/// A time in nanoseconds in the largest unit that keeps it at least 1:
/// 421 -> "421 ns", 66278 -> "66.28 us", 1.03264e7 -> "10.33 ms".
std::string time_ns(double ns, int digits = kDigits);

/// A payload rate in bytes per second, in decimal units (the GB/s of
/// `throughput_gbps`): 1.58e10 -> "15.82 GB/s", 3.2e7 -> "32 MB/s".
std::string rate(double bytes_per_second, int digits = kDigits);

/// Several rates of one line in one unit, the one that suits the largest:
/// "15.82 GB/s" beside "0.5 GB/s", never beside "500 MB/s".
class RateScale {
public:
    /// The unit for rates up to @largest_bytes_per_second.
    explicit RateScale(double largest_bytes_per_second);
    std::string operator()(double bytes_per_second, int digits = kDigits) const;

private:
    double divisor_;
    const char* unit_;
};

/// A size in binary units: 256 -> "256 B", 8960 -> "8.75 KiB",
/// 1048576 -> "1 MiB".
std::string bytes(double bytes, int digits = kDigits);

/// A share as a percentage: 0.997254 -> "99.7 %" (three digits; 0 -> "0 %").
std::string percent(double fraction);

/// @n and the noun that agrees with it: (1, "entry", "entries") ->
/// "1 entry", (2, ...) -> "2 entries".
std::string count(uint64_t n, std::string_view singular, std::string_view plural);

/// The singular of a unit written in the plural ("requests" -> "request",
/// "entries" -> "entry"), for a value of 1 or -1; a unit that is no
/// plain plural word ("B/cycle", "us", "error code") comes back unchanged.
std::string unit_for(double v, std::string_view unit);

/// What percentiles of @samples samples hide, or "" from kFewSamples on:
/// (20, "request", "requests") -> "from only 20 requests: p99 and above
/// are their maximum". The percentiles are nearest-rank.
std::string percentile_caveat(uint64_t samples, std::string_view singular, std::string_view plural);

}  // namespace dmasim::tb::figures
