// fit_input_test.cc - the ranges `dmasim fit --key KEY=LO..HI` takes
// (fit_input.h): units as config values take them, and counts that need
// more than 64 bits; the points' columns it cannot place.
#include "fit_input.h"

#include <gtest/gtest.h>

#include "config_error.h"
#include "config_error_of.h"
#include "support.h"

namespace dmasim::sim {
namespace {

std::string fit_key_error(const std::string& arg, double clock_mhz = 1000) {
    try {
        parse_fit_key(arg, clock_mhz);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "no error";
}

TEST(FitKey, BoundsTakeSizeUnitsAsConfigValuesDo) {
    const FitKey key = parse_fit_key("dma.buffer_bytes=1KiB..2KiB", 1000);
    EXPECT_EQ(key.lo, 1024u);
    EXPECT_EQ(key.hi, 2048u);
}

TEST(FitKey, TimesOnCycleKeysAreCyclesAtTheProfilesClock) {
    // 1 ns is 1 cycle at 1000 MHz, 2 us is 2000; at 250 MHz a cycle is 4 ns.
    const FitKey fast = parse_fit_key("dma.descriptor_setup_cycles=1ns..2us", 1000);
    EXPECT_EQ(fast.lo, 1u);
    EXPECT_EQ(fast.hi, 2000u);
    const FitKey slow = parse_fit_key("dma.descriptor_setup_cycles=8ns..2us", 250);
    EXPECT_EQ(slow.lo, 2u);
    EXPECT_EQ(slow.hi, 500u);
    // 1 ns at 250 MHz is a quarter cycle: refused as a config value is.
    EXPECT_NE(fit_key_error("dma.descriptor_setup_cycles=1ns..2us", 250).find("--key: "),
              std::string::npos);
}

TEST(FitKey, FullSixtyFourBitRangeIsRefusedNotWrappedToNoValues) {
    // 0..2^64-1 holds 2^64 values: a 64-bit count wrapped it to 0.
    EXPECT_EQ(fit_key_error("workload.seed=0..18446744073709551615"),
              "--key: 'workload.seed=0..18446744073709551615': the range "
              "0..18446744073709551615 holds 2^64 values, more than the 18446744073709551615 a "
              "fit can search; narrow it by one");
    // One value fewer is countable: 2^64 - 1 values.
    const FitKey key = parse_fit_key("workload.seed=1..18446744073709551615", 1000);
    EXPECT_EQ(key.size(), UINT64_MAX);
    EXPECT_EQ(key.value(key.size() - 1), UINT64_MAX);
}

/// The error read_fit_points() gives for a points file of one row whose
/// header is `header`.
std::string points_error(const std::string& header, const std::string& row) {
    test::TempDir dir;
    const std::string path = dir.write("points.csv", header + "\n" + row + "\n");
    return test::error_of([&] { read_fit_points(path, {}); });
}

TEST(FitPoints, MisspeltKeyColumnGetsTheKeyItIsNearest) {
    EXPECT_NE(points_error("workload.entriez,cycles", "4,100")
                  .find("column 'workload.entriez' is neither a config key nor a measurement "
                        "(cycles, throughput_gbps, or a statistic of docs/statistics.md such as "
                        "dma.ch0.fetch_to_read_cycles), did you mean workload.entries?"),
              std::string::npos);
}

TEST(FitPoints, MisspeltStatisticColumnGetsItOnTheChannelItNames) {
    // The guess keeps the channel the column names (1), not channel 0's
    // statistic, which is one edit further.
    EXPECT_NE(points_error("workload.entries,dma.ch1.fetch_to_read_cyclse", "4,100")
                  .find("did you mean dma.ch1.fetch_to_read_cycles?"),
              std::string::npos);
    EXPECT_NE(points_error("workload.entries,throughput_gbs", "4,100")
                  .find("did you mean throughput_gbps?"),
              std::string::npos);
}

TEST(FitPoints, ColumnNearNothingGetsNoGuess) {
    const std::string error = points_error("workload.entries,zzzzzzzz,cycles", "4,1,100");
    EXPECT_NE(error.find("column 'zzzzzzzz' is neither"), std::string::npos) << error;
    EXPECT_EQ(error.find("did you mean"), std::string::npos) << error;
}

}  // namespace
}  // namespace dmasim::sim
