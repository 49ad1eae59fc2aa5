// iommu_e2e_test.cc - the IOMMU through the real binary: off, nothing
// changes; on, every format and direction moves the right bytes through
// page tables the driver built; a revoked page stops its channel with
// TRANSLATION; bad IOMMU settings exit 2 naming the key.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

using nlohmann::json;
using test::run_dmasim;
using test::TempDir;

/// Runs `dmasim run` with `sets` and returns the report (exit status must
/// be `expected_status`).
json run_with(const TempDir& dir, const std::vector<std::string>& sets, int expected_status = 0) {
    const std::string report = dir.path() + "/r.json";
    std::vector<std::string> args = {"run", "--quiet", "--report", report};
    for (const std::string& set : sets) {
        args.push_back("--set");
        args.push_back(set);
    }
    auto r = run_dmasim(dir, args);
    EXPECT_EQ(r.status, expected_status) << r.err;
    return json::parse(test::read_file(report));
}

/// stderr of a run that must be refused with exit status 2.
std::string refused(const TempDir& dir, const std::vector<std::string>& sets) {
    std::vector<std::string> args = {"run", "--quiet"};
    for (const std::string& set : sets) {
        args.push_back("--set");
        args.push_back(set);
    }
    auto r = run_dmasim(dir, args);
    EXPECT_EQ(r.status, 2) << r.err;
    return r.err;
}

TEST(SimIommuE2E, IommuOffKeepsTheDefaultRunsCycles) {
    // The default run's pinned count (engine_e2e_test): every iommu.* key
    // other than enabled is inert while the IOMMU is off.
    constexpr uint64_t kDefaultCycles = 66278;
    TempDir dir;
    EXPECT_EQ(run_with(dir, {})["result"]["cycles"], kDefaultCycles);
    EXPECT_EQ(run_with(dir, {"iommu.enabled=false", "iommu.iotlb_entries=8", "iommu.iotlb_ways=2",
                             "iommu.walk_levels=5", "iommu.page_size=2MiB"})["result"]["cycles"],
              kDefaultCycles);
}

TEST(SimIommuE2E, EveryFormatAndDirectionMovesTheRightBytesBehindTheIommu) {
    // 24 segments of 3000 bytes end mid-page, so none merge: 24 data
    // descriptors over 3 chunks, as without the IOMMU.
    constexpr uint64_t kEntries = 24, kSegment = 3000;
    for (const char* format : {"chained_pages", "linked_list"})
        for (const char* direction : {"mem_to_mem", "dev_to_mem", "mem_to_dev"}) {
            TempDir dir;
            const json r =
                run_with(dir, {"iommu.enabled=true", std::string("dma.descriptor_format=") + format,
                               std::string("workload.direction=") + direction,
                               "workload.entries=" + std::to_string(kEntries),
                               "workload.segment_bytes=" + std::to_string(kSegment),
                               "workload.chain_depth=3"});
            const std::string where = std::string(format) + " " + direction;
            EXPECT_EQ(r["result"]["integrity"], "pass")
                << where << ": " << r["result"].value("failure", "");
            EXPECT_EQ(r["result"]["bytes"], kEntries * kSegment) << where;
            EXPECT_EQ(r["result"]["descriptors"], kEntries) << where;
        }
}

TEST(SimIommuE2E, WholePagesMergeIntoOneDescriptor) {
    // 64 scattered 4 KiB pages at offset 0 are one IOVA run: one data
    // descriptor, so one chunk is linked and there is no chain link.
    constexpr uint64_t kEntries = 64, kPage = 4096;
    for (const char* page_size : {"4KiB", "2MiB"}) {
        TempDir dir;
        const json r =
            run_with(dir, {"iommu.enabled=true", std::string("iommu.page_size=") + page_size,
                           "workload.entries=" + std::to_string(kEntries),
                           "workload.segment_bytes=4096", "workload.chain_depth=4"});
        EXPECT_EQ(r["result"]["integrity"], "pass") << r["result"].value("failure", "");
        EXPECT_EQ(r["result"]["bytes"], kEntries * kPage);
        EXPECT_EQ(r["result"]["descriptors"], 1);
        EXPECT_EQ(r["result"]["chain_links"], 0);
    }
}

