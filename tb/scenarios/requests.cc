// requests.cc - a stream of requests, as a driver with a submission ring
// sees them (docs/scenarios.md, "requests"): each request is a list of
// the configured workload, arriving closed, periodic or Poisson, or one
// of workload.trace's requests at its time; a ring holds
// workload.ring_entries requests and a request that finds it full waits
// or is dropped. With dma.submission start the ring is the driver's and
// the engine runs the oldest request on channel 0 (one START each); with
// tail_pointer each direction has an engine descriptor ring on a channel
// of its own, every request in it is the hardware's, and each completion
// is reported by its last descriptor's interrupt (coalesced as
// dma.irq_coalesce_* say) or found by a poll. Reports each request's
// latency from its arrival to the completion the driver sees.
#include <dmasim/model/clock.h>
#include <dmasim/tb/figure_format.h>
#include <dmasim/tb/scenario.h>
#include <dmasim/tb/validate.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <optional>
#include <unordered_map>
#include <vector>

#include "request_stream.h"

namespace {

using namespace dmasim::tb;

/// The nearest rank (1..n) of the `q`-quantile of `n` samples.
size_t nearest_rank(size_t n, double q) {
    return std::clamp<size_t>(static_cast<size_t>(std::ceil(q * static_cast<double>(n))), 1, n);
}

/// The `q`-quantile of sorted `v` (nearest rank).
double quantile(const std::vector<uint64_t>& v, double q) {
    return static_cast<double>(v[nearest_rank(v.size(), q) - 1]);
}

/// A request not yet prepared: waiting for the engine or for a place.
struct Pending {
    uint64_t arrived;  ///< cycle
    uint64_t index;    ///< in arrival order
};

/// Admission to a submission ring: the driver's (dma.submission start),
/// or one of the engine's, whose order the driver's ring keeps
/// (ScenarioBench::oldest()).
struct Lane {
    unsigned channel = 0;
    uint64_t admitted = 0;        ///< requests in the ring, the one on the engine included
    std::deque<Pending> queued;   ///< dma.submission start: admitted, not yet on the engine
    std::deque<Pending> blocked;  ///< arrived to it full, waiting for a place
};

/// Slots a descriptor ring may have: one contiguous block, of 80 MiB at
/// most (80-byte linked_list slots).
constexpr uint64_t kMaxRingSlots = uint64_t{1} << 20;

bool engine_ring(const SimConfig& config) {
    return config.platform.dma.submission == dmasim::model::Submission::tail_pointer;
}

}  // namespace

// With dma.submission tail_pointer it keeps an engine ring per direction;
// with workload.arrival trace (and only then) it replays workload.trace.
DMASIM_SCENARIO_TRAITS(requests, kKeepsRing | kReplaysTraces);

// A trace is read before anything runs, so a bad line is a config error.
DMASIM_SCENARIO_CHECK(requests, 0) {
    const WorkloadConfig& w = config.workload;
    if (engine_ring(config) && config.platform.dma.fault.kind != dmasim::model::FaultKind::none)
        return ScenarioRefusal{
            "fault.kind counts the faulted descriptor from each START, and "
            "dma.submission = tail_pointer starts the channel once: inject "
            "faults with dma.submission = start",
            {"fault.kind", "dma.submission"}};
    // One contiguous block of slots: its size stays well inside memory.
    auto ring_fits = [&](uint64_t longest) -> std::optional<ScenarioRefusal> {
        if (!engine_ring(config) || w.ring_entries * longest <= kMaxRingSlots) return std::nullopt;
        return ScenarioRefusal{
            fmt::format("a descriptor ring of workload.ring_entries = {} requests of {} "
                        "descriptors needs {} slots, more than the {} the driver allocates at once",
                        w.ring_entries, longest, w.ring_entries * longest, kMaxRingSlots),
            {"workload.ring_entries", "workload.entries", "dma.submission"}};
    };
    if (w.trace.empty()) return ring_fits(w.entries);
    try {
        const RequestStream stream(w);
        if (auto refusal = ring_fits(stream.max_descriptors())) return refusal;
        std::vector<dma_hw_direction> seen;
        const unsigned channels = config.platform.dma.channels;
        for (const TraceRequest& r : *stream.trace()) {
            for (const auto& problem : validate(as_workload(r, w)))
                return ScenarioRefusal{
                    fmt::format("{}:{}: the request there breaks a workload rule: {}", w.trace,
                                r.line, problem.message),
                    {"workload.trace"}};
            if (std::find(seen.begin(), seen.end(), r.direction) == seen.end())
                seen.push_back(r.direction);
            // A channel's direction is latched at START, once for a ring:
            // each direction needs a ring and a channel of its own.
            if (engine_ring(config) && seen.size() > channels)
                return ScenarioRefusal{
                    fmt::format("{}:{}: a {} request, the stream's direction number {}: with "
                                "dma.submission = tail_pointer each direction goes through a "
                                "ring on a channel of its own, and dma.channels = {}; raise "
                                "dma.channels or replay with dma.submission = start",
                                w.trace, r.line, direction_name(r.direction), seen.size(),
                                channels),
                    {"workload.trace", "dma.submission", "dma.channels"}};
        }
    } catch (const TraceError& e) {
        return ScenarioRefusal{e.what(), {"workload.trace"}};
    }
    return std::nullopt;
}

