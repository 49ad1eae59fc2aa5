// The IOTLB's cache behaviour on its own: set mapping, LRU within a set,
// entries tagged with their page size.
#include "iotlb.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace dmasim::model
