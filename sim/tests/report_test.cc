// report_test.cc - report JSON, the human summary and atomic writes.
#include "report.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "support.h"

namespace dmasim::sim {
namespace {

/// 1 MiB in 65,536 cycles at 1000 MHz: 65,536 ns, 16 bytes per cycle.
tb::RunResult one_mib_result() {
    tb::RunResult r;
    r.bytes = 1 << 20;
    r.cycles = 65536;
    r.sim_time_ns = 65536;
    r.throughput_gbps = static_cast<double>(r.bytes) / r.sim_time_ns;
    r.bytes_per_cycle = static_cast<double>(r.bytes) / r.cycles;
    r.integrity = true;
    r.statistics = {{"dma.ch0", {{"read_bursts", 4096, "bursts"}}}};
    return r;
}

TEST(SimReport, KeepsWallTimeOutsideTheResult) {
    Json report = make_report(tb::SimConfig{}, one_mib_result(), 1.5);
    EXPECT_EQ(report["wall_seconds"], 1.5);
    EXPECT_FALSE(report["result"].contains("wall_seconds"));
    EXPECT_EQ(report["result"]["integrity"], "pass");
    EXPECT_EQ(report["statistics"]["dma.ch0"]["read_bursts"]["value"], 4096);
    EXPECT_EQ(report["statistics"]["dma.ch0"]["read_bursts"]["unit"], "bursts");
}

TEST(SimReport, FailedIntegrityCarriesTheReason) {
    tb::RunResult r = one_mib_result();
    r.integrity = false;
    r.failure = "byte 12 differs";
    r.first_bad_address = 0x1000;
    Json result = make_report(tb::SimConfig{}, r, 0)["result"];
    EXPECT_EQ(result["integrity"], "fail");
    EXPECT_EQ(result["failure"], "byte 12 differs");
    EXPECT_EQ(result["first_bad_address"], 0x1000);
}

TEST(SimReport, ConfigIsFlatByDottedKey) {
    tb::SimConfig c;
    c.workload.entries = 77;
    Json config = config_to_json(c);
    EXPECT_EQ(config["workload.entries"], 77);
    EXPECT_EQ(config["memory.placement"], "scattered");
    for (const auto& [key, value] : config.items()) EXPECT_FALSE(value.is_object()) << key;
}

TEST(SimSummary, StartsWithThePlatformAndShowsThroughput) {
    std::string text = summary_text(tb::SimConfig{}, one_mib_result(), 0.5);
    EXPECT_EQ(text.rfind("platform                  1000 MHz, 16-byte bus", 0), 0u) << text;
    // 2^20 bytes / 65,536 ns = 16 GB/s = 16 bytes/cycle at 1 GHz.
    EXPECT_NE(text.find("\nthroughput                16 GB/s\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\nbytes per cycle           16 B/cycle\n"), std::string::npos) << text;
    // 1 MiB in 0.5 s of wall time: 2 MiB per wall second.
    EXPECT_NE(text.find("(2.00 MiB/s simulated)"), std::string::npos) << text;
}

TEST(SimSummary, ShowsTheCycleAccountLargestFirstWithShares) {
    tb::RunResult r = one_mib_result();
    // 65,536 cycles: a quarter write-back, three quarters data, no other cause.
    r.account[static_cast<size_t>(model::Cause::writeback)] = r.cycles / 4;
    r.account[static_cast<size_t>(model::Cause::data)] = r.cycles - r.cycles / 4;
    std::string text = summary_text(tb::SimConfig{}, r, 0.5);
    const auto data = text.find("\ncycles by cause           data                    49152 cycles  75.0 %\n");
    const auto writeback = text.find("\n                          writeback               16384 cycles  25.0 %\n");
    EXPECT_NE(data, std::string::npos) << text;
    EXPECT_NE(writeback, std::string::npos) << text;
    EXPECT_LT(data, writeback);
    EXPECT_EQ(text.find("idle"), std::string::npos) << "causes without cycles are left out";
}

TEST(SimAtomicWrite, LeavesOnlyTheCompleteFile) {
    test::TempDir dir;
    const std::string path = dir.path() + "/r.json";
    write_file_atomically(path, "first");
    write_file_atomically(path, "second");
    EXPECT_EQ(test::read_file(path), "second");
    size_t files = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path()))
        ++files;
    EXPECT_EQ(files, 1u);  // no temporary left behind
}

TEST(SimAtomicWrite, FailsLoudlyInAMissingDirectory) {
    EXPECT_THROW(write_file_atomically("/nonexistent/dir/r.json", "x"), std::runtime_error);
}

}  // namespace
}  // namespace dmasim::sim