// A request is prepared at a time with START, a ring's worth in each of
// the engine's rings: a trace's largest, or the configured list.
DMASIM_SCENARIO_FOOTPRINT(requests) {
    const RequestStream stream(config.workload);
    const size_t held =
        engine_ring(config) ? config.workload.ring_entries * stream.directions().size() : 1;
    return std::vector<WorkloadConfig>(held, stream.largest());
}

DMASIM_SCENARIO(requests) {
    const WorkloadConfig& w = bench.config().workload;
    const bool closed = w.arrival == Arrival::closed;
    const uint64_t start = bench.now_cycles();
    const RequestStream requests(w);
    Arrivals arrivals(bench.config(), requests, start);
    const uint64_t total = requests.count();
    const std::optional<double> offered = arrivals.offered();
    const unsigned peak = bench.config().platform.bus.width_bytes;
    if (offered && *offered > peak)
        fmt::print(stderr,
                   "dmasim: warning: the arrivals offer {:.3g} B/cycle, more than the engine's "
                   "peak of {} B/cycle (bus.width_bytes): the ring can only fill\n",
                   *offered, peak);

    // With START one ring, the driver's; with tail_pointer one engine ring
    // per direction, on channels 0, 1, ... in the order they first appear.
    const bool hw_ring = engine_ring(bench.config());
    const std::vector<dma_hw_direction> directions = requests.directions();
    std::vector<Lane> lanes(hw_ring ? directions.size() : 1);
    for (unsigned ch = 0; ch < lanes.size(); ++ch) {
        lanes[ch].channel = ch;
        if (hw_ring)
            bench.open_ring(static_cast<unsigned>(w.ring_entries * requests.max_descriptors()),
                            directions[ch], ch);
    }
    auto lane_of = [&](uint64_t index) -> Lane& {
        if (!hw_ring) return lanes.front();
        const auto it = std::find(directions.begin(), directions.end(), requests.direction(index));
        return lanes[static_cast<size_t>(it - directions.begin())];
    };
    std::vector<uint64_t> latency;
    latency.reserve(total);
    uint64_t arrived = 0, dropped = 0, waited = 0, queued_area = 0, busy = 0, bytes = 0;
    uint64_t closed_due = closed ? std::min(w.in_flight, total) : 0;
    uint64_t last = start;
    bool failed = false;  // a ring request failed: its channel may have stopped

    // Arrival cycles of the requests prepared, until they finish.
    std::unordered_map<const Transfer*, uint64_t> arrival;
    auto prepare = [&](const Pending& p, unsigned channel) -> Transfer& {
        Transfer& t = bench.prepare(requests.list(p.index), channel);
        arrival[&t] = p.arrived;
        return t;
    };
    // An engine ring has a slot for every descriptor of ring_entries requests.
    auto enter = [&](Lane& lane, const Pending& p) {
        ++lane.admitted;
        if (!hw_ring)
            lane.queued.push_back(p);
        else
            bench.expect(bench.submit(prepare(p, lane.channel)),
                         "a request found the ring's slots full");
    };
    auto arrive = [&](uint64_t at) {
        const Pending p{at, arrived++};
        Lane& lane = lane_of(p.index);
        if (lane.admitted < w.ring_entries) {
            enter(lane, p);
        } else if (w.ring_full == RingFull::drop) {
            ++dropped;
            return;
        } else {
            ++waited;
            lane.blocked.push_back(p);
        }
        bench.count_queued(+1, lane.channel);
    };
    // The rings' and the queues' occupancy over time, up to now.
    auto tally = [&] {
        const uint64_t now = bench.now_cycles();
        uint64_t queued = 0;
        bool running = false;
        for (const Lane& lane : lanes) {
            queued += lane.admitted + lane.blocked.size();
            running |= lane.admitted > 0;
        }
        queued_area += queued * (now - last);
        busy += running ? now - last : 0;
        last = now;
    };
    auto finish = [&](Lane& lane, Transfer& t) {
        bench.wait(t);  // with START, the driver reads the channel's status: time passes
        tally();
        failed |= !bench.check(t) && hw_ring;
        bytes += t.bytes();
        const uint64_t arrived_at = arrival.at(&t);
        arrival.erase(&t);
        bench.release(t);
        latency.push_back(bench.now_cycles() - arrived_at);
        --lane.admitted;
        bench.count_queued(-1, lane.channel);
        if (!lane.blocked.empty() && !failed) {
            enter(lane, lane.blocked.front());
            lane.blocked.pop_front();
        }
        if (closed) ++closed_due;  // a closed stream's next request arrives now
    };
    // Requests complete in order within a ring.
    auto oldest = [&](const Lane& lane) { return bench.oldest(lane.channel); };

    while (latency.size() + dropped < total && !failed) {
        tally();
        const uint64_t now = last;
        for (; closed_due > 0 && arrived < total; --closed_due) arrive(now);
        while (!closed && arrived < total && arrivals.peek() <= now) arrive(arrivals.pop());
        const auto done = std::find_if(lanes.begin(), lanes.end(), [&](const Lane& lane) {
            return oldest(lane) && oldest(lane)->completed();
        });
        if (done != lanes.end()) {
            finish(*done, *oldest(*done));
            continue;
        }
        // START: the driver's oldest request goes to the idle engine.
        Lane& driver = lanes.front();
        if (!oldest(driver) && !driver.queued.empty()) {
            bench.start(prepare(driver.queued.front(), driver.channel));
            driver.queued.pop_front();
        }
        const bool more = !closed && arrived < total;
        const bool in_flight = std::any_of(lanes.begin(), lanes.end(),
                                           [](const Lane& lane) { return lane.admitted > 0; });
        if (in_flight)
            bench.wait_for_completion_until(more ? arrivals.peek() : ScenarioBench::kNoDeadline);
        else if (more)
            bench.delay_cycles(arrivals.peek() - now);
    }
    if (hw_ring) {
        // After a failure, what is left in the rings ends too (with the
        // channel's error, if it stopped) before they close.
        for (Lane& lane : lanes) {
            while (Transfer* t = oldest(lane)) finish(lane, *t);
            bench.close_ring(lane.channel);
        }
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
                     "mean request latency: a request's arrival to the completion the driver "
                     "saw, queueing included");
    // A percentile of a small stream that is just its largest latency says so.
    const std::string caveat = figures::percentile_caveat(latency.size(), "request", "requests");
    auto of_sample = [&](double q) {
        const bool largest = !latency.empty() && nearest_rank(latency.size(), q) == latency.size();
        return largest && !caveat.empty() ? "; " + caveat : std::string();
    };
    if (!latency.empty()) {
        for (const auto& [name, q] : {std::pair{"latency_p50_cycles", 0.5},
                                      {"latency_p90_cycles", 0.9},
                                      {"latency_p99_cycles", 0.99},
                                      {"latency_p999_cycles", 0.999}})
            bench.add_result(name, quantile(latency, q), "cycles",
                             "request latency quantile (nearest rank)" + of_sample(q));
    }
    // In time too: profiles at different clocks compare in µs, not cycles.
    const double us_per_cycle = bench.platform().clock().period().to_seconds() * 1e6;
    bench.add_result("latency_mean_us", mean * us_per_cycle, "us",
                     "mean request latency in microseconds");
    if (!latency.empty())
        bench.add_result("latency_p99_us", quantile(latency, 0.99) * us_per_cycle, "us",
                         "99th-percentile request latency in microseconds" + of_sample(0.99));
    if (offered)
        bench.add_result("offered_bytes_per_cycle", *offered, "B/cycle",
                         "payload the arrivals offer (0 for a closed stream)");
    bench.add_result("carried_bytes_per_cycle",
                     static_cast<double>(bytes) / static_cast<double>(span), "B/cycle",
                     "payload of the completed requests over the stream's time");
    bench.add_result("engine_busy_share", static_cast<double>(busy) / static_cast<double>(span),
                     "fraction", "share of the stream's time a request was in the ring");
    bench.add_result("queue_mean_requests",
                     static_cast<double>(queued_area) / static_cast<double>(span), "requests",
                     "mean requests in the ring or waiting for it, the running one included");
}
