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
    explicit MeasurementWindow(const model::Platform& platform) : platform_(platform) {}

    /// Measured `t` was just submitted (its START or TAIL write completed):
    /// the window opens at the first, with the CPU's `tally` then.
    void open(const Transfer& t, const CpuTally& tally);
    /// The CPU's handling of `t`'s completion ends at `done_at`, with its
    /// `tally` then: what the window closes on if `t` is the last.
    void stamp(Transfer& t, sc_core::sc_time done_at, const CpuTally& tally) const;
    /// Measured `t` was waited: its bytes count, and the window reaches its completion.
    void add(const Transfer& t);
    /// The measured counts the submission ports add their descriptors to.
    Window& counts() { return counts_; }
    /// The measured transfers' window and counts; none if none completed.
    std::optional<Window> measured() const;

private:
    /// The bus data channels' busy cycles before `at`.
    model::BusBusy bus_busy_before(sc_core::sc_time at) const;

    const model::Platform& platform_;
    std::optional<sc_core::sc_time> first_start_;
    std::optional<sc_core::sc_time> last_completion_;
    model::BusBusy bus_at_first_start_;
    model::BusBusy bus_at_last_completion_;
    CpuTally tally_at_first_start_, tally_at_last_completion_;
    Window counts_;  ///< the measured transfers' bytes, descriptors and links
};

}  // namespace dmasim::tb
