// memory.kind dram: the controller against the arithmetic of its timings
// (docs/memory.md). The platform clock is 1000 MHz and the DRAM the
// DDR4-3200 defaults (0.625 ns clock), so 1.6 DRAM clocks make a cycle.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "dram_controller.h"

namespace dmasim::model::test {
namespace {

constexpr double kClockMhz = 1000;
constexpr double kClocksPerCycle = 1.6;
constexpr uint64_t kBurst = 64;  // 64-bit channel x BL8

MemoryParams ddr4() {
    MemoryParams m;
    m.kind = MemoryKind::dram;
    m.mapping = DramMapping::bank_interleaved;
    m.size_bytes = uint64_t{1} << 32;
    return m;
}

MemoryParams without_refresh() {
    MemoryParams m = ddr4();
    m.t_refi_ns = 0;
    return m;
}

/// Writes drained from `high` queued down to none, without refresh.
MemoryParams drained_at(unsigned high) {
    MemoryParams m = without_refresh();
    m.write_high_watermark = high;
    m.write_low_watermark = 0;
    return m;
}

/// DRAM clocks of a time in ns, rounded up as JEDEC does.
double clocks(double ns) { return std::ceil(ns / 0.625 - 0.01); }

/// Address of burst `n` in (group, bank) and `row` with bank_interleaved:
/// channel, group, bank, rank, column, row from the low bits.
uint64_t address(unsigned group, unsigned bank, uint64_t row, uint64_t column = 0) {
    const MemoryParams m = ddr4();
    const uint64_t bursts_per_row = m.columns / m.burst_length;
    const uint64_t n =
        group + m.bank_groups * (bank + m.banks_per_group * (column + bursts_per_row * row));
    return n * kBurst;
}

TEST(ModelDram, StreamingOpenPageReachesPeakLessRefresh) {
    DramController dram(ddr4(), kClockMhz);
    const uint64_t bytes = 8u << 20;  // ~330 us at peak: ~42 refreshes
    uint64_t end = 0;
    for (uint64_t a = 0; a < bytes; a += 256) end = std::max(end, dram.read(0, a, 256).data_end);
    const double peak = 64 / 8.0 * 3200 / kClockMhz;  // 25.6 B/cycle
    const double refresh_share = clocks(350) / clocks(7800);
    const double expected = peak * (1 - refresh_share);
    const double achieved = static_cast<double>(bytes) / end;
    RecordProperty("achieved_bytes_per_cycle", std::to_string(achieved));
    RecordProperty("expected_bytes_per_cycle", std::to_string(expected));
    EXPECT_NEAR(achieved, expected, 0.02 * expected);
    const DramStats s = dram.stats();
    EXPECT_EQ(s.reads, bytes / kBurst);
    EXPECT_GT(s.refreshes, 30u);
    // A bank's row changes once its 8 KiB are read; refreshes close the 16 banks.
    EXPECT_LE(s.row_conflicts + s.row_misses, bytes / 8192 + 16 * (s.refreshes + 1));
    EXPECT_GT(s.row_hits, s.reads * 9 / 10);
}

// Every burst opens a new row in the next bank: activates pace them, one per
// max(tRRD_S, tFAW / 4, tBURST) clocks (tFAW as a spacing, docs/memory.md).
TEST(ModelDram, RandomRowsOverManyBanksArePacedByActivates) {
    DramController dram(without_refresh(), kClockMhz);
    const uint64_t n = 4096;
    uint64_t end = 0;
    for (uint64_t i = 0; i < n; ++i)
        end = std::max(end, dram.read(0, address(i % 4, i / 4 % 4, i + 1), kBurst).data_end);
    const double per_access =
        std::max({clocks(2.5), std::ceil(clocks(21) / 4), 4.0}) / kClocksPerCycle;
    RecordProperty("cycles_per_access", std::to_string(static_cast<double>(end) / n));
    EXPECT_NEAR(static_cast<double>(end) / n, per_access, 0.02 * per_access);
    EXPECT_EQ(dram.stats().row_hits, 0u);
}

// Random addresses can only be slower than that bound.
TEST(ModelDram, RandomReadsAreNoFasterThanTheActivateBound) {
    DramController dram(without_refresh(), kClockMhz);
    std::mt19937_64 rng(7);
    const uint64_t n = 4096;
    uint64_t end = 0;
    for (uint64_t i = 0; i < n; ++i)
        end = std::max(
            end, dram.read(0, rng() % (uint64_t{1} << 32) / kBurst * kBurst, kBurst).data_end);
    const double bound = std::ceil(clocks(21) / 4) / kClocksPerCycle;
    RecordProperty("cycles_per_access", std::to_string(static_cast<double>(end) / n));
    EXPECT_GE(static_cast<double>(end) / n, 0.98 * bound);
    const DramStats s = dram.stats();
    EXPECT_GT(s.row_conflicts + s.row_misses, n * 9 / 10);
}

TEST(ModelDram, SingleBankRowConflictsCostTrcEach) {
    DramController dram(without_refresh(), kClockMhz);
    const uint64_t n = 1000;
    uint64_t first = 0, last = 0;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t start = dram.read(0, address(1, 2, i), kBurst).data_start;
        if (i == 0) first = start;
        last = start;
    }
    const double per_access = clocks(45.75) / kClocksPerCycle;
    RecordProperty("cycles_per_access",
                   std::to_string(static_cast<double>(last - first) / (n - 1)));
    EXPECT_NEAR(static_cast<double>(last - first) / (n - 1), per_access, 0.02 * per_access);
    EXPECT_EQ(dram.stats().row_conflicts, n - 1);
}

// A read and a write to one open row, over and over, with every write
// drained at once: each pair costs read-to-write (tRTW) plus the write's
// data (tCWL + tBURST) plus write-to-read in one bank group (tWTR_L).
TEST(ModelDram, ReadWriteAlternationCostsTheTurnarounds) {
    DramController dram(drained_at(1), kClockMhz);
    const uint64_t n = 1000;
    uint64_t first = 0, last = 0;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t start = dram.read(0, address(0, 0, 5, i % 64), kBurst).data_start;
        dram.write(0, address(0, 0, 5, (i + 1) % 64), kBurst);
        if (i == 0) first = start;
        last = start;
    }
    const double pair = (12 + 16 + 4 + clocks(7.5)) / kClocksPerCycle;
    RecordProperty("cycles_per_pair", std::to_string(static_cast<double>(last - first) / (n - 1)));
    EXPECT_NEAR(static_cast<double>(last - first) / (n - 1), pair, 0.02 * pair);
    const DramStats s = dram.stats();
    EXPECT_EQ(s.read_to_write_turnarounds, n);
    EXPECT_EQ(s.write_to_read_turnarounds, n - 1);
    EXPECT_EQ(s.row_misses, 1u);
}

