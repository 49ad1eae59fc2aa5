// pcie_e2e_test.cc - the PCIe link as the bus through the real binary:
// transfers pass in every format and direction, the effective bandwidth
// of DMA writes and reads of s-byte TLPs reproduces the pcie-bench model
// (Neugebauer et al., SIGCOMM 2018; docs/pcie.md) and bad link parameters
// exit 2 naming the key.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

using nlohmann::json;
using test::run_dmasim;
using test::TempDir;

json run_result(const TempDir& dir, const std::vector<std::string>& sets) {
    const std::string report = dir.path() + "/r.json";
    std::vector<std::string> args = {"run", "--set", "bus.kind=pcie"};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    args.insert(args.end(), {"--report", report, "--quiet"});
    auto r = run_dmasim(dir, args);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.status == 0 ? json::parse(test::read_file(report))["result"] : json{};
}

TEST(SimPcieE2E, TransfersPassInEveryFormatAndDirection) {
    TempDir dir;
    // Gen3 x8 less 8.14 % DLLPs: 7.24 bytes per cycle at 1 GHz, the most
    // any direction can carry.
    const double link = 8.0 * 8 * 128 / 130 / 8 * (1 - 0.0814);
    for (const char* format : {"chained_pages", "linked_list"})
        for (const char* direction : {"mem_to_mem", "dev_to_mem", "mem_to_dev"}) {
            SCOPED_TRACE(fmt::format("{} {}", format, direction));
            const json r = run_result(dir, {fmt::format("dma.descriptor_format={}", format),
                                            fmt::format("workload.direction={}", direction),
                                            "workload.entries=24", "workload.chain_depth=3",
                                            "workload.segment_bytes=3000", "workload.offset=100"});
            EXPECT_EQ(r["integrity"], "pass");
            EXPECT_LE(r["bytes_per_cycle"].get<double>(), link);
        }
}

// pcie-bench's model (pcie-model, mem_bw.py) for a Gen3 x8 link, MPS 256,
// MRRS 512, 64-bit addresses: the TLP layer carries 7.24 GB/s per
// direction (57.88 Gb/s), and an s-byte DMA pays 24 bytes per MWr TLP
// (writes) or 20 per CplD (reads), one TLP per 256 bytes.
double pcie_bench_gbps(bool write, uint64_t s) {
    const double tlp_layer = 8.0 * 8 * 128 / 130 / 8 * (1 - 0.0814);
    const double tlps = std::ceil(s / 256.0);
    return tlp_layer * s / (s + (write ? 24 : 20) * tlps);
}

// DMAs of s bytes back to back: bursts of s bytes out of 64 KiB segments
// (so descriptors cost almost nothing), a fast device, no write-backs, and
// enough reads in flight to cover the round trip, as pcie-bench's
// bandwidth tests do.
double dmasim_gbps(const TempDir& dir, bool write, uint64_t s) {
    return run_result(
               dir,
               {write ? "workload.direction=dev_to_mem" : "workload.direction=mem_to_dev",
                "device.rate_bytes_per_cycle=64", fmt::format("dma.max_burst_beats={}", s / 16),
                "workload.entries=64", "workload.segment_bytes=65536", "workload.chain_depth=1",
                "dma.status_writeback=none", "dma.max_outstanding_reads=256",
                "dma.max_outstanding_writes=256", "pcie.tags=256", "dma.buffer_bytes=65536",
                "workload.payload=none"})["throughput_gbps"]
        .get<double>();
}

/// 64, 256 and 1,024-byte DMAs in one direction within 0.5 % of the model.
void expect_pcie_bench(bool write) {
    TempDir dir;
    for (uint64_t s : {64, 256, 1024}) {
        SCOPED_TRACE(s);
        const double reference = pcie_bench_gbps(write, s);
        EXPECT_NEAR(dmasim_gbps(dir, write, s), reference, 0.005 * reference);
    }
}