TEST(SimIommuE2E, StreamingCopyMissesOncePerPageOnEachSideAndWalksEveryLevel) {
    // P whole pages merge into one descriptor. Each page is read once and
    // written once, so each side misses once per page; the descriptor's
    // page misses at its fetch and hits at its write-back (16 sets of 4
    // ways hold it past 2 x 16 data pages). Every 256-byte burst (16 beats
    // of 16 B) is one translation: 2 P x 4096 / 256 of them, plus the fetch
    // and the write-back. A miss reads one entry per level.
    constexpr uint64_t kPages = 16, kBurst = 256, kPage = 4096;
    for (uint64_t levels : {3, 4, 5}) {
        TempDir dir;
        const json r = run_with(
            dir, {"iommu.enabled=true", "workload.entries=16", "workload.segment_bytes=4096",
                  "workload.chain_depth=1", "iommu.walk_levels=" + std::to_string(levels)});
        EXPECT_EQ(r["result"]["integrity"], "pass") << r["result"].value("failure", "");
        const json& io = r["statistics"]["iommu"];
        const uint64_t misses = 2 * kPages + 1;
        const uint64_t translations = 2 * kPages * (kPage / kBurst) + 2;
        EXPECT_EQ(io["iotlb_misses"]["value"], misses) << levels;
        EXPECT_EQ(io["iotlb_hits"]["value"], translations - misses) << levels;
        EXPECT_EQ(io["walk_reads"]["value"], levels * misses) << levels;
        EXPECT_EQ(io["translation_faults"]["value"], 0) << levels;
    }
}

TEST(SimIommuE2E, TwoMibPagesMissOncePerLargePageOfAContiguousBuffer) {
    // E 1 MiB segments (order-8 blocks, so 1 MiB aligned) placed
    // contiguously form one physically contiguous run of E MiB; the IOMMU
    // merges them into one descriptor read by mem_to_dev. Each 256-byte
    // burst is one translation, plus the descriptor's fetch and
    // write-back, which both miss (4 IOTLB entries: the data evicts it).
    // 4 KiB pages: one miss per page, Lv reads each. 2 MiB pages: the IOVA
    // takes the run's physical offset within 2 MiB, so each whole 2 MiB
    // page inside the run is one 2 MiB miss (Lv - 1 reads), and only a
    // run that starts 1 MiB into a 2 MiB page has 4 KiB pages left: 256 at
    // each end, with E/2 - 1 large pages between.
    constexpr uint64_t kEntries = 16, kMiB = 1 << 20, kPage = 4096, kBurst = 256, kLevels = 4;
    constexpr uint64_t kDescriptorMisses = 2;
    const uint64_t translations = kEntries * kMiB / kBurst + kDescriptorMisses;
    auto run = [&](const char* page_size) {
        TempDir dir;
        return run_with(
            dir, {"iommu.enabled=true", std::string("iommu.page_size=") + page_size,
                  "memory.placement=contiguous", "workload.direction=mem_to_dev",
                  "workload.entries=" + std::to_string(kEntries), "workload.segment_bytes=1MiB",
                  "workload.chain_depth=1", "iommu.iotlb_entries=4", "iommu.iotlb_ways=4",
                  "iommu.walk_levels=" + std::to_string(kLevels)});
    };
    const json small = run("4KiB");
    const json large = run("2MiB");
    for (const json* r : {&small, &large}) {
        // Bytes are checked whatever the translations cost.
        EXPECT_EQ((*r)["result"]["integrity"], "pass") << (*r)["result"].value("failure", "");
        EXPECT_EQ((*r)["result"]["descriptors"], 1);
        EXPECT_EQ((*r)["statistics"]["iommu"]["iotlb_misses"]["value"].get<uint64_t>() +
                      (*r)["statistics"]["iommu"]["iotlb_hits"]["value"].get<uint64_t>(),
                  translations);
    }
    const json& io4k = small["statistics"]["iommu"];
    const uint64_t misses_4k = kEntries * kMiB / kPage + kDescriptorMisses;
    EXPECT_EQ(io4k["iotlb_misses"]["value"], misses_4k);
    EXPECT_EQ(io4k["walk_reads"]["value"], kLevels * misses_4k);

    // misses = m4 + m2 and walk reads = Lv m4 + (Lv - 1) m2 give both.
    const json& io2m = large["statistics"]["iommu"];
    const uint64_t misses = io2m["iotlb_misses"]["value"].get<uint64_t>();
    const uint64_t walk_reads = io2m["walk_reads"]["value"].get<uint64_t>();
    const uint64_t large_misses = kLevels * misses - walk_reads;
    const uint64_t page_misses = misses - large_misses - kDescriptorMisses;
    const bool run_aligned = page_misses == 0;
    EXPECT_EQ(page_misses, run_aligned ? 0 : 2 * (kMiB / kPage)) << misses;
    EXPECT_EQ(large_misses, run_aligned ? kEntries / 2 : kEntries / 2 - 1) << misses;
    EXPECT_LT(misses * 7, misses_4k);  // at least 7x fewer than with 4 KiB pages
    EXPECT_LT(large["result"]["cycles"].get<uint64_t>(), small["result"]["cycles"].get<uint64_t>());
}

