// The run invariants (measure.h): a sound result passes, and each rule
// fires on a result doctored to break it, and only that rule. These are
// the only statement of the rules; every run applies them, so the soak
// and the config mutator rely on dmasim's exit status.
#include "measure.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace dmasim::tb {
namespace {

constexpr unsigned kWidth = 16;
constexpr double kBandwidth = 8;

model::PlatformParams params() {
    model::PlatformParams p;
    p.bus.width_bytes = kWidth;
    p.memory.bandwidth_bytes_per_cycle = kBandwidth;
    return p;
}

const sc_core::sc_time kPeriod(1, sc_core::SC_NS);

// 800 bytes in 100 cycles of 1 ns: at the memory's bandwidth exactly;
// 10 descriptors, each interrupting.
RunResult sound() {
    RunResult r;
    r.bytes = 800;
    r.cycles = 100;
    r.sim_time_ns = 100;
    r.bytes_per_cycle = kBandwidth;
    r.bus_utilization = 1;
    r.descriptors = 10;
    r.interrupts = 10;
    r.integrity = true;
    r.account[0] = 100;  // every cycle moving data
    return r;
}

// The same 800 bytes read from memory (mem_to_dev) by one channel whose
// data window is 100 cycles.
Carried carried() {
    Carried c;
    c.bytes_read = 800;
    c.channels.push_back({800, 100});
    return c;
}

TEST(TbInvariants, SoundResultPasses) {
    EXPECT_TRUE(invariant_violations(sound(), carried(), params(), kPeriod).empty());
}

TEST(TbInvariants, EachBrokenRuleIsReportedOnItsOwn) {
    using Doctor = std::function<void(RunResult&, Carried&, model::PlatformParams&)>;
    const std::vector<std::pair<std::string, Doctor>> cases = {
        // The read channel alone above the width (no bandwidth cap); the
        // total is within two channels' worth, as writes moved data too.
        {"the read channel carried 16.01 B/cycle, above its peak bus.width_bytes",
         [](RunResult& r, Carried& c, model::PlatformParams& p) {
             p.memory.bandwidth_bytes_per_cycle = 0;
             c.bytes_read = 1601;
             c.bytes_written = 1;
             c.channels = {{1601, 101}, {1, 1}};
             r.bytes_per_cycle = 16.02;
         }},
        // PCIe posted writes once broke this one (issue 28).
        {"the write channel carried 8.01 B/cycle, above its peak "
         "memory.bandwidth_bytes_per_cycle",
         [](RunResult& r, Carried& c, model::PlatformParams&) {
             c.bytes_written = 801;
             c.channels.push_back({801, 101});
             r.bytes_per_cycle = 12;
         }},
        // A one-sided run above one channel's peak in total (issue 35 row 1).
        {"bytes_per_cycle = 8.01 exceeds the peak of the 1 bus channel",
         [](RunResult& r, Carried&, model::PlatformParams&) { r.bytes_per_cycle = 8.01; }},
        // mem_to_dev finishing a segment before its beats crossed the read
        // channel (issue 35 row 1).
        {"channel 0 moved 800 B in a data window of 99 cycles",
         [](RunResult&, Carried& c, model::PlatformParams&) {
             c.channels[0].data_window_cycles = 99;
         }},
        // A faulted, unmeasured channel's interrupts once counted (issue 28).
        {"interrupts = 11 exceeds descriptors = 10",
         [](RunResult& r, Carried&, model::PlatformParams&) { r.interrupts = 11; }},
        {"bus_utilization",
         [](RunResult& r, Carried&, model::PlatformParams&) { r.bus_utilization = 1.001; }},
        // Two periods off: within one period is rounding of the window's
        // ends. The account follows the cycles, so only the time is off.
        {"sim_time_ns",
         [](RunResult& r, Carried&, model::PlatformParams&) {
             r.cycles = 102;
             r.account[0] = 102;
         }},
        {"the cycle account adds up to 99, but cycles = 100",
         [](RunResult& r, Carried&, model::PlatformParams&) { r.account[0] = 99; }},
        // A DRAM figure that moved with the host's settle batch (issue 39).
        {"3 memory or device bookings asked for cycles their channel had already settled past",
         [](RunResult&, Carried& c, model::PlatformParams&) { c.late_bookings = 3; }},
    };
    for (const auto& [names, doctor] : cases) {
        SCOPED_TRACE(names);
        RunResult r = sound();
        Carried c = carried();
        model::PlatformParams p = params();
        doctor(r, c, p);
        const auto v = invariant_violations(r, c, p, kPeriod);
        ASSERT_EQ(v.size(), 1u) << (v.empty() ? "" : v[0]);
        EXPECT_NE(v[0].find(names), std::string::npos) << v[0];
    }
}

// A dev_to_mem channel beside a mem_to_dev one: the write and the read
// channel each run at their peak, so the run moves twice one channel's
// worth, legitimately (issue 35 row 2).
TEST(TbInvariants, ReadsAndWritesOnSeparateChannelsMayAddUp) {
    RunResult r = sound();
    r.bytes = 1600;
    r.bytes_per_cycle = 2 * kBandwidth;
    Carried c;
    c.bytes_read = 800;
    c.bytes_written = 800;
    c.channels = {{800, 100}, {800, 100}};
    EXPECT_TRUE(invariant_violations(r, c, params(), kPeriod).empty());
    // mem_to_mem uses both channels for the same bytes: no more than one's worth.
    c.bytes_read = c.bytes_written = 1600;
    EXPECT_FALSE(invariant_violations(r, c, params(), kPeriod).empty());
}

// A measured transfer stopped by an error interrupts without completing a
// descriptor; that run fails integrity, and its count is no violation.
TEST(TbInvariants, AnErrorStopMayInterruptWithoutADescriptor) {
    RunResult r = sound();
    r.integrity = false;
    r.descriptors = 0;
    r.interrupts = 1;
    EXPECT_TRUE(invariant_violations(r, carried(), params(), kPeriod).empty());
}

}  // namespace
}  // namespace dmasim::tb
