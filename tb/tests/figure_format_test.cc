// The one formatter of printed figures: significant digits without float
// noise, units scaled to the figure, nouns that agree with their count and
// the caveat on percentiles of small samples.
#include <dmasim/tb/figure_format.h>
#include <gtest/gtest.h>

#include <cmath>

namespace dmasim::tb::figures {
namespace {

// The figures issue 40 quoted, as the binary double arithmetic made them.
TEST(FigureFormat, FloatNoiseIsRoundedAway) {
    EXPECT_EQ(significant(1.5090000000000001), "1.509");
    EXPECT_EQ(significant(31.406000000000002), "31.41");
    EXPECT_EQ(significant(16808.000000000004), "16808");
    EXPECT_EQ(significant(0.1 + 0.2), "0.3");
}

TEST(FigureFormat, KeepsTheAskedSignificantDigitsAndDropsTrailingZeros) {
    EXPECT_EQ(significant(1.0539705970958606), "1.054");
    EXPECT_EQ(significant(1.0539705970958606, 6), "1.05397");
    EXPECT_EQ(significant(0.000123456), "0.0001235");
    EXPECT_EQ(significant(2.5), "2.5");
    EXPECT_EQ(significant(-0.0000001234), "-1.234e-07");
    EXPECT_EQ(significant(0), "0");
    EXPECT_EQ(significant(-0.00001, 1), "-1e-05");
}

// A whole part longer than the digits is kept whole, never an exponent:
// "1.03264e+07 ns" was the noise the issue quoted.
TEST(FigureFormat, NeverRoundsAwayDigitsLeftOfThePoint) {
    EXPECT_EQ(significant(1462217.4), "1462217");
    EXPECT_EQ(significant(10326400), "10326400");
    EXPECT_EQ(significant(9.99996), "10");
}

TEST(FigureFormat, TimesTakeTheLargestUnitThatKeepsThemAtLeastOne) {
    EXPECT_EQ(time_ns(421), "421 ns");
    EXPECT_EQ(time_ns(66278), "66.28 us");
    EXPECT_EQ(time_ns(1.03264e7), "10.33 ms");
    EXPECT_EQ(time_ns(2.5e9), "2.5 s");
    EXPECT_EQ(time_ns(7200e9), "7200 s") << "seconds are the largest unit";
    // 999.96 ns rounds to 1000 ns at four digits: that is 1 us.
    EXPECT_EQ(time_ns(999.96), "1 us");
}

TEST(FigureFormat, RatesAreDecimalAndSizesBinary) {
    // 2^20 bytes in 66,278 ns: 15.8209... GB/s.
    EXPECT_EQ(rate(1048576 / 66278e-9), "15.82 GB/s");
    EXPECT_EQ(rate(3.2e7), "32 MB/s");
    EXPECT_EQ(rate(512), "512 B/s");
    EXPECT_EQ(bytes(256), "256 B");
    EXPECT_EQ(bytes(8960), "8.75 KiB");  // 8960 / 1024
    EXPECT_EQ(bytes(1048576), "1 MiB");
    EXPECT_EQ(bytes(3e6), "2.861 MiB");  // 3e6 / 2^20 = 2.86102...
}

// One unit for every rate of a line: the largest picks it.
TEST(FigureFormat, RatesOfOneLineShareTheLargestsUnit) {
    const RateScale scale(15.82e9);
    EXPECT_EQ(scale(15.82e9), "15.82 GB/s");
    EXPECT_EQ(scale(5e8), "0.5 GB/s");
    EXPECT_EQ(RateScale(5e8)(5e8), "500 MB/s");
}

TEST(FigureFormat, SharesArePercentagesToThreeDigits) {
    EXPECT_EQ(percent(0.997254), "99.7 %");
    EXPECT_EQ(percent(0.372038), "37.2 %");
    EXPECT_EQ(percent(0), "0 %");
    EXPECT_EQ(percent(1), "100 %");
}

TEST(FigureFormat, NounsAgreeWithTheirCount) {
    EXPECT_EQ(count(1, "entry", "entries"), "1 entry");
    EXPECT_EQ(count(2, "entry", "entries"), "2 entries");
    EXPECT_EQ(count(0, "entry", "entries"), "0 entries");
}

TEST(FigureFormat, PluralUnitsTurnSingularForExactlyOne) {
    EXPECT_EQ(unit_for(1, "requests"), "request");
    EXPECT_EQ(unit_for(1, "entries"), "entry");
    EXPECT_EQ(unit_for(-1, "cycles"), "cycle");
    EXPECT_EQ(unit_for(2, "requests"), "requests");
    EXPECT_EQ(unit_for(1.5, "cycles"), "cycles");
    // Not plain plural words: unit symbols and phrases stay as they are.
    EXPECT_EQ(unit_for(1, "us"), "us");
    EXPECT_EQ(unit_for(1, "ns"), "ns");
    EXPECT_EQ(unit_for(1, "B/cycle"), "B/cycle");
    EXPECT_EQ(unit_for(1, "error code"), "error code");
    EXPECT_EQ(unit_for(1, "class"), "class");
}

// Nearest rank: p99 of n samples is sample ceil(0.99 n), the largest for
// every n below 100; p90 = ceil(0.9 n) is the largest below 10.
TEST(FigureFormat, PercentilesOfFewerThanAHundredSamplesCarryACaveat) {
    EXPECT_EQ(percentile_caveat(20, "request", "requests"),
              "from only 20 requests: p99 and above are their maximum");
    EXPECT_EQ(percentile_caveat(99, "request", "requests"),
              "from only 99 requests: p99 and above are their maximum");
    EXPECT_EQ(percentile_caveat(9, "descriptor", "descriptors"),
              "from only 9 descriptors: p90 and above are their maximum");
    EXPECT_EQ(percentile_caveat(1, "descriptor", "descriptors"),
              "from only 1 descriptor: every percentile is that one");
    EXPECT_EQ(percentile_caveat(100, "request", "requests"), "");
    EXPECT_EQ(percentile_caveat(0, "request", "requests"), "") << "no percentiles, no caveat";
    // The threshold is where the caveat stops being true: below it p99's
    // rank is the last sample, from it on an earlier one.
    const double below = kFewSamples - 1, at = kFewSamples;
    EXPECT_EQ(std::ceil(0.99 * below), below);
    EXPECT_LT(std::ceil(0.99 * at), at);
}

}  // namespace
}  // namespace dmasim::tb::figures
