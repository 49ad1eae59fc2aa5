// soak_point.h - one random but valid soak point: the `--set` overrides
// that turn the default configuration into it, drawn from a seed.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dmasim::soak {

/// Payload bytes one channel's list may carry, so every point stays fast.
constexpr uint64_t kMaxListBytes = 1ull << 20;
/// Simulated RAM of every point (sparse: only touched pages cost memory).
constexpr uint64_t kMemoryMib = 1024;

struct Point {
    uint64_t seed = 0;
    std::vector<std::pair<std::string, std::string>> sets;  ///< key, value
    /// A request trace the point replays (workload.arrival trace), empty if
    /// none: the soak writes it to a file and sets workload.trace to it.
    std::string trace;
};

/// The point of `seed`: formats, directions, list lengths 1..4096,
/// segments 1 B..1 MiB, odd offsets, chain depths, channels, latencies,
/// outstanding limits and placement; or a request stream (arrivals, a
/// trace of mixed directions, rings or START, polling). Same seed, same
/// point.
Point generate_point(uint64_t seed);

/// `--set KEY=VALUE` for every override, in order; `trace_path` is where
/// the point's trace was written (unused without one).
std::vector<std::string> set_args(const Point& p, const std::string& trace_path);

/// The one-line `dmasim run --set ...` that reproduces the point.
std::string reproducer(const Point& p, const std::string& trace_path);

}  // namespace dmasim::soak
