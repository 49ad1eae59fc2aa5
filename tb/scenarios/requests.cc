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
#include <dmasim/tb/scenario.h>
#include <dmasim/tb/validate.h>
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <optional>
#include <unordered_map>
#include <vector>

#include "request_results.h"
#include "request_stream.h"

namespace {

using namespace dmasim::tb;

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

/// Ring admission: a request that arrives enters its ring, waits for a
/// place or is dropped (workload.ring_full); with START the driver's
/// oldest request goes to the idle engine; a completed request leaves its
/// ring and lets the first waiting one in. With START one ring, the
/// driver's; with tail_pointer one engine ring per direction, on channels
/// 0, 1, ... in the order the directions first appear.
class Admission {
public:
    Admission(ScenarioBench& bench, const RequestStream& requests, RequestResults& results)
        : bench_(bench),
          requests_(requests),
          results_(results),
          w_(bench.config().workload),
          hw_ring_(engine_ring(bench.config())),
          directions_(requests.directions()),
          lanes_(hw_ring_ ? directions_.size() : 1) {
        for (unsigned ch = 0; ch < lanes_.size(); ++ch) {
            lanes_[ch].channel = ch;
            if (hw_ring_)
                bench.open_ring(static_cast<unsigned>(w_.ring_entries * requests.max_descriptors()),
                                directions_[ch], ch);
        }
    }

    /// The next request of the stream arrives at cycle `at`.
    void arrive(uint64_t at) {
        const Pending p{at, arrived_++};
        Lane& lane = lane_of(p.index);
        if (lane.admitted < w_.ring_entries) {
            enter(lane, p);
        } else if (w_.ring_full == RingFull::drop) {
            results_.dropped();
            return;
        } else {
            results_.waited();
            lane.blocked.push_back(p);
        }
        bench_.count_queued(+1, lane.channel);
    }
    /// Requests arrived so far.
    uint64_t arrived() const { return arrived_; }
    /// The rings' and the queues' occupancy over time, up to now.
    void tally() {
        uint64_t queued = 0;
        bool running = false;
        for (const Lane& lane : lanes_) {
            queued += lane.admitted + lane.blocked.size();
            running |= lane.admitted > 0;
        }
        results_.sample(bench_.now_cycles(), queued, running);
    }
    /// Finishes a ring's oldest request if its completion was handled;
    /// false if no ring has one.
    bool finish_completed() {
        const auto done = std::find_if(lanes_.begin(), lanes_.end(), [&](const Lane& lane) {
            return oldest(lane) && oldest(lane)->completed();
        });
        if (done == lanes_.end()) return false;
        finish(*done, *oldest(*done));
        return true;
    }
    /// START: the driver's oldest request goes to the idle engine.
    void start_next() {
        Lane& driver = lanes_.front();
        if (oldest(driver) || driver.queued.empty()) return;
        bench_.start(prepare(driver.queued.front(), driver.channel));
        driver.queued.pop_front();
    }
    /// A request is in a ring.
    bool in_flight() const {
        return std::any_of(lanes_.begin(), lanes_.end(),
                           [](const Lane& lane) { return lane.admitted > 0; });
    }
    /// A ring request failed: its channel may have stopped.
    bool failed() const { return failed_; }
    /// Closes the engine rings. After a failure, what is left in them
    /// ends too (with the channel's error, if it stopped) before they close.
    void close() {
        if (!hw_ring_) return;
        for (Lane& lane : lanes_) {
            while (Transfer* t = oldest(lane)) finish(lane, *t);
            bench_.close_ring(lane.channel);
        }
    }

private:
    Lane& lane_of(uint64_t index) {
        if (!hw_ring_) return lanes_.front();
        const auto it =
            std::find(directions_.begin(), directions_.end(), requests_.direction(index));
        return lanes_[static_cast<size_t>(it - directions_.begin())];
    }
    Transfer& prepare(const Pending& p, unsigned channel) {
        Transfer& t = bench_.prepare(requests_.list(p.index), channel);
        arrival_[&t] = p.arrived;
        return t;
    }
    // An engine ring has a slot for every descriptor of ring_entries requests.
    void enter(Lane& lane, const Pending& p) {
        ++lane.admitted;
        if (!hw_ring_)
            lane.queued.push_back(p);
        else
            bench_.expect(bench_.submit(prepare(p, lane.channel)),
                          "a request found the ring's slots full");
    }
    void finish(Lane& lane, Transfer& t) {
        bench_.wait(t);  // with START, the driver reads the channel's status: time passes
        tally();
        failed_ |= !bench_.check(t) && hw_ring_;
        const uint64_t bytes = t.bytes();
        const uint64_t arrived_at = arrival_.at(&t);
        arrival_.erase(&t);
        bench_.release(t);
        results_.completed(bytes, arrived_at, bench_.now_cycles());
        --lane.admitted;
        bench_.count_queued(-1, lane.channel);
        if (!lane.blocked.empty() && !failed_) {
            enter(lane, lane.blocked.front());
            lane.blocked.pop_front();
        }
    }
    // Requests complete in order within a ring.
    Transfer* oldest(const Lane& lane) const { return bench_.oldest(lane.channel); }

