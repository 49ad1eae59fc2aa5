// The cycle account's interval unions and priority partition, without SystemC.
#include <dmasim/model/cycle_account.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace dmasim::model {
namespace {

uint64_t of(const CycleAccount& a, Cause c) { return a[static_cast<size_t>(c)]; }

// Uniform draws from [lo, hi], the same on every run.
class Draw {
public:
    explicit Draw(uint64_t seed) : rng_(seed) {}
    uint64_t operator()(uint64_t lo, uint64_t hi) {
        return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_);
    }

private:
    std::mt19937_64 rng_;
};

// The union holds exactly the cycles `covered` marks, as sorted, disjoint,
// non-touching intervals.
void expect_holds_exactly(const IntervalUnion& u, const std::vector<bool>& covered) {
    std::vector<bool> from_union(covered.size(), false);
    const auto& set = u.intervals();
    for (size_t k = 0; k < set.size(); ++k) {
        ASSERT_LT(set[k].from, set[k].to);
        if (k > 0) {
            ASSERT_GT(set[k].from, set[k - 1].to) << "touching or out of order at " << k;
        }
        for (uint64_t c = set[k].from; c < set[k].to; ++c) from_union[c] = true;
    }
    EXPECT_EQ(from_union, covered);
}

TEST(ModelCycleAccount, UnionMergesTouchingAndOutOfOrderIntervals) {
    IntervalUnion u;
    u.add(10, 20);
    u.add(20, 30);  // touches: one interval
    u.add(40, 50);
    u.add(5, 12);   // arrives late, overlaps the first
    u.add(32, 35);  // arrives late, between two
    u.add(7, 7);    // empty: ignored
    ASSERT_EQ(u.intervals().size(), 3u);
    EXPECT_EQ(u.intervals()[0].from, 5u);
    EXPECT_EQ(u.intervals()[0].to, 30u);
    EXPECT_EQ(u.intervals()[1].from, 32u);
    EXPECT_EQ(u.intervals()[2].to, 50u);
    u.add(0, 100);  // covers all
    ASSERT_EQ(u.intervals().size(), 1u);
    u.truncate(60);
    EXPECT_EQ(u.intervals()[0].to, 60u);
}

// Two streams of intervals, one planned far ahead of the other (reads a
// buffer ahead of slow writes), some overlapping, some touching: the union
// holds exactly the cycles a bitmap of every add holds, as sorted,
// disjoint, non-touching intervals.
TEST(ModelCycleAccount, UnionOfTwoInterleavedStreamsMatchesABitmap) {
    constexpr uint64_t kCycles = 20000;
    Draw draw(35);
    IntervalUnion u;
    std::vector<bool> covered(kCycles + 64, false);
    uint64_t ahead = 10000, behind = 0;
    for (int i = 0; i < 4000; ++i) {
        uint64_t& at = i % 2 ? ahead : behind;
        const uint64_t from = at + draw(0, 3), to = from + draw(0, 5);
        at = std::min<uint64_t>(from + draw(0, 6), kCycles);
        u.add(from, to);
        for (uint64_t c = from; c < to; ++c) covered[c] = true;
    }
    expect_holds_exactly(u, covered);
}

// Adds just behind the end, as a write's intervals land behind the read
// planned after it: clear of every interval, within or touching the last
// one or the one before it, bridging the two, or reaching further back
// (add()'s shortcuts near the end and its search). Every 97th add finds the
// union holding exactly the cycles a bitmap of every add holds, as sorted,
// disjoint, non-touching intervals.
TEST(ModelCycleAccount, UnionOfAddsNearTheEndMatchesABitmap) {
    constexpr uint64_t kCycles = 30000;
    Draw draw(39);
    IntervalUnion u;
    std::vector<bool> covered(kCycles + 64, false);
    uint64_t end = 40;
    for (int i = 0; i < 6000; ++i) {
        const uint64_t from = end - draw(0, 40) + draw(0, 6), to = from + draw(0, 9);
        end = std::max(end, std::min<uint64_t>(to + draw(0, 4), kCycles));
        u.add(from, to);
        for (uint64_t c = from; c < to; ++c) covered[c] = true;
        if (i % 97 == 0) {
            ASSERT_NO_FATAL_FAILURE(expect_holds_exactly(u, covered)) << "add " << i;
        }
    }
}

TEST(ModelCycleAccount, EachCycleGoesToTheFirstCauseCoveringItAndTheRestIsIdle) {
    CycleTimeline t;
    t.charge(Cause::data, 10, 30);
    t.charge(Cause::descriptor_fetch, 0, 15);  // 10..15 is data's
    t.charge(Cause::writeback, 25, 40);        // 25..30 is data's
    const CycleAccount a = t.close_span(0, 50);
    EXPECT_EQ(of(a, Cause::data), 20u);
    EXPECT_EQ(of(a, Cause::descriptor_fetch), 10u);
    EXPECT_EQ(of(a, Cause::writeback), 10u);
    EXPECT_EQ(of(a, Cause::idle), 50u - 20 - 10 - 10);
    uint64_t sum = 0;
    for (uint64_t c : a) sum += c;
    EXPECT_EQ(sum, 50u);
}

