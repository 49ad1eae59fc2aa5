// requests.cc - a stream of requests on channel 0, as a driver with a
// submission ring sees them (docs/scenarios.md, "requests"): each request
// is a list of the configured workload, arriving closed, periodic or
// Poisson, or one of workload.trace's requests at its time; the ring
// holds workload.ring_entries requests, the engine runs the oldest (one
// START each), and a request that finds the ring full waits or is
// dropped. Reports each request's latency from its arrival to the
// completion the driver sees.
#include <dmasim/tb/request_trace.h>
#include <dmasim/tb/scenario.h>
#include <dmasim/tb/validate.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <random>
#include <vector>

namespace {

using namespace dmasim::tb;

/// The stream's requests: drawn from the workload, or a trace's.
class Requests {
public:
    Requests(const SimConfig& config, uint64_t start)
        : w_(config.workload),
          poisson_(w_.arrival == Arrival::poisson),
          mean_(static_cast<double>(w_.interarrival_cycles)),
          rng_(w_.seed),
          next_(start) {
        if (w_.arrival != Arrival::trace) return;
        trace_ = read_request_trace(w_.trace);
        const double cycles_per_ns = config.platform.clock_mhz / 1000;
        for (const TraceRequest& r : trace_)
            at_.push_back(start + static_cast<uint64_t>(
                                      std::llround(static_cast<double>(r.at_ns) * cycles_per_ns)));
        next_ = at_.front();
    }

    uint64_t count() const { return trace_.empty() ? w_.requests : trace_.size(); }
    /// Arrival cycle of the next request (open streams).
    uint64_t peek() const { return next_; }
    uint64_t pop() {
        const uint64_t at = next_;
        ++popped_;
        if (!trace_.empty())
            next_ = popped_ < at_.size() ? at_[popped_] : at;
        else
            next_ += static_cast<uint64_t>(std::llround(
                poisson_ ? std::exponential_distribution<double>(1 / mean_)(rng_) : mean_));
        return at;
    }
    /// The list of the `i`-th request.
    WorkloadConfig list(uint64_t i) const {
        if (!trace_.empty()) return as_workload(trace_[i], w_);
        WorkloadConfig request = w_;
        request.seed = w_.seed + i;  // fresh data and placement
        return request;
    }
    /// Payload bytes per cycle the arrivals offer (0: a closed stream).
    double offered() const {
        if (w_.arrival == Arrival::closed) return 0;
        if (trace_.empty())
            return static_cast<double>(w_.entries * w_.segment_bytes) /
                   static_cast<double>(w_.interarrival_cycles);
        double bytes = 0;
        for (const TraceRequest& r : trace_)
            for (uint32_t len : r.lengths) bytes += len;
        return bytes / static_cast<double>(std::max<uint64_t>(1, at_.back() - at_.front()));
    }

private:
    const WorkloadConfig& w_;
    bool poisson_;
    double mean_;
    std::mt19937_64 rng_;
    uint64_t next_;
    uint64_t popped_ = 0;
    std::vector<TraceRequest> trace_;
    std::vector<uint64_t> at_;  ///< trace requests' arrival cycles
};

/// The `q`-quantile of sorted `v` (nearest rank).
double quantile(const std::vector<uint64_t>& v, double q) {
    const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())));
    return static_cast<double>(v[std::clamp<size_t>(rank, 1, v.size()) - 1]);
}

/// A request in the ring or waiting for it.
struct Pending {
    uint64_t arrived;  ///< cycle
    uint64_t index;    ///< in arrival order
};

}  // namespace

// A trace is read before anything runs, so a bad line is a config error.
DMASIM_SCENARIO_CHECK(requests, 0) {
    const WorkloadConfig& w = config.workload;
    if ((w.arrival == Arrival::trace) == w.trace.empty())
        return ScenarioRefusal{
            w.trace.empty() ? "workload.arrival: trace replays workload.trace, which is not set"
                            : fmt::format("workload.trace = {} is replayed only with "
                                          "workload.arrival: trace",
                                          w.trace),
            {"workload.arrival", "workload.trace"}};
    if (w.trace.empty()) return std::nullopt;
    try {
        for (const TraceRequest& r : read_request_trace(w.trace))
            for (const auto& problem : validate(as_workload(r, w)))
                return ScenarioRefusal{
                    fmt::format("{}:{}: the request there breaks a workload rule: {}", w.trace,
                                r.line, problem.message),
                    {"workload.trace"}};
    } catch (const TraceError& e) {
        return ScenarioRefusal{e.what(), {"workload.trace"}};
    }
    return std::nullopt;
}

// One request is prepared at a time: a trace's largest, or the configured list.
DMASIM_SCENARIO_FOOTPRINT(requests) {
    const WorkloadConfig& w = config.workload;
    if (w.arrival != Arrival::trace) return {w};
    const std::vector<TraceRequest> trace = read_request_trace(w.trace);
    auto bytes = [](const TraceRequest& r) {
        uint64_t sum = 0;
        for (uint32_t len : r.lengths) sum += len;
        return sum;
    };
    return {as_workload(
        *std::max_element(trace.begin(), trace.end(),
                          [&](const auto& a, const auto& b) { return bytes(a) < bytes(b); }),
        w)};
}

