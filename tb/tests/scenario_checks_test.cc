// scenario_checks_test.cc - a scenario refuses up front exactly the
// configurations it could only fail on: bus_fault a descriptor fault past
// the walker's last descriptor read, error_injection an outside-memory data
// address compact descriptors cannot hold. Runs are in child processes.
#include <dmasim/tb/scenario.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "support.h"

namespace dmasim::tb {
namespace {

using test::scenario;

bool names(const ScenarioRefusal& r, const std::string& key) {
    return std::find(r.keys.begin(), r.keys.end(), key) != r.keys.end();
}

SimConfig descriptor_fault(uint64_t entries, uint64_t depth) {
    SimConfig c = test::small_config();
    c.workload.scenario = "bus_fault";
    c.workload.entries = entries;
    c.workload.chain_depth = depth;
    c.workload.segment_bytes = 256;
    c.platform.dma.channels = 1;
    c.platform.dma.fault.kind = model::FaultKind::descriptor;
    c.platform.dma.fault.channel = 0;
    return c;
}

/// The first fault.index bus_fault refuses (below it, none is refused).
uint64_t first_refused_index(SimConfig c) {
    for (uint64_t index = 0;; ++index) {
        c.platform.dma.fault.index = index;
        if (scenario_refusal(scenario("bus_fault"), c)) return index;
    }
}

// Two levels translate [2 MiB, 1 GiB): one 256 MiB list fits, and so
// validate() passes it, but multi_channel holds one per channel at once.
TEST(ScenarioChecks, ListsHeldAtOnceMustFitTheIoAddressSpace) {
    SimConfig c = test::small_config();
    c.workload.scenario = "multi_channel";
    c.workload.direction = DMA_HW_DEV_TO_MEM;
    c.workload.entries = 64;
    c.workload.segment_bytes = 4 << 20;
    c.workload.chain_depth = 1;
    c.platform.iommu.enabled = true;
    c.platform.iommu.walk_levels = 2;
    c.platform.dma.channels = 1;
    EXPECT_FALSE(scenario_refusal(scenario("multi_channel"), c));
    c.platform.dma.channels = 4;
    const auto refusal = scenario_refusal(scenario("multi_channel"), c);
    ASSERT_TRUE(refusal);
    EXPECT_TRUE(names(*refusal, "iommu.walk_levels"));
    EXPECT_NE(refusal->why.find("I/O virtual address space"), std::string::npos) << refusal->why;
}

TEST(ScenarioChecks, BusFaultRefusesADescriptorFaultPastTheShippedListsLastRead) {
    // configs/scenarios/bus_fault.yaml: 64 entries in 2 chunks of 32 B
    // slots, read 8 at a time: a chunk of 32 entries and a link slot, then
    // one of 32 entries.
    SimConfig c = descriptor_fault(64, 2);
    const uint64_t reads = (33 + 7) / 8 + 32 / 8;
    c.platform.dma.fault.index = reads - 1;
    EXPECT_FALSE(scenario_refusal(scenario("bus_fault"), c));
    c.platform.dma.fault.index = 20;
    const auto refusal = scenario_refusal(scenario("bus_fault"), c);
    ASSERT_TRUE(refusal);
    EXPECT_TRUE(names(*refusal, "fault.index"));
    EXPECT_NE(refusal->why.find(fmt::format("must be below {}", reads)), std::string::npos)
        << refusal->why;
}

// For every way the walker batches its reads, the last index allowed is
// the last read (the channel stops with DESC_BUS) and the first refused
// one is never reached (the run would fail its checks).
TEST(ScenarioChecks, BusFaultDescriptorIndexRangeIsExactlyTheReadsTheWalkerMakes) {
    struct Point {
        dma_hw_format format;
        unsigned bytes;
        model::DescriptorFetch fetch;
        unsigned prefetch;
        uint64_t entries, depth;
        bool iommu;
    };
    using F = model::DescriptorFetch;
    const Point points[] = {
        {DMA_HW_FMT_CHAINED_PAGES, 32, F::burst, 8, 64, 2, false},
        {DMA_HW_FMT_CHAINED_PAGES, 16, F::burst, 3, 300, 1, false},
        {DMA_HW_FMT_CHAINED_PAGES, 64, F::burst, 128, 200, 3, false},
        {DMA_HW_FMT_CHAINED_PAGES, 32, F::word, 8, 20, 4, false},
        {DMA_HW_FMT_CHAINED_PAGES, 32, F::burst, 5, 150, 2, true},
        {DMA_HW_FMT_LINKED_LIST, 32, F::burst, 8, 40, 3, false},
        {DMA_HW_FMT_LINKED_LIST, 16, F::word, 1, 9, 2, false},
    };
    for (const Point& p : points) {
        SimConfig c = descriptor_fault(p.entries, p.depth);
        c.descriptor_format = p.format;
        c.platform.dma.descriptor_bytes = p.bytes;
        c.platform.dma.descriptor_fetch = p.fetch;
        c.platform.dma.descriptor_prefetch = p.prefetch;
        c.platform.iommu.enabled = p.iommu;
        const uint64_t refused = first_refused_index(c);
        SCOPED_TRACE(
            fmt::format("format {} bytes {} prefetch {} entries {} depth {} iommu {}: "
                        "first refused index {}",
                        int(p.format), p.bytes, p.prefetch, p.entries, p.depth, p.iommu, refused));
        ASSERT_GT(refused, 0u);
        c.platform.dma.fault.index = refused - 1;
        const test::ChildRun last = test::run_in_child(c);
        EXPECT_TRUE(last.integrity && last.held == 1) << last.failure;
        c.platform.dma.fault.index = refused;
        const test::ChildRun past = test::run_in_child(c);
        EXPECT_TRUE(past.ran);
        EXPECT_FALSE(past.integrity);
        EXPECT_EQ(past.held, 0u);
    }
}

SimConfig compact_error_injection(uint64_t memory_mib) {
    SimConfig c = test::small_config();
    c.workload.scenario = "error_injection";
    c.platform.dma.descriptor_bytes = 16;
    c.memory_size_mib = memory_mib;
    return c;
}

TEST(ScenarioChecks, ErrorInjectionRefusesCompactDescriptorsWhenNoAddressLiesOutsideRam) {
    // 4096 MiB fills every 32-bit address; a cut address would land in RAM.
    const auto refusal =
        scenario_refusal(scenario("error_injection"), compact_error_injection(4096));
    ASSERT_TRUE(refusal);
    EXPECT_TRUE(names(*refusal, "dma.descriptor_bytes"));
    EXPECT_TRUE(names(*refusal, "memory.size_mib"));
    EXPECT_FALSE(scenario_refusal(scenario("error_injection"), compact_error_injection(4095)));
}

TEST(ScenarioChecks, ErrorInjectionWithCompactDescriptorsBelowFourGiBSeesEveryErrorClass) {
    const test::ChildRun r = test::run_in_child(compact_error_injection(4095));
    EXPECT_TRUE(r.integrity) << r.failure;
    EXPECT_GT(r.classes, 0u);
    EXPECT_EQ(r.held, r.classes);
}

}  // namespace
}  // namespace dmasim::tb