// Writes below the high watermark wait in the queue: a read after 23 of
// them finds none gone out; the 24th drains down to the low watermark in
// one run, so the read after it turns the bus around.
TEST(ModelDram, WritesDrainByWatermarks) {
    const MemoryParams m = ddr4();
    for (const unsigned writes : {m.write_high_watermark - 1, m.write_high_watermark}) {
        DramController dram(without_refresh(), kClockMhz);
        for (uint64_t i = 0; i < writes; ++i) dram.write(0, address(0, 0, 1, i), kBurst);
        dram.read(0, address(1, 0, 1), kBurst);
        EXPECT_EQ(dram.stats().write_to_read_turnarounds, writes < m.write_high_watermark ? 0u : 1u)
            << writes << " writes";
    }
}

// The writes still queued when the run ends are drained then: every
// write's burst is counted once, and asking twice changes nothing.
TEST(ModelDram, QueuedWritesAreDrainedWhenTheRunEnds) {
    DramController dram(without_refresh(), kClockMhz);
    const uint64_t writes = 10;  // below the high watermark: none drained yet
    for (uint64_t i = 0; i < writes; ++i) dram.write(0, address(0, 0, 1, i), kBurst);
    dram.read(0, address(1, 0, 1), kBurst);
    const DramStats s = dram.stats();
    EXPECT_EQ(s.writes, writes);
    EXPECT_EQ(s.bytes, (writes + 1) * kBurst);
    EXPECT_EQ(s.row_hits + s.row_misses + s.row_conflicts, writes + 1);
    EXPECT_EQ(s.read_to_write_turnarounds, 1u);
    EXPECT_EQ(dram.stats().writes, writes);
}

