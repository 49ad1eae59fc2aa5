// clock.h - conversion between simulated cycles and SystemC time.
//
// The model computes every timing decision in integer cycles of the
// platform clock and touches sc_time only where it synchronises with the
// SystemC kernel (waits, register accesses, trace records). The period is
// held in SystemC time-resolution units (1 ps by default), rounded to the
// nearest unit, so conversions are exact integer arithmetic; the command
// line accepts only clocks whose period is a whole number of units, so the
// rounding never changes the clock (docs/timing-model.md).
#pragma once

#include <cstdint>
#include <systemc>

namespace dmasim::model {

class Clock {
public:
    explicit Clock(double mhz)
        : period_(1000.0 / mhz, sc_core::SC_NS), ticks_(period_.value() ? period_.value() : 1) {}

    sc_core::sc_time period() const { return period_; }
    /// SystemC time of the start of cycle c.
    sc_core::sc_time at(uint64_t c) const { return sc_core::sc_time::from_value(c * ticks_); }
    /// The first cycle that starts at or after t.
    uint64_t cycle_at_or_after(const sc_core::sc_time& t) const {
        return (t.value() + ticks_ - 1) / ticks_;
    }
    /// The cycle that contains t (the last one starting at or before it).
    uint64_t cycle_of(const sc_core::sc_time& t) const { return t.value() / ticks_; }
    uint64_t now() const { return cycle_at_or_after(sc_core::sc_time_stamp()); }

private:
    sc_core::sc_time period_;
    uint64_t ticks_;  ///< period in time-resolution units
};

}  // namespace dmasim::model
