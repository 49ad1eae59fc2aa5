// fit_input_test.cc - the ranges `dmasim fit --key KEY=LO..HI` takes
// (fit_input.h): units as config values take them, and counts that need
// more than 64 bits.
#include "fit_input.h"

#include <gtest/gtest.h>

#include "config_error.h"

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

}  // namespace
}  // namespace dmasim::sim