// DDR4-3200 in clocks: tRCD, tRP 13.75 ns, tRAS 32, tRC 45.75, tRTP 7.5, tWR 15.
constexpr double kTrcd = 22, kTrp = 22, kTras = 52, kTrc = 74, kTrtp = 12, kTccdL = 8, kTcwl = 16,
                 kTburst = 4, kTwr = 24;

/// Reads n bursts alternating between rows 1 and 2 of bank 2 in group 1,
/// all at cycle 0; returns the last data's end.
uint64_t read_alternating_rows(DramController& dram, uint64_t n) {
    uint64_t end = 0;
    for (uint64_t i = 0; i < n; ++i)
        end = std::max(end, dram.read(0, address(1, 2, 1 + i % 2, i / 2 % 64), kBurst).data_end);
    return end;
}

/// Writes 8 bursts alternating between rows 1 and 2 of bank 2 in group 1.
void write_alternating_rows(DramController& dram) {
    for (uint64_t i = 0; i < 8; ++i) dram.write(0, address(1, 2, 1 + i % 2, i / 2), kBurst);
}

// Reads alternating between rows A and B of one bank, all queued at once.
// FR-FCFS serves the reads of the row a conflict is about to close while
// they fit before its precharge (tRAS after the activate): the first
// column command tRCD after the activate, then one per tCCD_L, the last
// tRTP before the precharge: 1 + (tRAS - tRCD - tRTP) / tCCD_L reads per
// activate, and activates tRC apart.
TEST(ModelDram, ReadsOfTheRowAConflictClosesGoBeforeItsPrecharge) {
    DramController dram(without_refresh(), kClockMhz);
    const uint64_t n = 600;
    const uint64_t end = read_alternating_rows(dram, n);
    const double per_activate = 1 + std::floor((kTras - kTrcd - kTrtp) / kTccdL);  // 3
    const double per_access = kTrc / per_activate / kClocksPerCycle;
    RecordProperty("cycles_per_access", std::to_string(static_cast<double>(end) / n));
    EXPECT_NEAR(static_cast<double>(end) / n, per_access, 0.02 * per_access);
    EXPECT_NEAR(static_cast<double>(dram.stats().row_conflicts), n / per_activate, 2);
}

// A queue of one holds the next read until the conflict ahead of it has
// gone: first come, first served, tRC per access.
TEST(ModelDram, AReadQueueOfOneServesInArrivalOrder) {
    MemoryParams m = without_refresh();
    m.read_queue = 1;
    DramController dram(m, kClockMhz);
    const uint64_t n = 600;
    const uint64_t end = read_alternating_rows(dram, n);
    const double per_access = kTrc / kClocksPerCycle;
    RecordProperty("cycles_per_access", std::to_string(static_cast<double>(end) / n));
    EXPECT_NEAR(static_cast<double>(end) / n, per_access, 0.02 * per_access);
    EXPECT_EQ(dram.stats().row_conflicts, n - 1);
}

// Writes A, B, A, B ... to two rows of one bank, drained at once: row hits
// first serves the four A's as one run, then the four B's. The B's
// precharge waits tWR after the last A's data.
TEST(ModelDram, AWriteDrainServesRowHitsFirst) {
    DramController dram(drained_at(8), kClockMhz);
    write_alternating_rows(dram);
    const double run = kTrcd + 3 * kTccdL + kTcwl + kTburst;  // activate to a run's last data
    const double end = run + kTwr + kTrp + run;
    const DramStats s = dram.stats();
    EXPECT_EQ(s.span_cycles, static_cast<uint64_t>(std::ceil(end / kClocksPerCycle)));
    EXPECT_EQ(s.row_misses, 1u);
    EXPECT_EQ(s.row_conflicts, 1u);
    EXPECT_EQ(s.row_hits, 6u);
}

