// suggest_test.cc - edit distance and did-you-mean.
#include "suggest.h"

#include <gtest/gtest.h>

namespace dmasim::sim {
namespace {

TEST(SimEditDistance, CountsInsertionsDeletionsAndSubstitutions) {
    EXPECT_EQ(edit_distance("", "abc"), 3u);  // three insertions
    EXPECT_EQ(edit_distance("abc", "abc"), 0u);
    EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);  // k->s, e->i, +g
}

TEST(SimClosestMatch, PicksTheNearestCandidate) {
    std::vector<std::string> keys = {"dma.channels", "dma.max_burst_beats", "clock_mhz"};
    EXPECT_EQ(closest_match("dma.chanels", keys), "dma.channels");
    EXPECT_EQ(closest_match("burst_beats.max", keys), std::nullopt);
    EXPECT_EQ(closest_match("zzz", keys), std::nullopt);
}

}  // namespace
}  // namespace dmasim::sim
