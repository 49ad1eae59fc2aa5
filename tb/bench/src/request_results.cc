// request_results.cc - see request_results.h.
#include "request_results.h"

#include <dmasim/model/clock.h>
#include <dmasim/tb/figure_format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace dmasim::tb {
namespace {

/// The nearest rank (1..n) of the `q`-quantile of `n` samples.
size_t nearest_rank(size_t n, double q) {
    return std::clamp<size_t>(static_cast<size_t>(std::ceil(q * static_cast<double>(n))), 1, n);
}

/// The `q`-quantile of sorted `v` (nearest rank).
double quantile(const std::vector<uint64_t>& v, double q) {
    return static_cast<double>(v[nearest_rank(v.size(), q) - 1]);
}

}  // namespace

RequestResults::RequestResults(uint64_t start, uint64_t requests) : start_(start), last_(start) {
    latency_.reserve(requests);
}

void RequestResults::sample(uint64_t now, uint64_t queued, bool running) {
    queued_area_ += queued * (now - last_);
    busy_ += running ? now - last_ : 0;
    last_ = now;
}

void RequestResults::completed(uint64_t bytes, uint64_t arrived, uint64_t now) {
    bytes_ += bytes;
    latency_.push_back(now - arrived);
}

void RequestResults::report(ScenarioBench& bench, std::optional<double> offered) {
    const uint64_t span = std::max<uint64_t>(1, bench.now_cycles() - start_);
    std::sort(latency_.begin(), latency_.end());
    double mean = 0;
    for (uint64_t l : latency_) mean += static_cast<double>(l);
    mean /= std::max<size_t>(1, latency_.size());
    bench.add_result("requests_completed", static_cast<double>(latency_.size()), "requests",
                     "requests whose completion the driver saw");
    bench.add_result("requests_dropped", static_cast<double>(dropped_), "requests",
                     "requests that found the ring full (workload.ring_full: drop)");
    bench.add_result("requests_waited", static_cast<double>(waited_), "requests",
                     "requests that found the ring full and waited for a place");
    bench.add_result("latency_mean_cycles", mean, "cycles",
                     "mean request latency: a request's arrival to the completion the driver "
                     "saw, queueing included");
    // A percentile of a small stream that is just its largest latency says so.
    const std::string caveat = figures::percentile_caveat(latency_.size(), "request", "requests");
    auto of_sample = [&](double q) {
        const bool largest =
            !latency_.empty() && nearest_rank(latency_.size(), q) == latency_.size();
        return largest && !caveat.empty() ? "; " + caveat : std::string();
    };
    if (!latency_.empty()) {
        for (const auto& [name, q] : {std::pair{"latency_p50_cycles", 0.5},
                                      {"latency_p90_cycles", 0.9},
                                      {"latency_p99_cycles", 0.99},
                                      {"latency_p999_cycles", 0.999}})
            bench.add_result(name, quantile(latency_, q), "cycles",
                             "request latency quantile (nearest rank)" + of_sample(q));
    }
    // In time too: profiles at different clocks compare in µs, not cycles.
    const double us_per_cycle = bench.platform().clock().period().to_seconds() * 1e6;
    bench.add_result("latency_mean_us", mean * us_per_cycle, "us",
                     "mean request latency in microseconds");
    if (!latency_.empty())
        bench.add_result("latency_p99_us", quantile(latency_, 0.99) * us_per_cycle, "us",
                         "99th-percentile request latency in microseconds" + of_sample(0.99));
    if (offered)
        bench.add_result("offered_bytes_per_cycle", *offered, "B/cycle",
                         "payload the arrivals offer (0 for a closed stream)");
    bench.add_result("carried_bytes_per_cycle",
                     static_cast<double>(bytes_) / static_cast<double>(span), "B/cycle",
                     "payload of the completed requests over the stream's time");
    bench.add_result("engine_busy_share", static_cast<double>(busy_) / static_cast<double>(span),
                     "fraction", "share of the stream's time a request was in the ring");
    bench.add_result("queue_mean_requests",
                     static_cast<double>(queued_area_) / static_cast<double>(span), "requests",
                     "mean requests in the ring or waiting for it, the running one included");
}

}  // namespace dmasim::tb