// A write queue of one drains each write alone, in arrival order: every
// write after the first closes the other row.
TEST(ModelDram, AWriteQueueOfOneServesInArrivalOrder) {
    MemoryParams m = drained_at(1);
    m.write_queue = 1;
    DramController dram(m, kClockMhz);
    write_alternating_rows(dram);
    const double per_write = kTcwl + kTburst + kTwr + kTrp + kTrcd;  // command to next command
    const double end = kTrcd + 7 * per_write + kTcwl + kTburst;
    const DramStats s = dram.stats();
    EXPECT_EQ(s.span_cycles, static_cast<uint64_t>(std::ceil(end / kClocksPerCycle)));
    EXPECT_EQ(s.row_conflicts, 7u);
}

TEST(ModelDram, ClosedPageMakesEveryAccessAMiss) {
    MemoryParams m = without_refresh();
    m.page_policy = PagePolicy::closed;
    DramController dram(m, kClockMhz);
    for (uint64_t i = 0; i < 100; ++i) dram.read(0, address(0, 0, 3, i % 64), kBurst);
    EXPECT_EQ(dram.stats().row_misses, 100u);
    EXPECT_EQ(dram.stats().row_hits, 0u);
}

TEST(ModelDram, AnOpenRowHitTakesTclAfterArrival) {
    DramController dram(without_refresh(), kClockMhz);
    dram.read(0, address(0, 0, 3), kBurst);
    const uint64_t t = 10000;
    const DramController::Timing hit = dram.read(t, address(0, 0, 3, 1), kBurst);
    EXPECT_EQ(hit.data_start, t + dram.hit_latency());
    EXPECT_EQ(hit.dram_wait, 0u);
    EXPECT_EQ(dram.hit_latency(), static_cast<uint64_t>(std::ceil(22 / kClocksPerCycle)));
}

// A write that finds its row open before a refresh, whose command the
// turnaround behind a read planned earlier holds past the refresh: the
// refresh closed the row, so the write opens it again (a miss). It was
// served as a hit on the closed row.
TEST(ModelDram, AWriteHeldPastARefreshFindsItsRowClosed) {
    MemoryParams m = ddr4();
    m.write_high_watermark = 1;  // each write drained at once
    m.write_low_watermark = 0;
    DramController dram(m, kClockMhz);
    dram.read(0, address(0, 0, 1), kBurst);     // opens row 1 of bank 0, group 0
    dram.read(8200, address(1, 0, 1), kBurst);  // 13,120 clocks: after the refresh (12,480 + 560)
    const DramStats before = dram.stats();
    dram.write(7700, address(0, 0, 1, 1), kBurst);  // 12,320 clocks: before it
    EXPECT_EQ(dram.stats().row_misses, before.row_misses + 1);
    EXPECT_EQ(dram.stats().row_hits, before.row_hits);
}

// A conflict whose precharge tRAS holds into a refresh's tRFC: the
// refresh closes the bank itself, so the read is a miss after it. The
// precharge went inside tRFC, and once that was cut, the cut attempt's
// activate (also inside tRFC) left the row open for its retry, a hit.
TEST(ModelDram, AConflictHeldIntoARefreshIsAMissAfterIt) {
    DramController dram(ddr4(), kClockMhz);
    dram.read(7769, address(0, 0, 1), kBurst);  // 12,431 clocks: row 1's data ends before 12,480
    const DramStats before = dram.stats();
    dram.read(7775, address(0, 0, 2), kBurst);  // its precharge waits to 12,431 + tRAS = 12,483
    EXPECT_EQ(dram.stats().row_misses, before.row_misses + 1);
    EXPECT_EQ(dram.stats().row_conflicts, before.row_conflicts);
    EXPECT_EQ(dram.stats().row_hits, before.row_hits);
}

// A read whose data a refresh cuts (12,480 clocks, cycle 7,800) is taken
// again after it, and the cut attempt never happened: a read planned after
// it that fits before the refresh gets the timing it gets alone. The cut
// attempt's activate and data stayed booked, and pushed that read past
// the refresh too.
TEST(ModelDram, ARunARefreshCutLeavesNoBookingsBehind) {
    const uint64_t cut_arrival = 7771, fitting_arrival = 7769;
    const uint64_t fitting = address(1, 0, 1), cut = address(0, 0, 1);
    DramController alone(ddr4(), kClockMhz);
    const DramController::Timing expected = alone.read(fitting_arrival, fitting, kBurst);
    ASSERT_LE(expected.data_end, 7800u);  // fits before the refresh
    DramController dram(ddr4(), kClockMhz);
    const DramController::Timing retried = dram.read(cut_arrival, cut, kBurst);
    EXPECT_GE(retried.data_start, 7800u + 350);  // after the refresh's tRFC
    const DramController::Timing after = dram.read(fitting_arrival, fitting, kBurst);
    EXPECT_EQ(after.data_start, expected.data_start);
    EXPECT_EQ(after.data_end, expected.data_end);
    EXPECT_EQ(dram.stats().row_misses, 2u);
}