DMASIM_SCENARIO(requests) {
    const WorkloadConfig& w = bench.config().workload;
    const bool closed = w.arrival == Arrival::closed;
    const uint64_t start = bench.now_cycles();
    Requests requests(bench.config(), start);
    const uint64_t total = requests.count();
    const double offered = requests.offered();
    const unsigned peak = bench.config().platform.bus.width_bytes;
    if (offered > peak)
        fmt::print(stderr,
                   "dmasim: warning: the arrivals offer {:.3g} B/cycle, more than the engine's "
                   "peak of {} B/cycle (bus.width_bytes): the ring can only fill\n",
                   offered, peak);

    std::deque<Pending> ring;     // the requests in the ring, oldest first
    std::deque<Pending> blocked;  // arrived to a full ring, waiting for a place
    std::vector<uint64_t> latency;
    latency.reserve(total);
    uint64_t arrived = 0, dropped = 0, waited = 0, queued_area = 0, busy = 0, bytes = 0;
    uint64_t closed_due = closed ? std::min(w.in_flight, total) : 0;
    uint64_t last = start;
    Transfer* active = nullptr;
    uint64_t active_started = 0;

    auto arrive = [&](uint64_t at) {
        const Pending p{at, arrived++};
        if (ring.size() < w.ring_entries) {
            ring.push_back(p);
        } else if (w.ring_full == RingFull::drop) {
            ++dropped;
            return;
        } else {
            ++waited;
            blocked.push_back(p);
        }
        bench.count_queued(+1);
    };

    while (latency.size() + dropped < total) {
        const uint64_t now = bench.now_cycles();
        queued_area += (ring.size() + blocked.size()) * (now - last);
        last = now;
        for (; closed_due > 0 && arrived < total; --closed_due) arrive(now);
        while (!closed && arrived < total && requests.peek() <= now) arrive(requests.pop());
        if (active && active->completed()) {
            bench.wait(*active);  // the driver reads the channel's status: time passes
            const uint64_t done = bench.now_cycles();
            bench.check(*active);
            bytes += active->bytes();
            bench.release(*active);
            busy += done - active_started;
            latency.push_back(done - ring.front().arrived);
            ring.pop_front();
            bench.count_queued(-1);
            if (!blocked.empty()) {
                ring.push_back(blocked.front());
                blocked.pop_front();
            }
            active = nullptr;
            if (closed) ++closed_due;
            continue;  // a closed stream's next request arrives now
        }
        if (!active && !ring.empty()) {
            active = &bench.prepare(requests.list(ring.front().index));
            active_started = now;
            bench.start(*active);
        }
        const bool more = !closed && arrived < total;
        if (active)
            bench.wait_for_completion_until(more ? requests.peek() : Bench::kNoDeadline);
        else if (more)
            bench.delay_cycles(requests.peek() - now);
    }

    const uint64_t span = std::max<uint64_t>(1, bench.now_cycles() - start);
    std::sort(latency.begin(), latency.end());
    double mean = 0;
    for (uint64_t l : latency) mean += static_cast<double>(l);
    mean /= std::max<size_t>(1, latency.size());
    bench.add_result("requests_completed", static_cast<double>(latency.size()), "requests",
                     "requests whose completion the driver saw");
    bench.add_result("requests_dropped", static_cast<double>(dropped), "requests",
                     "requests that found the ring full (workload.ring_full: drop)");
    bench.add_result("requests_waited", static_cast<double>(waited), "requests",
                     "requests that found the ring full and waited for a place");
    bench.add_result("latency_mean_cycles", mean, "cycles",
                     "mean request latency, arrival to the completion the driver saw");
    if (!latency.empty()) {
        for (const auto& [name, q] : {std::pair{"latency_p50_cycles", 0.5},
                                      {"latency_p90_cycles", 0.9},
                                      {"latency_p99_cycles", 0.99},
                                      {"latency_p999_cycles", 0.999}})
            bench.add_result(name, quantile(latency, q), "cycles",
                             "request latency quantile (nearest rank)");
    }
    bench.add_result("offered_bytes_per_cycle", offered, "B/cycle",
                     "payload the arrivals offer (0 for a closed stream)");
    bench.add_result("carried_bytes_per_cycle",
                     static_cast<double>(bytes) / static_cast<double>(span), "B/cycle",
                     "payload of the completed requests over the stream's time");
    bench.add_result("engine_busy_share", static_cast<double>(busy) / static_cast<double>(span),
                     "fraction", "share of the stream's time a request was on the engine");
    bench.add_result("queue_mean_requests",
                     static_cast<double>(queued_area) / static_cast<double>(span), "requests",
                     "mean requests in the ring or waiting for it, the running one included");
}
