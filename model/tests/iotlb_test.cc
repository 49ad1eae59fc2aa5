// The IOTLB's cache behaviour on its own: set mapping, LRU within a set,
// entries tagged with their page size.
#include "iotlb.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <list>
#include <random>
#include <utility>
#include <vector>

namespace dmasim::model {
namespace {

constexpr unsigned kSmall = 12, kLarge = 21;

TEST(ModelIotlb, HitReturnsTheCachedFrame) {
    Iotlb tlb(4, 2);
    EXPECT_EQ(tlb.lookup(0x5000, kSmall), nullptr);
    tlb.insert(0x5123, kSmall, 0x9000, true);
    const Iotlb::Entry* e = tlb.lookup(0x5FFF, kSmall);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->frame, 0x9000u);
    EXPECT_TRUE(e->writable);
    EXPECT_EQ(tlb.lookup(0x6000, kSmall), nullptr);
}

// 2 sets of 2 ways: pages 0, 2, 4 share set 0. Touching page 0 makes page
// 2 the least recently used, so page 4 evicts it.
TEST(ModelIotlb, LeastRecentlyUsedWayOfTheSetIsReplaced) {
    Iotlb tlb(4, 2);
    tlb.insert(0 << kSmall, kSmall, 0xA000, false);
    tlb.insert(2 << kSmall, kSmall, 0xB000, false);
    tlb.insert(1 << kSmall, kSmall, 0xC000, false);  // set 1: no effect on set 0
    ASSERT_NE(tlb.lookup(0 << kSmall, kSmall), nullptr);
    tlb.insert(4 << kSmall, kSmall, 0xD000, false);
    EXPECT_NE(tlb.lookup(0 << kSmall, kSmall), nullptr);
    EXPECT_EQ(tlb.lookup(2 << kSmall, kSmall), nullptr);
    EXPECT_NE(tlb.lookup(4 << kSmall, kSmall), nullptr);
    EXPECT_NE(tlb.lookup(1 << kSmall, kSmall), nullptr);
}

TEST(ModelIotlb, EntriesAreTaggedWithTheirPageSize) {
    Iotlb tlb(8, 8);
    tlb.insert(0x200000, kLarge, 0x400000, true);
    EXPECT_EQ(tlb.lookup(0x200000, kSmall), nullptr);
    const Iotlb::Entry* e = tlb.lookup(0x3FF000, kLarge);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->frame, 0x400000u);
}

TEST(ModelIotlb, RefillReplacesTheSamePageAndClearDropsAll) {
    Iotlb tlb(2, 2);
    tlb.insert(0x1000, kSmall, 0xA000, false);
    tlb.insert(0x2000, kSmall, 0xB000, false);
    tlb.insert(0x1000, kSmall, 0xC000, true);  // same page: no eviction of 0x2000
    EXPECT_EQ(tlb.lookup(0x1000, kSmall)->frame, 0xC000u);
    EXPECT_NE(tlb.lookup(0x2000, kSmall), nullptr);
    tlb.clear();
    EXPECT_EQ(tlb.lookup(0x1000, kSmall), nullptr);
    EXPECT_EQ(tlb.lookup(0x2000, kSmall), nullptr);
}

// The obvious LRU cache, one list per set from most to least recently used.
class ReferenceTlb {
public:
    ReferenceTlb(unsigned entries, unsigned ways) : sets_(entries / ways), ways_(ways) {}
    const uint64_t* lookup(uint64_t iova, unsigned shift) {
        auto& set = set_of(iova >> shift);
        auto it = std::find_if(set.begin(), set.end(), [&](const Line& l) {
            return l.page == iova >> shift && l.shift == shift;
        });
        if (it == set.end()) return nullptr;
        set.splice(set.begin(), set, it);
        return &set.front().frame;
    }
    void insert(uint64_t iova, unsigned shift, uint64_t frame) {
        auto& set = set_of(iova >> shift);
        set.remove_if([&](const Line& l) { return l.page == iova >> shift && l.shift == shift; });
        if (set.size() == ways_) set.pop_back();
        set.push_front({iova >> shift, shift, frame});
    }

private:
    struct Line {
        uint64_t page;
        unsigned shift;
        uint64_t frame;
    };
    std::list<Line>& set_of(uint64_t page) { return sets_[page % sets_.size()]; }
    std::vector<std::list<Line>> sets_;
    unsigned ways_;
};

// Hit or miss, and the frame, of every access of a seeded random trace
// (lookups, refills of cached pages, both page sizes, clears) against the
// reference, for direct-mapped, set-associative and fully associative
// organisations: the index finds exactly what a scan of the set would.
TEST(ModelIotlb, EveryOrganisationMatchesAPlainLruCache) {
    const std::vector<std::pair<unsigned, unsigned>> organisations = {
        {1, 1}, {16, 1}, {16, 4}, {16, 16}, {64, 8}, {256, 256}};
    for (auto [entries, ways] : organisations) {
        SCOPED_TRACE(testing::Message() << entries << " entries, " << ways << " ways");
        Iotlb tlb(entries, ways);
        ReferenceTlb ref(entries, ways);
        std::mt19937_64 rng(entries * 1000 + ways);
        for (int i = 0; i < 20000; ++i) {
            const unsigned shift = rng() % 4 == 0 ? kLarge : kSmall;
            const uint64_t iova = (rng() % (3 * entries)) << shift | (rng() & 0xFFF);
            if (rng() % 1000 == 0) {
                tlb.clear();
                ref = ReferenceTlb(entries, ways);
            }
            const Iotlb::Entry* got = tlb.lookup(iova, shift);
            const uint64_t* want = ref.lookup(iova, shift);
            ASSERT_EQ(got != nullptr, want != nullptr) << "access " << i;
            if (got) {
                ASSERT_EQ(got->frame, *want) << "access " << i;
            }
            if (!got || rng() % 8 == 0) {  // a miss fills; now and then a hit refills
                const uint64_t frame = rng() << 12;
                tlb.insert(iova, shift, frame, false);
                ref.insert(iova, shift, frame);
            }
        }
    }
}

// A working set that fits every set misses once per page and then always
// hits, whatever the associativity: the same counts for every organisation.
TEST(ModelIotlb, AWorkingSetThatFitsHitsAlikeInEveryOrganisation) {
    constexpr unsigned kEntries = 64, kPasses = 5;
    for (unsigned ways : {1u, 2u, 8u, 64u}) {
        SCOPED_TRACE(ways);
        Iotlb tlb(kEntries, ways);
        unsigned hits = 0, misses = 0;
        for (unsigned pass = 0; pass < kPasses; ++pass)
            for (uint64_t page = 0; page < kEntries; ++page) {  // one page per way of every set
                if (tlb.lookup(page << kSmall, kSmall)) {
                    ++hits;
                } else {
                    ++misses;
                    tlb.insert(page << kSmall, kSmall, page << kSmall, false);
                }
            }
        EXPECT_EQ(misses, kEntries);
        EXPECT_EQ(hits, (kPasses - 1) * kEntries);
    }
}

}  // namespace
}  // namespace dmasim::model
