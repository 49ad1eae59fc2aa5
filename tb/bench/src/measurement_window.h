// measurement_window.h - the measured window of a run: from the first
// measured transfer's START (or TAIL) write to the last measured
// completion the CPU handled, with the bus's busy cycles and the CPU's
// tally at both ends and the measured transfers' counts (measure.h's
// Window). A transfer excluded from measurement leaves it unchanged.
#pragma once

#include <dmasim/model/platform.h>
#include <dmasim/tb/scenario.h>

#include <optional>
#include <systemc>

#include "measure.h"

namespace dmasim::tb {

class MeasurementWindow {
public:
    explicit MeasurementWindow(model::Platform& platform) : platform_(platform) {}

    /// Measured `t` was just submitted (its START or TAIL write completed):
    /// the window opens at the first, with the CPU's `tally` then.
    void open(const Transfer& t, const CpuTally& tally);
    /// CPU work beginning at `began` may end in the window's close: while
    /// the hold lives, stamp() can mark the bus at any time from `began` on.
    model::Platform::BusHold hold_from(sc_core::sc_time began);
    /// The CPU's handling of `t`'s completion ends at `done_at`, with its
    /// `tally` then: what the window closes on if `t` is the last.
    void stamp(Transfer& t, sc_core::sc_time done_at, const CpuTally& tally);
    /// Measured `t` was waited: its bytes count, and the window reaches its completion.
    void add(const Transfer& t);
    /// The measured counts the submission ports add their descriptors to.
    Window& counts() { return counts_; }
    /// The measured transfers' window and counts; none if none completed.
    std::optional<Window> measured() const;

private:
    /// Counts the bus data channels' busy cycles before `at`, however late
    /// a burst is booked there (model::Platform::mark_bus()).
    model::Platform::BusMark mark_bus(sc_core::sc_time at);

    model::Platform& platform_;
    std::optional<sc_core::sc_time> first_start_;
    std::optional<sc_core::sc_time> last_completion_;
    model::Platform::BusMark bus_at_first_start_;
    model::Platform::BusMark bus_at_last_completion_;
    CpuTally tally_at_first_start_, tally_at_last_completion_;
    Window counts_;  ///< the measured transfers' bytes, descriptors and links
};

}  // namespace dmasim::tb