// 400 MT/s (5 ns clocks) with tCCD_L 50 clocks: a queue's run of one row's
// bursts is longer than the 1,490 clocks between two refreshes. Such a run
// was taken again after every refresh, booking each try, until the host ran
// out of memory; now it is served as runs that fit.
MemoryParams slow_columns() {
    MemoryParams m = ddr4();
    m.mapping = DramMapping::row_bank_column;  // a row's bursts are consecutive
    m.data_rate_mts = 400;
    m.t_ccd_l_clocks = 50;
    m.read_queue = 64;
    return m;
}
constexpr double kSlowClockMhz = 200;  // one platform cycle per DRAM clock
constexpr uint64_t kSlowRefi = 1560, kSlowRfc = 70;

TEST(ModelDram, ARunOfTheLongestLengthFitsBetweenTwoRefreshes) {
    const MemoryParams m = slow_columns();
    const uint64_t longest = dram_longest_run(m, false);
    ASSERT_GT(longest, 1u);
    ASSERT_LT(longest, m.read_queue);
    const uint64_t after_refresh = kSlowRefi + kSlowRfc;
    DramController fits(m, kSlowClockMhz);
    EXPECT_LT(fits.read(after_refresh, 0, longest * kBurst).data_end, 2 * kSlowRefi);
    // One burst more does not fit: it ends past the next refresh's start.
    DramController cut(m, kSlowClockMhz);
    EXPECT_GE(cut.read(after_refresh, 0, (longest + 1) * kBurst).data_end, 2 * kSlowRefi);
}

TEST(ModelDram, AQueueOfOneRowLongerThanTheRefreshWindowCompletes) {
    const MemoryParams m = slow_columns();
    DramController dram(m, kSlowClockMhz);
    const DramController::Timing t = dram.read(0, 0, m.read_queue * kBurst);
    EXPECT_GT(t.data_end, kSlowRefi);
    EXPECT_EQ(dram.stats().reads, m.read_queue);
    // Writes: the whole queue drained from one row at the high watermark.
    MemoryParams w = slow_columns();
    w.write_queue = w.write_high_watermark = 64;
    w.write_low_watermark = 0;
    DramController writes(w, kSlowClockMhz);
    writes.write(0, 0, w.write_queue * kBurst);
    EXPECT_EQ(writes.stats().writes, w.write_queue);
}

// A burst after another rank's holds the bus idle tRTRS before its data;
// with tRTRS longer than tRCD + tCL that gap starts before the burst
// reached the controller, so the DRAM folds its bookings no later than
// tRTRS before the cycle it is given: none is then booked late.
TEST(ModelDram, ARankSwitchGapBeforeTheArrivalIsNoLateBooking) {
    MemoryParams m = without_refresh();
    m.ranks = 2;
    m.t_rtrs_clocks = 64;
    DramController dram(m, kClockMhz);
    const uint64_t other_rank = kBurst * m.bank_groups * m.banks_per_group;
    for (uint64_t i = 0; i < 1000; ++i) {
        const uint64_t t = 100 * i;  // an idle bus: each read at its arrival
        if (dram.wants_settle()) dram.settle(t);
        dram.read(t, i * other_rank, kBurst);
    }
    EXPECT_EQ(dram.late_bookings(), 0u);
}

TEST(ModelDram, NoRunLimitWithoutRefresh) {
    EXPECT_EQ(dram_longest_run(without_refresh(), false), UINT64_MAX);
    MemoryParams m = ddr4();
    m.t_refi_ns = 40;  // 64 clocks, less tRFC 32: tRCD 22 + tCL 22 + tBURST 4 do not fit
    m.t_rfc_ns = 20;
    EXPECT_EQ(dram_longest_run(m, false), 0u);
}

}  // namespace
}  // namespace dmasim::model::test
