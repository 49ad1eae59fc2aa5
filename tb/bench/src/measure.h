// measure.h - the result keys (docs/statistics.md), from the measured
// window and the model's statistics.
#pragma once

#include <dmasim/model/platform.h>
#include <dmasim/tb/run.h>

#include <cstdint>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

namespace dmasim::tb {

/// What the testbench observed of the measured transfers, and only of
/// them: a transfer excluded from measurement (a warm-up) adds nothing.
struct Window {
    sc_core::sc_time first_start;  ///< first START write completed
    /// last completion interrupt rose (or poll began), plus its CPU cost;
    /// a ring's, no earlier than the reap's reads that found it
    sc_core::sc_time last_completion;
    uint64_t bytes = 0;   ///< payload the channels reported done
    uint64_t descriptors = 0;  ///< data descriptors completed
    uint64_t chain_links = 0;
    uint64_t descriptor_bytes_fetched = 0;
    uint64_t interrupts = 0;       ///< handled inside the window
    uint64_t polls = 0;            ///< polls made inside the window
    uint64_t cpu_busy_cycles = 0;  ///< spent on both
    model::BusBusy busy;           ///< bus busy cycles inside [first_start, last_completion)
    /// Of `bytes`, those read from memory (mem_to_mem, mem_to_dev) and those
    /// written to it (mem_to_mem, dev_to_mem): what each bus channel carried.
    uint64_t bytes_read = 0;
    uint64_t bytes_written = 0;
};

/// The window as clock edges [first, last): the cycles a run is measured in.
struct WindowCycles {
    uint64_t first, last;
};
WindowCycles window_cycles(const Window& window, const model::Clock& clock);

/// Fills the time, throughput, count and utilisation keys of `result` if
/// anything was measured, and its statistics (model counters plus each
/// channel's phases as shares of the measured cycles) in any case. Throws
/// std::logic_error if a figure is impossible (invariant_violations;
/// `result.integrity` must be judged already).
/// `host` holds the CPU's own time (Cause::cpu), accounted with the channels'.
void measure(const std::optional<Window>& window, const model::Platform& platform,
             const model::CycleTimeline& host, RunResult& result);

/// What the bus carried in a run, beside its result: the physics
/// invariants bound these.
struct Carried {
    uint64_t bytes_read = 0;     ///< payload over the read channel in the window
    uint64_t bytes_written = 0;  ///< payload over the write channel in the window
    /// Each DMA channel's payload and data window (ChannelStats).
    struct Channel {
        uint64_t bytes = 0;
        uint64_t data_window_cycles = 0;
    };
    std::vector<Channel> channels;
    /// Platform::late_bookings() at the end of the run.
    uint64_t late_bookings = 0;
};

/// The figures no correct model can produce: more payload over the read or
/// the write channel than its width (or the memory's bandwidth) carries in
/// the window's cycles, and in total more than the channels the run used
/// (a read and a write channel run at once: duplex); a DMA channel that
/// moved its bytes in a data window shorter than bytes / width; more
/// interrupts than descriptors in the measured window, utilisation above
/// 1, cycles that disagree with the simulated time and the clock period,
/// bookings whose timing hung on when the host settled (late_bookings).
/// Returns one message per violation (empty = sound). The one statement of
/// these rules: every run applies it, so the soak and the config mutator
/// rely on dmasim's exit status and message instead of restating them.
std::vector<std::string> invariant_violations(const RunResult& result, const Carried& carried,
                                              const model::PlatformParams& params,
                                              sc_core::sc_time period);

}  // namespace dmasim::tb
