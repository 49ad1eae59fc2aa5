// dram_e2e_test.cc - memory.kind dram through the real binary: every
// memory preset layers under an engine profile, scattered 64-byte segments
// pay row misses and the account's dram cause where contiguous ones and
// the fixed memory do not, and the fixed memory's figures are untouched.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

using nlohmann::json;
using test::run_dmasim;
using test::TempDir;

/// Runs dmasim with `args` and a report; returns the whole report.
json run_report(const TempDir& dir, std::vector<std::string> args) {
    const std::string report = dir.path() + "/r.json";
    args.insert(args.end(), {"--report", report, "--quiet"});
    auto r = run_dmasim(dir, args);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.status == 0 ? json::parse(test::read_file(report)) : json{};
}

double stat(const json& report, const char* group, const char* name) {
    return report["statistics"][group][name]["value"].get<double>();
}

TEST(SimDramE2E, EveryMemoryPresetRunsUnderAnEngineProfile) {
    TempDir dir;
    for (const auto& preset :
         std::filesystem::directory_iterator(DMASIM_SOURCE_DIR "/configs/memory")) {
        SCOPED_TRACE(preset.path().string());
        const json r = run_report(dir, {"run", DMASIM_SOURCE_DIR "/configs/engines/axi-dma.yaml",
                                        preset.path().string()});
        EXPECT_EQ(r["result"]["integrity"], "pass");
        EXPECT_GT(stat(r, "dram", "reads"), 0);
        EXPECT_GT(stat(r, "dram", "peak_bytes_per_cycle"), 0);
    }
}

TEST(SimDramE2E, ScatteredSmallSegmentsPayRowMissesFixedMemoryDoesNot) {
    TempDir dir;
    auto run = [&](const char* kind, const char* placement) {
        return run_report(dir, {"run", "--set", std::string("memory.kind=") + kind, "--set",
                                std::string("memory.placement=") + placement, "--set",
                                "workload.entries=512", "--set", "workload.segment_bytes=64"});
    };
    const json contiguous = run("dram", "contiguous");
    const json scattered = run("dram", "scattered");
    auto opened = [](const json& r) {
        return stat(r, "dram", "row_misses") + stat(r, "dram", "row_conflicts");
    };
    EXPECT_GT(opened(scattered), 1.5 * opened(contiguous));
    EXPECT_GT(stat(scattered, "account", "dram"), stat(contiguous, "account", "dram"));
    EXPECT_GT(scattered["result"]["cycles"].get<double>(),
              contiguous["result"]["cycles"].get<double>());
    // The fixed memory has no DRAM: no group, nothing charged to it, and
    // placement changes nothing.
    const json fixed_contiguous = run("fixed", "contiguous");
    const json fixed_scattered = run("fixed", "scattered");
    EXPECT_FALSE(fixed_scattered["statistics"].contains("dram"));
    EXPECT_EQ(stat(fixed_scattered, "account", "dram"), 0);
    EXPECT_EQ(fixed_scattered["result"]["cycles"], fixed_contiguous["result"]["cycles"]);
}

TEST(SimDramE2E, BadWatermarksAreRefusedNamingTheKeys) {
    TempDir dir;
    auto r = run_dmasim(dir, {"run", "--set", "memory.kind=dram", "--set",
                              "memory.write_low_watermark=30", "--quiet"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("memory.write_low_watermark"), std::string::npos) << r.err;
}

// A run cut by a refresh is taken again after it, so a burst that cannot
// fit between two refreshes would be retried forever.
TEST(SimDramE2E, ABurstLongerThanTheTimeBetweenRefreshesIsRefusedNamingTheTimings) {
    TempDir dir;
    auto r = run_dmasim(dir, {"run", "--set", "memory.kind=dram", "--set", "memory.t_refi_ns=40",
                              "--set", "memory.t_rfc_ns=20", "--quiet"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("does not fit between two refreshes"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("memory.t_refi_ns = 40"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace dmasim::sim
