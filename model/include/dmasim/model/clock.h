// clock.h - conversion between simulated cycles and SystemC time.
//
// The model computes every timing decision in integer cycles of the
// platform clock and touches sc_time only where it synchronises with the
// SystemC kernel (waits, register accesses, trace records).
#pragma once

#include <cmath>
#include <cstdint>

#include <systemc>

namespace dmasim::model {

class Clock {
public:
    explicit Clock(double mhz) : period_(1000.0 / mhz, sc_core::SC_NS), period_s_(1e-6 / mhz) {}

    sc_core::sc_time period() const { return period_; }
    /// SystemC time of the start of cycle c.
    sc_core::sc_time at(uint64_t c) const { return period_ * static_cast<double>(c); }
    /// The first cycle that starts at or after t.
    uint64_t cycle_at_or_after(const sc_core::sc_time& t) const {
        double c = t.to_seconds() / period_s_;
        double r = std::round(c);
        // Times produced by at() round-trip exactly; anything else rounds up.
        return static_cast<uint64_t>(std::fabs(c - r) < 1e-6 ? r : std::ceil(c));
    }
    uint64_t now() const { return cycle_at_or_after(sc_core::sc_time_stamp()); }

private:
    sc_core::sc_time period_;
    double period_s_;
};

}  // namespace dmasim::model