TEST(SimPcieE2E, WriteBandwidthReproducesPcieBenchWithinHalfAPercent) { expect_pcie_bench(true); }

TEST(SimPcieE2E, ReadBandwidthReproducesPcieBenchWithinHalfAPercent) { expect_pcie_bench(false); }

// TLP efficiency without DLLPs, as Intel AN 456 and AMD/Xilinx WP350
// compute it: a 3DW header (12 bytes) plus 2 framing, 2 sequence and 4
// LCRC bytes per TLP, so MPS-sized writes carry 256 / (256 + 20) = 92.8 %
// of the raw Gen3 rate at MPS 256 and 128 / 148 = 86.5 % at MPS 128.
TEST(SimPcieE2E, WriteEfficiencyAtMaxPayloadMatchesTheTlpOverhead) {
    TempDir dir;
    const double raw = 8.0 * 8 * 128 / 130 / 8;
    for (uint64_t mps : {128, 256}) {
        SCOPED_TRACE(mps);
        const json r = run_result(
            dir, {"workload.direction=dev_to_mem", "device.rate_bytes_per_cycle=64",
                  "dma.max_burst_beats=256", "workload.entries=64", "workload.segment_bytes=65536",
                  "workload.chain_depth=1", "dma.status_writeback=none",
                  "dma.max_outstanding_writes=256", "dma.buffer_bytes=65536",
                  "workload.payload=none", "pcie.request_header_bytes=12", "pcie.dllp_overhead=0",
                  fmt::format("pcie.max_payload_bytes={}", mps)});
        const double efficiency = r["throughput_gbps"].get<double>() / raw;
        EXPECT_NEAR(efficiency, double(mps) / (mps + 20), 0.005);
    }
}

// Issue 28: posted writes once ran at the link's pace past a slower
// memory (6.47 bytes per cycle into 0.5) and the run died on its own
// invariant check. They now obey the memory's bandwidth, and nearly reach
// it: the writes are what limits this transfer.
TEST(SimPcieE2E, PostedWritesObeyTheMemoryBandwidth) {
    TempDir dir;
    constexpr double kBandwidth = 0.5;
    const json r = run_result(dir, {fmt::format("memory.bandwidth_bytes_per_cycle={}", kBandwidth),
                                    "workload.direction=dev_to_mem"});
    EXPECT_EQ(r["integrity"], "pass");
    EXPECT_LE(r["bytes_per_cycle"].get<double>(), kBandwidth);
    EXPECT_GT(r["bytes_per_cycle"].get<double>(), 0.95 * kBandwidth);
}

TEST(SimPcieE2E, BadLinkParametersExitTwoNamingTheKey) {
    TempDir dir;
    struct Case {
        std::string set;
        std::vector<std::string> says;
    };
    for (const Case& c : std::vector<Case>{
             {"pcie.max_payload_bytes=384", {"pcie.max_payload_bytes", "power of two"}},
             {"pcie.max_payload_bytes=8192", {"pcie.max_payload_bytes", "128 .. 4096"}},
             {"pcie.max_read_request_bytes=64", {"pcie.max_read_request_bytes", "128 .. 4096"}},
             {"pcie.gen=6", {"pcie.gen", "1 .. 5"}},
             {"pcie.lanes=3", {"pcie.lanes", "power of two"}},
             {"pcie.request_header_bytes=14",
              {"pcie.request_header_bytes", "not an allowed value", "12, 16"}},
             {"bus.kind=hypertransport", {"bus.kind", "axi, pcie"}}}) {
        auto r = run_dmasim(dir, {"run", "--set", "bus.kind=pcie", "--set", c.set});
        EXPECT_EQ(r.status, 2) << c.set;
        for (const auto& part : c.says)
            EXPECT_NE(r.err.find(part), std::string::npos) << part << "\n" << r.err;
    }
}

}  // namespace
}  // namespace dmasim::sim
