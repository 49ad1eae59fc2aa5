// A measured window's busy time: marks count the bookings before a cycle
// however late they are planned, and holds keep a cycle markable after
// settle() passed it (resource.h).
#include "resource.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

namespace dmasim::model::test {
namespace {

/// A resource under random bookings, beside a bitmap of the cycles it
/// has booked: each booking is checked against a first fit over the
/// bitmap, and busy counts against the bitmap's.
class CheckedBookings {
public:
    explicit CheckedBookings(uint64_t seed) : rng_(seed) {}
    uint64_t draw(uint64_t lo, uint64_t hi) {
        return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_);
    }
    /// Books on the resource; fails unless it starts where a first fit does.
    ::testing::AssertionResult book(uint64_t earliest, uint64_t occupancy) {
        const uint64_t expected = first_fit(earliest, occupancy);
        const uint64_t start = resource.book(earliest, occupancy, 64);
        std::fill(busy_.begin() + expected, busy_.begin() + expected + occupancy, true);
        if (start == expected) return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure()
               << "asked at " << earliest << " for " << occupancy << " cycles: started at " << start
               << ", the first fit is " << expected;
    }
    /// Fails unless busy_before(cycle) counts the bitmap's cycles before it.
    ::testing::AssertionResult busy_before_is_exact(uint64_t cycle) const {
        const auto booked =
            static_cast<uint64_t>(std::count(busy_.begin(), busy_.begin() + cycle, true));
        if (resource.busy_before(cycle) == booked) return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure() << "busy_before(" << cycle << ") is "
                                             << resource.busy_before(cycle) << ", not " << booked;
    }

    Resource resource;

private:
    uint64_t first_fit(uint64_t earliest, uint64_t occupancy) const {
        for (uint64_t s = earliest;; ++s) {
            uint64_t k = 0;
            while (k < occupancy && !busy_[s + k]) ++k;
            if (k == occupancy) return s;
        }
    }