TEST(ModelCycleAccount, AStallNamesWhatTheWorkInFlightWasWaitingFor) {
    // A data read's latency [0, 50) overlaps the fetch of the descriptor
    // the next read waits for [10, 60): the wait is descriptor supply, and
    // the read's beats stay data.
    CycleTimeline t;
    t.charge(Cause::memory_latency, 0, 50);
    t.charge(Cause::data, 50, 54);
    t.charge(Cause::descriptor_fetch, 10, 60);
    t.stall(Cause::descriptor_fetch, 0, 60);
    t.stall(Cause::setup, 60, 62);
    const CycleAccount a = t.close_span(0, 62);
    EXPECT_EQ(of(a, Cause::data), 4u);
    EXPECT_EQ(of(a, Cause::descriptor_fetch), 56u);
    EXPECT_EQ(of(a, Cause::setup), 2u);
    EXPECT_EQ(of(a, Cause::memory_latency), 0u);
}

TEST(ModelCycleAccount, StallsOutrankWorkButNotTheBusMovingData) {
    CycleTimeline t;
    t.charge(Cause::bandwidth, 0, 10);
    t.charge(Cause::memory_latency, 0, 30);
    t.stall(Cause::outstanding_limit, 5, 20);
    t.stall(Cause::buffer_space, 15, 25);  // 15..20 is the earlier row's
    const CycleAccount a = t.close_span(0, 30);
    EXPECT_EQ(of(a, Cause::bandwidth), 10u);
    EXPECT_EQ(of(a, Cause::outstanding_limit), 10u);
    EXPECT_EQ(of(a, Cause::buffer_space), 5u);
    EXPECT_EQ(of(a, Cause::memory_latency), 5u);
    // A span drops stalls planned past its stop, as it drops charges.
    t.stall(Cause::iommu, 40, 90);
    EXPECT_EQ(of(t.close_span(30, 50), Cause::iommu), 10u);
}

TEST(ModelCycleAccount, ASpanDropsWhatWasPlannedPastItsStop) {
    CycleTimeline t;
    t.charge(Cause::data, 0, 100);
    EXPECT_EQ(of(t.close_span(0, 40), Cause::data), 40u);
    EXPECT_EQ(of(account_over({&t}, 0, 100), Cause::idle), 60u);
}

TEST(ModelCycleAccount, TheRunTakesTheHighestCauseOfAnyChannel) {
    CycleTimeline a, b;
    a.charge(Cause::bandwidth, 0, 10);
    b.charge(Cause::data, 5, 10);
    const CycleAccount run = account_over({&a, &b}, 0, 12);
    EXPECT_EQ(of(run, Cause::data), 5u);
    EXPECT_EQ(of(run, Cause::bandwidth), 5u);
    EXPECT_EQ(of(run, Cause::idle), 2u);
}

// Random charges and stalls of every cause on two timelines, over a window
// that cuts intervals at both ends: each cycle goes to the first cause in
// the layer order (bus charges, stalls, other charges) that any timeline
// covers it with, so the account equals a cycle-by-cycle count.
TEST(ModelCycleAccount, TheAccountMatchesACycleByCycleCount) {
    constexpr uint64_t kCycles = 3000, kFrom = 137, kTo = 2711;
    Draw draw(39);
    const size_t idle = static_cast<size_t>(Cause::idle);
    // owner[c]: the rank of the first layer row covering cycle c.
    std::vector<size_t> rank(kCycles, SIZE_MAX);
    const auto rank_of = [](bool stall, size_t cause) {
        if (stall) return kBusCauses + cause;
        return cause < kBusCauses ? cause : kBusCauses + kCauses + cause;
    };
    CycleTimeline a, b;
    for (int i = 0; i < 600; ++i) {
        const size_t cause = draw(0, kCauses - 1);
        if (cause == idle) continue;
        const bool stall = draw(0, 1);
        const uint64_t from = draw(0, kCycles - 40), to = from + draw(1, 40);
        CycleTimeline& t = draw(0, 1) ? a : b;
        if (stall)
            t.stall(static_cast<Cause>(cause), from, to);
        else
            t.charge(static_cast<Cause>(cause), from, to);
        for (uint64_t c = from; c < to; ++c) rank[c] = std::min(rank[c], rank_of(stall, cause));
    }
    CycleAccount expected{};
    for (uint64_t c = kFrom; c < kTo; ++c) {
        const size_t r = rank[c];
        const size_t cause = r == SIZE_MAX              ? idle
                             : r < kBusCauses           ? r
                             : r < kBusCauses + kCauses ? r - kBusCauses
                                                        : r - kBusCauses - kCauses;
        ++expected[cause];
    }
    EXPECT_EQ(account_over({&a, &b}, kFrom, kTo), expected);
}

}  // namespace
}  // namespace dmasim::model
