// soak_point.h - one random but valid soak point: the `--set` overrides
// that turn the default configuration into it, drawn from a seed.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dmasim::soak {

/// Payload bytes one list may carry, and all of a point's lists, and
/// descriptors all of a point's lists may hold, so every point stays fast.
constexpr uint64_t kMaxListBytes = 1ull << 20;
constexpr uint64_t kMaxPointBytes = 4ull << 20;
constexpr uint64_t kMaxPointDescriptors = 16384;

struct Point {
    uint64_t seed = 0;
    std::vector<std::pair<std::string, std::string>> sets;  ///< key, value
    /// A request trace the point replays (workload.arrival trace), empty if
    /// none: the soak writes it to a file and sets workload.trace to it.
    std::string trace;
};

/// The point of `seed`: a value for every row of the parameter table
/// (tb::param_table()) the soak draws, each within the row's range or the
/// narrower soak range it gives, inside the budget above and accepted by
/// the rules; a request trace for trace arrivals. Same seed, same point.
Point generate_point(uint64_t seed);

/// Whether the soak draws `key`: every row but a short list left at its
/// default, each with its reason (soak_point.cc, kNotSoakedKeys).
bool is_soaked(const std::string& key);

/// `--set KEY=VALUE` for every override, in order; `trace_path` is where
/// the point's trace was written (unused without one).
std::vector<std::string> set_args(const Point& p, const std::string& trace_path);

/// The one-line `dmasim run --set ...` that reproduces the point.
std::string reproducer(const Point& p, const std::string& trace_path);

}  // namespace dmasim::soak