TEST(SimIommuE2E, RevokedPageStopsItsChannelWithTranslation) {
    // bus_fault on two channels: channel 1's data descriptor 5 loses its
    // first page before START, so it completes descriptors 0..4 and stops
    // with TRANSLATION (9); channel 0 finishes and passes the scoreboard.
    constexpr uint64_t kIndex = 5, kSegment = 1000;
    TempDir dir;
    const json r =
        run_with(dir, {"iommu.enabled=true", "workload.scenario=bus_fault", "dma.channels=2",
                       "workload.entries=12", "workload.segment_bytes=" + std::to_string(kSegment),
                       "workload.chain_depth=3", "fault.kind=translation", "fault.channel=1",
                       "fault.index=" + std::to_string(kIndex)});
    EXPECT_EQ(r["result"]["integrity"], "pass") << r["result"].value("failure", "");
    const json& stats = r["statistics"]["dma.ch1"];
    EXPECT_EQ(stats["descriptors"]["value"], kIndex);
    EXPECT_EQ(stats["bytes"]["value"], kIndex * kSegment);
    const json& results = r["result"]["scenario_results"];
    EXPECT_EQ(results["fault.code"]["value"], 9) << results.dump();  // DMA_ERR_TRANSLATION
    EXPECT_EQ(results["fault.held"]["value"], 1) << results.dump();
}

TEST(SimIommuE2E, TranslationFaultInAThroughputRunFailsByName) {
    TempDir dir;
    const json r =
        run_with(dir,
                 {"iommu.enabled=true", "workload.entries=8", "workload.segment_bytes=1000",
                  "workload.chain_depth=1", "fault.kind=translation", "fault.index=3"},
                 1);
    EXPECT_NE(r["result"]["failure"].get<std::string>().find("(error TRANSLATION)"),
              std::string::npos)
        << r["result"]["failure"];
    EXPECT_EQ(r["result"]["descriptors"], 3);
}

TEST(SimIommuE2E, BadIommuSettingsExitTwoNamingTheKey) {
    TempDir dir;
    EXPECT_NE(refused(dir, {"iommu.page_size=64KiB"}).find("iommu.page_size"), std::string::npos);
    EXPECT_NE(refused(dir, {"iommu.page_size=64KiB"}).find("allowed: 4096, 2097152"),
              std::string::npos);
    EXPECT_NE(refused(dir, {"iommu.walk_levels=6"}).find("iommu.walk_levels"), std::string::npos);
    EXPECT_NE(refused(dir, {"fault.kind=translation"}).find("iommu.enabled"), std::string::npos);
    EXPECT_NE(refused(dir, {"iommu.enabled=true", "workload.scenario=error_injection"})
                  .find("iommu.enabled"),
              std::string::npos);
}

TEST(SimIommuE2E, ListBeyondTheIoAddressSpaceExitsTwoBeforeRunning) {
    // Two levels translate 30 bits: the space is [2 MiB, 1 GiB). A 1.25 GiB
    // list (payload none: its pages are never touched) cannot be mapped.
    TempDir dir;
    const std::string err = refused(
        dir, {"iommu.enabled=true", "iommu.walk_levels=2", "memory.size_mib=2048",
              "workload.payload=none", "workload.direction=dev_to_mem", "workload.entries=320",
              "workload.segment_bytes=4MiB", "workload.chain_depth=1"});
    EXPECT_NE(err.find("iommu.walk_levels"), std::string::npos) << err;
    EXPECT_NE(err.find("address space"), std::string::npos) << err;
}

}  // namespace
}  // namespace dmasim::sim
