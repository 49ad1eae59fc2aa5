// run_test.cc - the driver end to end through run_simulation(): every
// direction and format on a small list, the scoreboard catching a
// corrupted destination, a write into the source, a write past a segment
// and a byte left unwritten, and configurations that cannot run.
// Each test elaborates at most once (ctest runs each in its own process).
#include <dmasim/workload/workload.h>
#include <dmasim/tb/run.h>
#include <dmasim/tb/scenario.h>
#include <gtest/gtest.h>
#include <sglist/mm.h>
#include <sglist/scatterlist.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "host_memory.h"
#include "scoreboard.h"
#include "support.h"

namespace dmasim::tb {
namespace {

void expect_clean_run(dma_hw_direction dir, dma_hw_format format) {
    SimConfig c = test::small_config();
    c.workload.direction = dir;
    c.descriptor_format = format;
    const RunResult r = run_simulation(c);
    EXPECT_TRUE(r.integrity) << r.failure;
    EXPECT_EQ(r.bytes, test::list_bytes(c.workload));
    EXPECT_EQ(r.descriptors, c.workload.entries);
    EXPECT_EQ(r.chain_links, c.workload.chain_depth - 1);
    EXPECT_EQ(r.leaked_pages, 0u);
    EXPECT_GT(r.sim_time_ns, 0);
    // cycles = round(sim_time_ns * clock_mhz / 1000), docs/statistics.md.
    EXPECT_EQ(r.cycles, uint64_t(std::llround(r.sim_time_ns * c.platform.clock_mhz / 1000)));
    EXPECT_DOUBLE_EQ(r.throughput_gbps, r.bytes / r.sim_time_ns);
}

TEST(DriverEndToEnd, MemToMemChainedPages) {
    expect_clean_run(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES);
}
TEST(DriverEndToEnd, MemToMemLinkedList) {
    expect_clean_run(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_LINKED_LIST);
}
TEST(DriverEndToEnd, DevToMemChainedPages) {
    expect_clean_run(DMA_HW_DEV_TO_MEM, DMA_HW_FMT_CHAINED_PAGES);
}
TEST(DriverEndToEnd, DevToMemLinkedList) {
    expect_clean_run(DMA_HW_DEV_TO_MEM, DMA_HW_FMT_LINKED_LIST);
}
TEST(DriverEndToEnd, MemToDevChainedPages) {
    expect_clean_run(DMA_HW_MEM_TO_DEV, DMA_HW_FMT_CHAINED_PAGES);
}
TEST(DriverEndToEnd, MemToDevLinkedList) {
    expect_clean_run(DMA_HW_MEM_TO_DEV, DMA_HW_FMT_LINKED_LIST);
}

TEST(DriverEndToEnd, UniformSegmentsInContiguousMemory) {
    SimConfig c = test::small_config();
    c.placement = SIM_MEM_CONTIGUOUS;
    c.workload.distribution = DMASIM_SEG_UNIFORM;
    c.workload.segment_bytes_min = 1;
    c.workload.segment_bytes_max = 9000;  // some segments span three pages
    const RunResult r = run_simulation(c);
    EXPECT_TRUE(r.integrity) << r.failure;
    EXPECT_EQ(r.bytes, test::list_bytes(c.workload));
    EXPECT_EQ(r.descriptors, c.workload.entries);
}

TEST(DriverEndToEnd, LognormalSegments) {
    SimConfig c = test::small_config();
    c.workload.distribution = DMASIM_SEG_LOGNORMAL;
    c.workload.segment_bytes = 2000;
    c.workload.lognormal_sigma = 1.0;
    const RunResult r = run_simulation(c);
    EXPECT_TRUE(r.integrity) << r.failure;
    EXPECT_EQ(r.bytes, test::list_bytes(c.workload));
}

// 16 MiB each way: the scoreboard fills and checks it in parts on
// several cores, and the run must still come out clean.
TEST(DriverEndToEnd, AListCheckedInPartsRunsClean) {
    SimConfig c = test::small_config();
    c.memory_size_mib = 128;
    c.workload.entries = 4096;
    c.workload.segment_bytes = 4096;
    c.workload.offset = 0;
    c.workload.chain_depth = 16;
    const RunResult r = run_simulation(c);
    EXPECT_TRUE(r.integrity) << r.failure;
    EXPECT_EQ(r.bytes, uint64_t{16} << 20);
}

// Where the test scenario below changed a byte.
uint64_t corrupted_address = 0;

// Runs the configured list, then lets `change` alter one byte of segment 5
// of its source or destination behind the scoreboard's back (`change`
// gets the segment's bytes and length and returns the byte's offset from
// the segment's start), then checks.
template <typename Change>
void run_then_change(ScenarioBench& bench, bool in_source, Change change) {
    Transfer& t = bench.prepare(bench.config().workload, 0);
    bench.run(t);
    scatterlist* sg = in_source ? t.xfer().src.sgl : t.xfer().dst.sgl;
    for (int i = 0; i < 5; ++i) sg = sg_next(sg);
    const unsigned at = change(static_cast<uint8_t*>(sg_virt(sg)), sg->length);
    corrupted_address = sg_phys(sg) + at;
    bench.check(t);
}

unsigned flip_byte_17(uint8_t* segment, unsigned) {
    segment[17] = static_cast<uint8_t>(~segment[17]);
    return 17;
}

DMASIM_SCENARIO(test_corrupt_destination) { run_then_change(bench, false, flip_byte_17); }

// An engine that writes into its source.
DMASIM_SCENARIO(test_corrupt_source) { run_then_change(bench, true, flip_byte_17); }

// An engine that writes one byte past a segment (a stray zero).
DMASIM_SCENARIO(test_write_past_segment) {
    run_then_change(bench, false, [](uint8_t* segment, unsigned length) {
        segment[length] = 0;
        return length;
    });
}

// An engine that skips a byte: it holds the fresh frame's zero again (the
// first byte whose pattern is not zero).
DMASIM_SCENARIO(test_leave_byte_unwritten) {
    run_then_change(bench, false, [](uint8_t* segment, unsigned) {
        unsigned at = 0;
        while (segment[at] == kSegmentFill) ++at;
        segment[at] = kSegmentFill;
        return at;
    });
}

// Runs `scenario`: the run fails at the byte it changed, with each of
// `phrases` in the message.
void expect_caught(const char* scenario, std::initializer_list<const char*> phrases) {
    SimConfig c = test::small_config();
    c.workload.scenario = scenario;
    const RunResult r = run_simulation(c);
    EXPECT_FALSE(r.integrity);
    ASSERT_TRUE(r.first_bad_address.has_value());
    EXPECT_EQ(*r.first_bad_address, corrupted_address);
    for (const char* phrase : phrases)
        EXPECT_NE(r.failure.find(phrase), std::string::npos) << r.failure;
}

TEST(Scoreboard, CorruptedDestinationFailsWithTheBadAddress) {
    expect_caught("test_corrupt_destination", {"segment 5 byte 17"});
}

TEST(Scoreboard, AByteWrittenIntoTheSourceFailsNamingTheSource) {
    expect_caught("test_corrupt_source", {"source segment 5 byte 17"});
}

TEST(Scoreboard, AByteWrittenJustPastADestinationSegmentFails) {
    expect_caught("test_write_past_segment", {"destination segment 5:", "outside the segment"});
}

TEST(Scoreboard, ADestinationByteLeftUnwrittenFails) {
    expect_caught("test_leave_byte_unwritten", {"destination segment 5 byte"});
}

// Starts the configured list and returns without waiting for it.
DMASIM_SCENARIO(test_forgets_to_wait) { bench.start(bench.prepare(bench.config().workload, 0)); }

TEST(RunSimulation, AScenarioThatLeavesATransferRunningFails) {
    SimConfig c = test::small_config();
    c.workload.scenario = "test_forgets_to_wait";
    const RunResult r = run_simulation(c);
    EXPECT_FALSE(r.integrity);
    EXPECT_NE(r.failure.find("without wait()"), std::string::npos) << r.failure;
    EXPECT_FALSE(r.first_bad_address.has_value());
    EXPECT_EQ(r.leaked_pages, 0u);
}

// Runs the configured list twice on channel 0, the first time as a warm-up
// excluded from measurement.
DMASIM_SCENARIO(test_warmup_then_measure) {
    for (bool warmup : {true, false}) {
        Transfer& t = bench.prepare(bench.config().workload, 0);
        if (warmup) bench.exclude_from_measurement(t);
        bench.run(t);
        bench.check(t);
        bench.release(t);
    }
}

double counter(const RunResult& r, const std::string& group, const std::string& name) {
    for (const auto& g : r.statistics)
        if (g.name == group)
            for (const auto& c : g.counters)
                if (c.name == name) return c.value;
    ADD_FAILURE() << group << "." << name << " missing";
    return 0;
}

// Issue 12 item 3: the warm-up's descriptors were counted and its bus
// cycles made bus_utilization 1.21.
TEST(Measurement, AnExcludedWarmupAddsNothingToAnyFigure) {
    SimConfig c = test::small_config();
    c.workload.scenario = "test_warmup_then_measure";
    const RunResult r = run_simulation(c);
    ASSERT_TRUE(r.integrity) << r.failure;
    EXPECT_EQ(r.bytes, test::list_bytes(c.workload));
    EXPECT_EQ(r.descriptors, c.workload.entries);
    EXPECT_EQ(r.chain_links, c.workload.chain_depth - 1);
    // Both transfers move the same list, so the measured one is exactly
    // half of what the model counted over the whole run.
    EXPECT_EQ(2 * r.descriptor_bytes_fetched, counter(r, "dma.ch0", "descriptor_bytes_fetched"));
    const double busiest_total =
        std::max(counter(r, "bus.read", "busy_cycles"), counter(r, "bus.write", "busy_cycles"));
    EXPECT_NEAR(2 * r.bus_utilization * r.cycles, busiest_total, 1e-6);
    EXPECT_LE(r.bus_utilization, 1.0);
}

TEST(RunSimulation, AListLargerThanMemoryIsAConfigErrorNamingTheSizes) {
    SimConfig c = test::small_config();
    c.memory_size_mib = 4;
    c.workload.entries = 2000;
    c.workload.segment_bytes = 4096;
    try {
        run_simulation(c);
        FAIL() << "expected ConfigError";
    } catch (const ConfigError& e) {
        const std::string what = e.what();
        // At offset 13 every 4096-byte segment spans 2 frames: 2 x 2000 x 2
        // = 8000 data frames, plus 3 descriptor chunks of 667 x 32 B (8
        // frames each, a power-of-two block): 8024 frames, 31.3 MiB.
        EXPECT_NE(what.find("memory.size_mib is 4"), std::string::npos) << what;
        EXPECT_NE(what.find("2000 entries"), std::string::npos) << what;
        EXPECT_NE(what.find("need 32 MiB"), std::string::npos) << what;
    }
}

TEST(RunSimulation, ChainDepthAboveEntriesIsAConfigError) {
    SimConfig c = test::small_config();
    c.workload.chain_depth = c.workload.entries + 1;
    EXPECT_THROW(run_simulation(c), ConfigError);
}

TEST(RunSimulation, UnknownScenarioIsAConfigErrorListingTheKnownOnes) {
    SimConfig c = test::small_config();
    c.workload.scenario = "no_such_scenario";
    try {
        run_simulation(c);
        FAIL() << "expected ConfigError";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("throughput"), std::string::npos) << e.what();
    }
}

// multi_channel holds one list per channel at once, so the host-memory
// check must count one list per channel, not the configured list once.
TEST(HostMemory, EstimateCountsEveryListTheScenarioHolds) {
    SimConfig c = test::small_config();
    auto needed = [&c](const char* scenario, unsigned channels) {
        c.workload.scenario = scenario;
        c.platform.dma.channels = channels;
        return host_bytes_needed(ScenarioRegistry::instance().find(scenario)->lists(c));
    };
    const uint64_t one = needed("multi_channel", 1), two = needed("multi_channel", 2);
    // Every channel adds the same list: the estimate grows by one list's
    // bytes per channel, and one channel needs what throughput needs.
    EXPECT_GT(two, one);
    EXPECT_EQ(needed("multi_channel", 4) - two, 2 * (two - one));
    EXPECT_EQ(needed("throughput", 4), one);
    EXPECT_EQ(needed("bus_fault", 4), needed("multi_channel", 4));
}

// Page frames of `sgt`'s segments, each counted once.
std::vector<unsigned long> frames_under(const sg_table& sgt) {
    std::vector<unsigned long> pfns;
    scatterlist* sg;
    unsigned i;
    for_each_sgtable_sg(&sgt, sg, i) {
        const unsigned long first = page_to_pfn(sg_page(sg));
        for (unsigned long n = 0; n < PAGE_ALIGN(uint64_t{sg->offset} + sg->length) / PAGE_SIZE;
             ++n)
            pfns.push_back(first + n);
    }
    std::sort(pfns.begin(), pfns.end());
    pfns.erase(std::unique(pfns.begin(), pfns.end()), pfns.end());
    return pfns;
}

// Populating joins scattered segments' pages into runs in address order and
// hands them to the kernel many at a time: every page under the source
// segments must be backed, and none under the destination's (which the
// source's runs pass between), whatever the layout.
TEST(HostMemory, PopulatingAListBacksExactlyThePagesUnderItsSegments) {
    for (const dmasim_buf_layout layout : {DMASIM_BUF_PAGES, DMASIM_BUF_PACKED}) {
        SCOPED_TRACE(layout == DMASIM_BUF_PAGES ? "pages" : "packed");
        ASSERT_EQ(sim_mem_init(uint64_t{64} << 20, SIM_MEM_SCATTERED, 11), 0);
        device dev{};
        sim_device_init(&dev, "dmasim");
        ASSERT_EQ(dma_set_mask_and_coherent(&dev, DMA_BIT_MASK(64)), 0);
        dmasim_dev dd{};
        dd.dev = &dev;
        dmasim_load_spec spec{};
        spec.xfer.dir = DMA_HW_MEM_TO_MEM;
        spec.xfer.format = DMA_HW_FMT_CHAINED_PAGES;
        spec.xfer.entries = 500;
        spec.xfer.chain_depth = 4;
        spec.seg.dist = DMASIM_SEG_FIXED;
        spec.seg.bytes = 5000;  // two pages each at this offset: runs longer than a page
        spec.seg.offset = 13;
        spec.seg.layout = layout;
        dmasim_xfer* x = nullptr;
        ASSERT_EQ(dmasim_load_prep(&dd, &spec, &x), 0);

        populate_buffers(x->src);
        std::vector<unsigned char> resident(sim_mem_size() / PAGE_SIZE);
        ASSERT_EQ(mincore(sim_mem_base(), sim_mem_size(), resident.data()), 0);
        for (const unsigned long pfn : frames_under(x->src))
            EXPECT_TRUE(resident[pfn] & 1) << "source frame " << pfn;
        for (const unsigned long pfn : frames_under(x->dst))
            EXPECT_FALSE(resident[pfn] & 1) << "destination frame " << pfn;
        dmasim_load_free(&dd, x, layout);
        sim_mem_exit();
    }
}

}  // namespace
}  // namespace dmasim::tb
