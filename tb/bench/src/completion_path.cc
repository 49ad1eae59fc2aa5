// completion_path.cc - see completion_path.h.
#include "completion_path.h"

#include <dmasim/model/clock.h>

#include <algorithm>

#include "submission_port.h"

namespace dmasim::tb {

// Runs in the CPU's interrupt thread: the driver's handler and the CPU
// time completing what it reaped (cpu.*), counted from the handler's entry
// (its register accesses are part of that time).
bool Testbench::CompletionPath::on_interrupt(sc_core::sc_time raised) {
    const model::Platform::BusHold hold = window_.hold_from(raised);
    const bool handled = dmasim_irq_handler(0, &dd_) == IRQ_HANDLED;
    if (!handled) return false;
    Reaped reaped;
    std::vector<Transfer*> completed;
    for (unsigned ch = 0; ch < dd_.nr_channels; ++ch)
        ports_[ch]->interrupt(dd_.irq_pending & (1u << ch), dd_.irq_completed & (1u << ch), reaped,
                              completed);
    // Only work for measured transfers counts: a faulted or warm-up
    // channel's interrupts are not the measured traffic's (issue 28).
    if (reaped.for_measured) tally_.interrupts += 1;
    hand_over(completed, raised, bill(reaped, config_.cpu.irq_handler_cycles),
              reaped.by_ring_reads);
    return handled;
}

void Testbench::CompletionPath::poll_thread() {
    const sc_core::sc_time interval = platform_.clock().at(config_.workload.poll_interval_cycles);
    for (;;) {
        sc_core::wait(work_event_);
        // The first poll comes an interval after work appears; each next
        // one an interval after the previous one began.
        sc_core::sc_time next = sc_core::sc_time_stamp() + interval;
        while (work_in_flight()) {
            if (next > sc_core::sc_time_stamp()) sc_core::wait(next - sc_core::sc_time_stamp());
            next = sc_core::sc_time_stamp() + interval;
            poll();
        }
    }
}

bool Testbench::CompletionPath::work_in_flight() const {
    for (unsigned ch = 0; ch < dd_.nr_channels; ++ch)
        if (ports_[ch]->pending()) return true;
    return false;
}

// The driver reads each busy channel's STATUS (and reaps a ring: its
// status words); the poll costs cpu.poll_cycles, counted from its start.
void Testbench::CompletionPath::poll() {
    const sc_core::sc_time began = sc_core::sc_time_stamp();
    const model::Platform::BusHold hold = window_.hold_from(began);
    bool measured = false;
    Reaped reaped;
    std::vector<Transfer*> completed;
    for (unsigned ch = 0; ch < dd_.nr_channels; ++ch) {
        if (const Transfer* t = ports_[ch]->pending()) measured |= t->measured_;
        ports_[ch]->poll(reaped, completed);
    }
    // A poll of measured work is billed whether or not it found any done.
    reaped.for_measured |= measured;
    if (reaped.for_measured) tally_.polls += 1;
    hand_over(completed, began, bill(reaped, config_.cpu.poll_cycles), reaped.by_ring_reads);
}

uint64_t Testbench::CompletionPath::bill(const Reaped& reaped, uint64_t fixed) {
    if (reaped.for_measured)
        tally_.busy_cycles +=
            fixed + config_.cpu.per_descriptor_cycles * reaped.measured_descriptors;
    return fixed + config_.cpu.per_descriptor_cycles * reaped.descriptors;
}

// Every transfer the handling completed gets the time that work ended.
// A ring's reap finds the requests whose status words its reads saw, some
// done only while the handler ran: the handling ends no earlier than
// those reads, so no request is billed done before it was seen.
void Testbench::CompletionPath::hand_over(const std::vector<Transfer*>& completed,
                                          sc_core::sc_time began, uint64_t cost,
                                          bool by_ring_reads) {
    const sc_core::sc_time billed_end = began + platform_.clock().period() * double(cost);
    const sc_core::sc_time done_at =
        by_ring_reads ? std::max(billed_end, sc_core::sc_time_stamp()) : billed_end;
    const model::Clock& clock = platform_.clock();
    host_timeline_.charge(model::Cause::cpu, clock.cycle_at_or_after(began),
                          clock.cycle_at_or_after(done_at));
    if (done_at > sc_core::sc_time_stamp()) sc_core::wait(done_at - sc_core::sc_time_stamp());
    for (Transfer* t : completed) {
        t->completed_ = true;
        window_.stamp(*t, done_at, tally_);
    }
    // await() holds the scenario until this handling is over.
    if (!completed.empty()) cpu_.completion_event().notify(sc_core::SC_ZERO_TIME);
}

void Testbench::CompletionPath::await(const Transfer& t) {
    while (!t.completed_) sc_core::wait(cpu_.completion_event());
}

void Testbench::CompletionPath::await_until(uint64_t until) {
    const uint64_t now = platform_.clock().cycle_of(sc_core::sc_time_stamp());
    if (until == kNoDeadline)
        sc_core::wait(cpu_.completion_event());
    else if (until > now)
        sc_core::wait(platform_.clock().at(until - now), cpu_.completion_event());
}

}  // namespace dmasim::tb