    ScenarioBench& bench_;
    const RequestStream& requests_;
    RequestResults& results_;
    const WorkloadConfig& w_;
    const bool hw_ring_;
    const std::vector<dma_hw_direction> directions_;
    std::vector<Lane> lanes_;
    uint64_t arrived_ = 0;
    bool failed_ = false;
    /// Arrival cycles of the requests prepared, until they finish.
    std::unordered_map<const Transfer*, uint64_t> arrival_;
};

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
    // One TAIL write may hand the engine every request the ring holds, and
    // its walk limits count from each TAIL write.
    auto ring_fits = [&](uint64_t longest) -> std::optional<ScenarioRefusal> {
        if (!engine_ring(config)) return std::nullopt;
        const uint64_t slots = w.ring_entries * longest;
        if (slots > kMaxRingSlots)
            return ScenarioRefusal{
                fmt::format("a descriptor ring of workload.ring_entries = {} requests of {} "
                            "descriptors needs {} slots, more than the {} the driver allocates "
                            "at once",
                            w.ring_entries, longest, slots, kMaxRingSlots),
                {"workload.ring_entries", "workload.entries", "dma.submission"}};
        if (slots > config.platform.dma.max_descriptors)
            return ScenarioRefusal{
                fmt::format("one TAIL write may hand the engine all workload.ring_entries = {} "
                            "requests of {} descriptors, {} descriptors, more than "
                            "dma.max_descriptors = {} it walks from one TAIL write: it would stop "
                            "with TAIL_UNREACHED; raise dma.max_descriptors or lower "
                            "workload.ring_entries",
                            w.ring_entries, longest, slots, config.platform.dma.max_descriptors),
                {"workload.ring_entries", "workload.entries", "dma.max_descriptors"}};
        return std::nullopt;
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

    RequestResults results(start, total);
    Admission admission(bench, requests, results);
    uint64_t closed_due = closed ? std::min(w.in_flight, total) : 0;
    while (results.settled() < total && !admission.failed()) {
        const uint64_t now = bench.now_cycles();
        admission.tally();
        for (; closed_due > 0 && admission.arrived() < total; --closed_due) admission.arrive(now);
        while (!closed && admission.arrived() < total && arrivals.peek() <= now)
            admission.arrive(arrivals.pop());
        if (admission.finish_completed()) {
            if (closed) ++closed_due;  // a closed stream's next request arrives now
            continue;
        }
        admission.start_next();
        const bool more = !closed && admission.arrived() < total;
        if (admission.in_flight())
            bench.wait_for_completion_until(more ? arrivals.peek() : ScenarioBench::kNoDeadline);
        else if (more)
            bench.delay_cycles(arrivals.peek() - now);
    }
    admission.close();
    results.report(bench, offered);
}
