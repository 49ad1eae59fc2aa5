// The cycle account's interval unions and priority partition, without SystemC.
#include <dmasim/model/cycle_account.h>
#include <gtest/gtest.h>

namespace dmasim::model {
namespace {

uint64_t of(const CycleAccount& a, Cause c) { return a[static_cast<size_t>(c)]; }

TEST(ModelCycleAccount, UnionMergesTouchingAndOutOfOrderIntervals) {
    IntervalUnion u;
    u.add(10, 20);
    u.add(20, 30);  // touches: one interval
    u.add(40, 50);
    u.add(5, 12);  // arrives late, overlaps the first
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

}  // namespace
}  // namespace dmasim::model
