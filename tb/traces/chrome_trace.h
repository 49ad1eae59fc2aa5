// chrome_trace.h - a TraceSink that writes Chrome trace-event JSON that
// Perfetto (ui.perfetto.dev) and chrome://tracing import whole:
//   - one process per channel ("DMA channel N": descriptor fetch, decode,
//     read, write, write-back, IRQ) and per shared resource (RAM read and
//     write channels, device port, background master);
//   - bursts that overlap in time go to separate lanes ("read", "read 2",
//     ...), one thread each, so no two slices on a thread partially overlap
//     (Perfetto drops such slices);
//   - timestamps in microseconds with exactly three decimals, i.e. whole
//     nanoseconds, so the importer's rounding cannot create overlaps;
//   - counters (reads/writes in flight, buffer bytes held, descriptor FIFO
//     level, bytes moved) per channel, written at the end in time order;
//   - the cycle account of each channel over time: one counter per cause,
//     its share of each of up to kAccountSamples equal slices of the run;
//   - an optional window [from, to) in cycles and a size cap;
//   - optionally, flow arrows that follow each descriptor from the fetch
//     that read it through its decode, data bursts and write-back to the
//     interrupt that reported it.
#pragma once

#include <dmasim/files/atomic_file.h>
#include <dmasim/model/cycle_account.h>
#include <dmasim/model/platform.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dmasim::tb {

/// Which part of a run a trace covers, and how large it may grow.
struct TraceLimits {
    uint64_t from_cycle = 0;
    uint64_t to_cycle = UINT64_MAX;  ///< exclusive
    uint64_t max_bytes = 256ull << 20;
};

class ChromeTrace : public model::TraceSink {
public:
    /// `flows`: also link each descriptor's slices with flow events.
    ChromeTrace(const std::string& path, double clock_mhz, const TraceLimits& limits,
                bool flows = false);

    void slice(model::TraceTrack track, unsigned channel, const char* what, uint64_t from,
               uint64_t to, const model::TraceArgs& args) override;
    void instant(model::TraceTrack track, unsigned channel, const char* what, uint64_t at) override;
    void counter(model::TraceCounter counter, unsigned channel, uint64_t at,
                 int64_t delta) override;

    /// Slices of [from, to) the account track of a channel is drawn in.
    static constexpr uint64_t kAccountSamples = 200;
    /// Writes the cycle account of `channel` over [from, to) (the measured
    /// window, clipped to the trace's) as counters of each cause's share.
    void account(unsigned channel, const model::CycleTimeline& timeline, uint64_t from,
                 uint64_t to);

    /// Writes the counters, ends the JSON document and moves it into place;
    /// returns why it could not, or "" once it is in place.
    std::string finish();
    /// Why the size cap cut the trace short, or "" if it did not.
    std::string cap_note() const;

private:
    struct Lanes {
        std::vector<uint64_t> end_ns;  ///< end of the last slice in each lane
        std::vector<unsigned> tid;
    };
    struct Change {
        uint64_t at;
        int64_t delta;
    };
    using CounterKey = std::pair<model::TraceCounter, unsigned>;
    /// Where a flow event binds: a moment inside a slice of a thread.
    struct FlowPoint {
        uint64_t ns;
        unsigned pid, tid;
    };
    struct FetchSlice {
        uint64_t address, bytes, end_cycle;
        FlowPoint point;
    };
    /// The slices of one descriptor (decode, bursts, write-back).
    struct DescriptorSlices {
        uint64_t slot = model::TraceArgs::kUnset;  ///< its slot's address, from its decode
        uint64_t decoded_from = 0;                 ///< its decode's first cycle
        uint64_t end_cycle = 0;                    ///< the last of its slices ends here
        std::vector<FlowPoint> points;
    };
    struct Irq {
        uint64_t cycle;
        FlowPoint point;
    };

    uint64_t ns_of(uint64_t cycle) const;
    bool admit(size_t estimated_bytes, uint64_t cycle);
    unsigned pid_of(model::TraceTrack track, unsigned channel);
    unsigned lane_tid(model::TraceTrack track, unsigned channel, uint64_t start_ns,
                      uint64_t end_ns);
    void event(const std::string& json);
    void write_counters();
    void note_flow(model::TraceTrack track, unsigned channel, uint64_t from, uint64_t to,
                   const FlowPoint& point, const model::TraceArgs& args);
    std::map<std::pair<unsigned, uint64_t>, FlowPoint> fetch_points() const;
    std::optional<FlowPoint> irq_after(unsigned channel, uint64_t cycle) const;
    void write_flows();

    AtomicFile file_;
    double clock_mhz_;
    TraceLimits limits_;
    uint64_t written_ = 0;
    bool first_ = true;
    std::optional<uint64_t> capped_at_;  ///< cycle of the first event left out
    std::map<std::pair<model::TraceTrack, unsigned>, Lanes> lanes_;
    std::map<unsigned, bool> processes_;  ///< pids named so far
    unsigned next_tid_ = 1;
    std::map<CounterKey, int64_t> base_;  ///< sum of the changes before the window
    std::map<CounterKey, std::vector<Change>> changes_;
    uint64_t pending_counter_events_ = 0;
    bool flows_;
    std::map<unsigned, std::vector<FetchSlice>> fetches_;  ///< per channel
    std::map<std::pair<unsigned, uint64_t>, DescriptorSlices> descriptors_;
    std::map<unsigned, std::vector<Irq>> irqs_;  ///< per channel, in time order
};

}  // namespace dmasim::tb
