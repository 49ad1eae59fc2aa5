// completion_path.h - how completions come back to the CPU
// (workload.completion): the driver's interrupt handler on each
// interrupt, or a poll every workload.poll_interval_cycles while a
// channel has work. Each asks every channel's submission port what it
// reaped, bills the CPU its cycles (cpu.*), marks what completed at the
// time that handling ends and wakes the scenario's waits.
#pragma once

#include <memory>
#include <systemc>
#include <vector>

#include "testbench.h"

namespace dmasim::tb {

class Testbench::CompletionPath {
public:
    CompletionPath(const SimConfig& config, const model::Platform& platform, Cpu& cpu,
                   dmasim_dev& dd, const std::vector<std::unique_ptr<Port>>& ports,
                   MeasurementWindow& window)
        : config_(config),
          platform_(platform),
          cpu_(cpu),
          dd_(dd),
          ports_(ports),
          window_(window) {}

    /// The driver's interrupt handler, run by the CPU's interrupt thread;
    /// false if nothing was pending.
    bool on_interrupt(sc_core::sc_time raised);
    /// workload.completion polling: polls every workload.poll_interval_cycles
    /// while a channel has work, as the interrupt thread handles interrupts.
    void poll_thread();
    /// A transfer started or a request was submitted: the poll thread looks.
    void work_arrived() { work_event_.notify(sc_core::SC_ZERO_TIME); }
    /// Sleeps until the completion of `t` has been handled.
    void await(const Transfer& t);
    /// Sleeps until cycle `until` (kNoDeadline: no limit) or the next
    /// completion handled, whichever comes first.
    void await_until(uint64_t until);
    /// The CPU's handler runs and polls for measured transfers so far.
    const CpuTally& tally() const { return tally_; }
    /// The CPU's handler and poll time, for the run's cycle account.
    const model::CycleTimeline& host_timeline() const { return host_timeline_; }

private:
    bool work_in_flight() const;
    /// One poll of every channel with work: the driver's reads, then the
    /// completions it found.
    void poll();
    /// Bills `reaped` to the CPU's tally; returns its cost in cycles
    /// beyond `fixed` (the handler's or the poll's own).
    uint64_t bill(const Reaped& reaped, uint64_t fixed);
    /// Bills the CPU `cost` cycles from `began` for what a handler run or
    /// poll found, then marks `completed` as seen then and wakes waiters;
    /// if `by_ring_reads` (a ring's reap found some of them) no earlier than
    /// now, when the reads that found them have ended.
    void hand_over(const std::vector<Transfer*>& completed, sc_core::sc_time began, uint64_t cost,
                   bool by_ring_reads);

    const SimConfig& config_;
    const model::Platform& platform_;
    Cpu& cpu_;
    dmasim_dev& dd_;
    const std::vector<std::unique_ptr<Port>>& ports_;  ///< by channel
    MeasurementWindow& window_;
    CpuTally tally_;  ///< handler runs and polls for measured transfers
    model::CycleTimeline host_timeline_;
    sc_core::sc_event work_event_;  ///< a transfer started or a request was submitted
};

}  // namespace dmasim::tb