    std::mt19937_64 rng_;
    std::vector<bool> busy_ = std::vector<bool>(1 << 16, false);
};

// The bug behind bus_utilization > 1: a window opened at 200 after the
// bus had booked [100, 116); a burst planned later took [10, 26), before
// the window, and a count taken when it opened missed it.
TEST(ModelResource, ABurstPlannedAfterAMarkButBookedBeforeItCountsInIt) {
    Resource r;
    r.book(100, 16, 256);
    const Resource::MarkId open = r.mark(200);
    EXPECT_EQ(r.busy_before_mark(open), 16u);
    EXPECT_EQ(r.book(10, 16, 256), 10u);  // fills the gap before 100
    EXPECT_EQ(r.busy_before_mark(open), 32u);
    EXPECT_EQ(r.busy_before_mark(open), r.busy_before(200));
}

// Bookings at or past the channel's end (which book() takes without a
// search) mixed with requests behind it that may fill a gap: each starts
// where a first fit over a bitmap of the booked cycles says.
TEST(ModelResource, EveryBookingStartsInTheFirstFreeGapLongEnough) {
    CheckedBookings c(39);
    for (int i = 0; i < 3000; ++i) {
        const uint64_t end = c.resource.free_at();
        const uint64_t earliest =
            c.draw(0, 2) == 0 ? end + c.draw(0, 12) : end - std::min(end, c.draw(0, 80));
        ASSERT_TRUE(c.book(earliest, c.draw(1, 9))) << "booking " << i;
    }
}

// settle() folds bookings in batches as simulated time advances (with a
// hold kept for a while): bookings still land in the first fit from the
// current cycle on, and busy_before() still counts every booked cycle,
// folded or listed, over many wraps of the bookings' FIFO.
TEST(ModelResource, SettlingAsTimeAdvancesKeepsBookingsAndBusyCountsExact) {
    CheckedBookings c(7);
    Resource& r = c.resource;
    uint64_t now = 0, held_at = 0;
    for (int i = 0; i < 4000; ++i) {
        if (i % 5 == 0) {
            now += c.draw(0, 25);
            r.settle(now);
        }
        if (i % 400 == 100) r.hold(held_at = now);
        if (i % 400 == 300) r.release(held_at);
        const uint64_t earliest = now + c.draw(0, r.free_at() > now ? r.free_at() - now + 8 : 8);
        ASSERT_TRUE(c.book(earliest, c.draw(1, 9))) << "booking " << i;
        ASSERT_TRUE(c.busy_before_is_exact(now + c.draw(0, 60))) << "booking " << i;
    }
}

// A booking of no cycles (a DRAM spacing of 0) waits for nothing: it took
// the end of the channel's packed stretch when asked inside it.
TEST(ModelResource, ABookingOfNoCyclesStartsWhenAsked) {
    Resource spaced;
    EXPECT_EQ(spaced.book(500, 0, 0), 500u);
    EXPECT_EQ(spaced.book(100, 0, 0), 100u);
    Resource busy;
    busy.book(0, 10, 64);
    busy.book(10, 10, 64);  // packed: [0, 20)
    EXPECT_EQ(busy.book(5, 0, 0), 5u);
    EXPECT_EQ(busy.free_at(), 20u);
    EXPECT_EQ(busy.book(5, 4, 64), 20u);
}

// settle()'s rule: no booking asks before a cycle it was given. One that
// does cannot see the gaps folded there, so where it lands would depend on
// when settling ran: it is counted, whether or not it found a gap.
TEST(ModelResource, ABookingBeforeTheSettledCycleIsCountedLate) {
    Resource r;
    r.book(0, 10, 64);
    r.book(30, 10, 64);
    r.settle(20);  // folds [0, 10)
    EXPECT_EQ(r.book(20, 5, 64), 20u);
    EXPECT_EQ(r.late_bookings(), 0u);
    EXPECT_EQ(r.book(12, 5, 64), 12u);
    EXPECT_EQ(r.late_bookings(), 1u);
    r.settle(5);  // an earlier cycle moves nothing back
    r.book(15, 1, 64);
    EXPECT_EQ(r.late_bookings(), 2u);
}

// take_back() makes a booking as if it had never been asked for (a DRAM
// run a refresh cuts): a resource that books and takes back extra
// bookings among random ones, in any order, with a mark, settling and a
// hold, agrees with a twin that never saw them on every start, count and
// busy figure.
TEST(ModelResource, ABookingTakenBackLeavesNoTrace) {
    std::mt19937_64 rng(41);
    auto draw = [&](uint64_t lo, uint64_t hi) {
        return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
    };
    Resource kept, twin;
    const Resource::MarkId kept_mark = kept.mark(400), twin_mark = twin.mark(400);
    uint64_t now = 0;
    struct Extra {
        uint64_t start, occupancy;
    };
    std::vector<Extra> extra;
    for (int i = 0; i < 3000; ++i) {
        if (i % 7 == 0) {
            now += draw(0, 12);
            kept.settle(now);
            twin.settle(now);
        }
        if (i == 1000) {
            kept.hold(now);
            twin.hold(now);
        }
        // Extra bookings, some of no cycles, taken back in a random order.
        extra.resize(draw(0, 3));
        for (Extra& e : extra) {
            e.occupancy = draw(0, 9);
            e.start = kept.book(now + draw(0, 60), e.occupancy, 64);
        }
        std::shuffle(extra.begin(), extra.end(), rng);
        for (const Extra& e : extra) kept.take_back(e.start, e.occupancy, 64);
        const uint64_t earliest = now + draw(0, 50), occupancy = draw(1, 9);
        ASSERT_EQ(kept.book(earliest, occupancy, 64), twin.book(earliest, occupancy, 64))
            << "booking " << i;
        ASSERT_EQ(kept.free_at(), twin.free_at()) << "booking " << i;
        ASSERT_EQ(kept.stats().busy_cycles, twin.stats().busy_cycles) << "booking " << i;
        ASSERT_EQ(kept.stats().bursts, twin.stats().bursts) << "booking " << i;
        ASSERT_EQ(kept.stats().bytes, twin.stats().bytes) << "booking " << i;
        ASSERT_EQ(kept.busy_before_mark(kept_mark), twin.busy_before_mark(twin_mark));
        const uint64_t at = now + draw(0, 80);
        ASSERT_EQ(kept.busy_before(at), twin.busy_before(at)) << "booking " << i;
    }
    EXPECT_EQ(kept.unsettled(), twin.unsettled());
}

// Only a listed booking can be taken back, and only once.
TEST(ModelResource, TakingBackABookingThatIsNotListedThrows) {
    Resource r;
    r.book(0, 10, 64);
    r.book(0, 10, 64);  // [10, 20)
    EXPECT_THROW(r.take_back(10, 5, 64), std::logic_error);
    r.take_back(10, 10, 64);
    EXPECT_THROW(r.take_back(10, 10, 64), std::logic_error);
    EXPECT_EQ(r.free_at(), 10u);
    r.settle(15);  // folds [0, 10)
    EXPECT_THROW(r.take_back(0, 10, 64), std::logic_error);
    EXPECT_EQ(r.book(0, 4, 64), 10u);
}

TEST(ModelResource, AMarkCountsOnlyTheCyclesBeforeIt) {
    Resource r;
    const Resource::MarkId m = r.mark(200);
    EXPECT_EQ(r.book(190, 20, 64), 190u);  // [190, 210): 10 cycles before 200
    EXPECT_EQ(r.book(300, 16, 64), 300u);  // wholly after
    EXPECT_EQ(r.busy_before_mark(m), 10u);
}

// Busy inside [open, close) never exceeds its length, whatever the order
// bookings are planned in: a saturated channel filled back to front.
TEST(ModelResource, BusyBetweenTwoMarksFitsBetweenThem) {
    Resource r;
    const Resource::MarkId open = r.mark(100);
    const Resource::MarkId close = r.mark(300);
    for (uint64_t t = 400; t >= 16; t -= 16) r.book(t - 16, 16, 64);
    EXPECT_EQ(r.busy_before_mark(close) - r.busy_before_mark(open), 200u);
    r.unmark(open);
    EXPECT_THROW(r.busy_before_mark(open), std::logic_error);
    EXPECT_EQ(r.busy_before_mark(close), 300u);
}

// A CPU's handling began at 50 and ends at 80, when settle() has passed
// both: the hold from 50 keeps a mark at 80 exact.
TEST(ModelResource, AHoldKeepsACyclePastTheSettledOnesMarkable) {
    Resource held, plain;
    for (Resource* r : {&held, &plain}) {
        r->book(0, 40, 64);
        r->book(60, 40, 64);  // [60, 100)
    }
    held.hold(50);
    for (Resource* r : {&held, &plain}) r->settle(120);
    EXPECT_EQ(held.unsettled(), 0u);  // folded, though still listed
    EXPECT_THROW(plain.mark(80), std::logic_error);
    const Resource::MarkId m = held.mark(80);
    EXPECT_EQ(held.busy_before_mark(m), 40u + 20);
    // A hold changes no booking: both start where the fold says.
    EXPECT_EQ(held.book(70, 5, 64), plain.book(70, 5, 64));
    held.release(50);
    held.settle(200);
    EXPECT_EQ(held.busy_before_mark(m), 60u);
    EXPECT_THROW(held.mark(80), std::logic_error);
}

}  // namespace
}  // namespace dmasim::model::test
