// The IOMMU between the controller and memory: translation timing (IOTLB
// hits and misses, page-table walks, 2 MiB leaves, the walk cache), the
// registers, and translation faults. The page tables are written here
// straight from dmasim/hw/iommu_hw.h, independently of sglist's IOMMU layer.
#include <dmasim/hw/iommu_hw.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "support.h"

namespace dmasim::model::test {
namespace {

constexpr uint64_t kPage = 4096, kLargePage = 2 * MiB;
constexpr uint64_t kTables = 48 * MiB;  // page tables live here, above all data
constexpr uint64_t kBound = 1'000'000;  // cycles any run here may take

PlatformParams iommu_platform(unsigned levels = 4) {
    PlatformParams p;
    p.iommu.enabled = true;
    p.iommu.walk_levels = levels;
    return p;
}

/// Cycles of one page-table read: the request through the interconnect,
/// the memory's read latency and the 8-byte entry's single beat (a bus
/// word is at least 8 bytes here).
uint64_t walk_read_cycles(const PlatformParams& p) {
    return p.bus.interconnect_latency_cycles + p.memory.read_latency_cycles + 1;
}

constexpr uint64_t kDesc = 0x10000, kSrc = 0x100000, kDst = 0x400000;

/// One platform, one list, runs with the IOMMU off or on.
struct IommuRig {
    explicit IommuRig(PlatformParams p)
        : params(p), rig(p), tables(rig.host(0), p.iommu.walk_levels, kTables) {}

    void program(bool enable) {
        if (!params.iommu.enabled) return;  // no IOMMU registers
        rig.cpu().set_reg(DMA_REG_IOMMU_ROOT_LO, static_cast<uint32_t>(tables.root()));
        rig.cpu().set_reg(DMA_REG_IOMMU_ROOT_HI, static_cast<uint32_t>(tables.root() >> 32));
        rig.cpu().set_reg(DMA_REG_IOMMU_CTRL, enable ? DMA_IOMMU_CTRL_ENABLE : 0);
    }
    /// Cycles of a whole transfer on channel 0 from START to idle.
    uint64_t transfer(uint64_t desc, uint32_t ctrl, bool enable) {
        uint64_t cycles = 0;
        rig.run([&] {
            program(enable);
            rig.start(0, desc, ctrl);
            uint64_t t0 = rig.now_cycle();
            uint64_t idle = rig.wait_idle(0, kBound);
            ASSERT_NE(idle, 0u) << "transfer did not finish";
            cycles = idle - t0;
        });
        return cycles;
    }
    IommuStats stats() { return rig.platform().iommu_stats(); }
    /// One 64-byte copy kSrc -> kDst described at kDesc, its three pages
    /// identity-mapped; returns the descriptor's address.
    uint64_t one_copy() {
        uint64_t d = write_chained(rig.host(0), segments(kSrc, kDst, 1, 64, 0), {kDesc});
        for (uint64_t page : {kDesc, kSrc, kDst}) tables.identity(page, kPage);
        fill_pattern(rig.host(kSrc), 64, 7);
        return d;
    }

    PlatformParams params;
    Rig rig;
    PageTables tables;
};

const uint32_t kMemCopy = ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES);

// One 64-byte descriptor: its fetch, read burst and write burst each touch
// a page of their own (three cold misses); its write-back returns to the
// descriptor's page (a hit). Every translation is on the critical path,
// and no walk waits for a data read (the channel is idle then).
TEST(ModelIommu, ColdMissesCostOneWalkEachAndWarmRunsOnlyTheLookups) {
    IommuRig r(iommu_platform(4));
    uint64_t d = r.one_copy();

    const uint64_t direct = r.transfer(d, kMemCopy, false);
    EXPECT_EQ(r.stats().iotlb_misses + r.stats().iotlb_hits, 0u) << "IOMMU off translates nothing";
    std::memset(r.rig.host(kDst), 0, 64);
    const uint64_t cold = r.transfer(d, kMemCopy, true);
    const uint64_t warm = r.transfer(d, kMemCopy, true);

    const uint64_t hit = r.params.iommu.iotlb_hit_cycles;
    const uint64_t walk = r.params.iommu.walk_levels * walk_read_cycles(r.params);
    EXPECT_EQ(cold - direct, 3 * (hit + walk) + hit);
    EXPECT_EQ(warm - direct, 4 * hit);
    IommuStats s = r.stats();
    EXPECT_EQ(s.iotlb_misses, 3u);
    EXPECT_EQ(s.iotlb_hits, 1u + 4u);
    EXPECT_EQ(s.walk_reads, 3u * r.params.iommu.walk_levels);
    EXPECT_EQ(s.translation_cycles, 3 * (hit + walk) + hit + 4 * hit);
    EXPECT_EQ(s.translation_faults, 0u);
    EXPECT_EQ(std::memcmp(r.rig.host(kSrc), r.rig.host(kDst), 64), 0);
}

// With the IOMMU present but IOMMU_CTRL.ENABLE clear a transfer takes
// exactly as long as on a platform without one. Each platform needs its
// own process, so both tests pin the same figure: fetch 8 slots (256 B =
// 16 beats) 50 + 16, decode 2, read 4 beats 50 + 4, the cut-through write
// 1 cycle after its first beat, 4 beats + 20, the 8-byte write-back 1 + 20:
// START to stop = 66 + 2 + 51 + 24 + 21 = 164 cycles.
constexpr uint64_t kOneCopyCycles = 164;

uint64_t one_copy_cycles(PlatformParams p) {
    IommuRig r(p);
    return r.transfer(r.one_copy(), kMemCopy, false);
}

TEST(ModelIommu, OneCopyWithoutAnIommu) { EXPECT_EQ(one_copy_cycles({}), kOneCopyCycles); }

TEST(ModelIommu, OneCopyWithTheIommuPresentButOff) {
    EXPECT_EQ(one_copy_cycles(iommu_platform(4)), kOneCopyCycles);
}

// Walk reads are real reads on the RAM read channel: counted there.
TEST(ModelIommu, WalkReadsAreBookedOnTheRamReadChannel) {
    IommuRig r(iommu_platform(3));
    uint64_t d = r.one_copy();
    r.transfer(d, kMemCopy, false);
    const uint64_t direct_bursts = r.rig.platform().read_channel_stats().bursts;
    r.rig.platform().reset_statistics();
    r.transfer(d, kMemCopy, true);
    ResourceStats read = r.rig.platform().read_channel_stats();
    EXPECT_EQ(read.bursts, direct_bursts + 3 * 3);
}

// A walk shows on the channel's fetch track as an "iommu walk" slice as
// long as its reads, and each read as a ram_read slice.
TEST(ModelIommu, WalksAreTraced) {
    IommuRig r(iommu_platform(4));
    uint64_t d = r.one_copy();
    TraceRecorder trace;
    r.rig.platform().set_trace(&trace);
    r.transfer(d, kMemCopy, false);
    const unsigned direct_reads = trace.count(TraceTrack::ram_read, 0);
    trace.records.clear();
    r.transfer(d, kMemCopy, true);
    EXPECT_EQ(trace.count(TraceTrack::fetch, 0, "iommu walk"), 3u);
    EXPECT_EQ(trace.count(TraceTrack::ram_read, 0), direct_reads + 3 * 4);
    for (const TraceRecorder::Record& rec : trace.records) {
        if (rec.what == "iommu walk") {
            EXPECT_EQ(rec.end - rec.start, 4 * walk_read_cycles(r.params));
        }
    }
}

// A 2 MiB leaf sits at level 2: its walk stops one read early.
TEST(ModelIommu, LargePageWalkReadsOneEntryFewer) {
    PlatformParams p = iommu_platform(4);
    p.iommu.page_bytes = kLargePage;
    IommuRig r(p);
    // Descriptor, source and destination each in a 2 MiB page of their own.
    const uint64_t desc = 0x10000, src = kLargePage + 0x1000, dst = 2 * kLargePage + 0x3000;
    uint64_t d = write_chained(r.rig.host(0), segments(src, dst, 1, 64, 0), {desc});
    for (uint64_t region = 0; region < 3 * kLargePage; region += kLargePage)
        r.tables.map_large(region, region);
    fill_pattern(r.rig.host(src), 64, 9);

    const uint64_t direct = r.transfer(d, kMemCopy, false);
    const uint64_t cold = r.transfer(d, kMemCopy, true);
    const uint64_t hit = p.iommu.iotlb_hit_cycles;
    const uint64_t walk = (p.iommu.walk_levels - 1) * walk_read_cycles(p);
    EXPECT_EQ(cold - direct, 3 * (hit + walk) + hit);
    EXPECT_EQ(r.stats().walk_reads, 3u * (p.iommu.walk_levels - 1));
    EXPECT_EQ(std::memcmp(r.rig.host(src), r.rig.host(dst), 64), 0);
}

// A 2 MiB leaf with 4 KiB IOTLB entries: cached as the 4 KiB page used,
// so a second page of the same 2 MiB region walks again.
TEST(ModelIommu, LargeLeafIsCachedAsSmallPagesWithoutLargeEntries) {
    IommuRig r(iommu_platform(4));
    const uint64_t desc = 0x10000, src = kLargePage, dst = kLargePage + 0x5000;
    uint64_t d = write_chained(r.rig.host(0), segments(src, dst, 1, 64, 0), {desc});
    r.tables.identity(desc, kPage);
    r.tables.map_large(kLargePage, kLargePage);
    fill_pattern(r.rig.host(src), 64, 3);
    r.transfer(d, kMemCopy, true);
    EXPECT_EQ(r.stats().iotlb_misses, 3u);
    EXPECT_EQ(r.stats().walk_reads, 4u + 2 * 3u);
    EXPECT_EQ(std::memcmp(r.rig.host(src), r.rig.host(dst), 64), 0);
}

// The three pages share one 2 MiB region: the first walk fills the walk
// cache with its level-2 entry, so the two later misses read only the leaf.
TEST(ModelIommu, WalkCacheLeavesOnlyTheLeafRead) {
    PlatformParams p = iommu_platform(4);
    p.iommu.walk_cache_entries = 4;
    IommuRig r(p);
    uint64_t d = write_chained(r.rig.host(0), segments(0x30000, 0x50000, 1, 64, 0), {kDesc});
    r.tables.identity(0, kLargePage);
    const uint64_t direct = r.transfer(d, kMemCopy, false);
    const uint64_t cold = r.transfer(d, kMemCopy, true);
    const uint64_t hit = p.iommu.iotlb_hit_cycles, read = walk_read_cycles(p);
    EXPECT_EQ(cold - direct, 3 * hit + (p.iommu.walk_levels + 1 + 1) * read + hit);
    EXPECT_EQ(r.stats().walk_cache_hits, 2u);
    EXPECT_EQ(r.stats().walk_reads, p.iommu.walk_levels + 2u);
}

// mem_to_dev over N pages, no write-backs: the translations are the
// descriptor fetches and the read bursts. A large IOTLB misses once per
// page (N sources + the descriptor page); a one-entry IOTLB also loses the
// descriptor page to every source page, so each fetch after the first pair
// (issued back to back) misses too.
/// Counts of a mem_to_dev run over kPages source pages with a fully
/// associative IOTLB of `entries`.
struct PageRun {
    IommuStats iommu;
    uint64_t fetches;  ///< descriptor fetches (each of descriptor_prefetch slots)
    uint64_t read_bursts;
};
PageRun run_pages(unsigned entries) {
    constexpr unsigned kPages = 32;
    PlatformParams p = iommu_platform(4);
    p.dma.status_writeback = DMA_HW_WB_NONE;
    p.iommu.iotlb_entries = entries;
    p.iommu.iotlb_ways = entries;
    IommuRig r(p);
    uint64_t d = write_chained(r.rig.host(0), segments(kSrc, 0, kPages, kPage, kPage), {kDesc});
    r.tables.identity(kDesc, kPage);
    r.tables.identity(kSrc, kPages * kPage);
    r.transfer(d, ctrl_word(DMA_HW_MEM_TO_DEV, DMA_HW_FMT_CHAINED_PAGES), true);
    const ChannelStats c = r.rig.platform().channel_stats(0);
    const uint64_t fetches = c.descriptor_bytes_fetched / (p.dma.descriptor_prefetch * 32);
    EXPECT_EQ(fetches, kPages / p.dma.descriptor_prefetch);
    EXPECT_EQ(r.stats().iotlb_hits + r.stats().iotlb_misses, fetches + c.read_bursts);
    return {r.stats(), fetches, c.read_bursts};
}

TEST(ModelIommu, LargeIotlbMissesOncePerPage) {
    EXPECT_EQ(run_pages(64).iommu.iotlb_misses, 1u + 32);
}

TEST(ModelIommu, OneEntryIotlbMissesOnEveryPageChange) {
    PageRun run = run_pages(1);
    EXPECT_EQ(run.iommu.iotlb_misses, 32 + (run.fetches - 1));
}

TEST(ModelIommu, InvalidateDropsEveryCachedTranslation) {
    IommuRig r(iommu_platform(4));
    uint64_t d = r.one_copy();
    r.transfer(d, kMemCopy, true);
    r.transfer(d, kMemCopy, true);
    EXPECT_EQ(r.stats().iotlb_misses, 3u) << "the second run hits";
    r.rig.run([&] {
        r.rig.cpu().set_reg(DMA_REG_IOMMU_INVALIDATE, 1);
        EXPECT_EQ(r.rig.cpu().reg(DMA_REG_IOMMU_INVALIDATE), 0u);
    });
    r.transfer(d, kMemCopy, true);
    EXPECT_EQ(r.stats().iotlb_misses, 6u);
}

TEST(ModelIommu, RegistersExistOnlyWithAnIommu) {
    IommuRig r(iommu_platform(4));
    r.rig.run([&] {
        EXPECT_NE(r.rig.cpu().reg(DMA_REG_CAPS) & DMA_CAPS_IOMMU, 0u);
        r.rig.cpu().set_reg(DMA_REG_IOMMU_ROOT_LO, 0x12345000);
        r.rig.cpu().set_reg(DMA_REG_IOMMU_ROOT_HI, 0x7);
        EXPECT_EQ(r.rig.cpu().reg(DMA_REG_IOMMU_ROOT_LO), 0x12345000u);
        EXPECT_EQ(r.rig.cpu().reg(DMA_REG_IOMMU_ROOT_HI), 0x7u);
        r.rig.cpu().set_reg(DMA_REG_IOMMU_CTRL, 0xFFFFFFFF);
        EXPECT_EQ(r.rig.cpu().reg(DMA_REG_IOMMU_CTRL), DMA_IOMMU_CTRL_ENABLE);
        r.rig.cpu().set_reg(DMA_REG_IOMMU_FAULT_LO, 5);  // read-only
        EXPECT_EQ(r.rig.cpu().reg(DMA_REG_IOMMU_FAULT_LO), 0u);
    });
}

TEST(ModelIommu, WithoutAnIommuItsOffsetsAreUnmapped) {
    Rig rig(PlatformParams{});
    rig.run([&] {
        EXPECT_EQ(rig.cpu().reg(DMA_REG_CAPS) & DMA_CAPS_IOMMU, 0u);
        for (uint32_t off = DMA_REG_IOMMU_CTRL; off <= DMA_REG_IOMMU_FAULT_HI; off += 4) {
            uint32_t v = 0;
            EXPECT_EQ(rig.cpu().access(false, DMA_REGS_BASE + off, &v),
                      tlm::TLM_ADDRESS_ERROR_RESPONSE)
                << off;
        }
    });
}

// ---- translation faults ------------------------------------------------

enum class Broken {
    descriptor_page,
    source_page,
    destination_page,
    read_only_destination,
    read_only_descriptor
};

struct FaultCase {
    Broken broken;
    dma_hw_format format;
    dma_hw_direction dir;
};

/// Channel 0 hits the broken mapping; channel 1 copies through good pages
/// at the same time and must complete untouched.
class ModelIommuFault : public ::testing::TestWithParam<FaultCase> {};

TEST_P(ModelIommuFault, StopsTheChannelWithTranslationError) {
    const FaultCase fc = GetParam();
    PlatformParams p = iommu_platform(4);
    p.dma.channels = 2;
    IommuRig r(p);
    // Channel 0: 4 descriptors of 4 KiB; the broken page belongs to the third.
    const uint64_t desc0 = 0x10000, desc1 = 0x20000;
    const uint64_t src0 = 0x100000, dst0 = 0x200000, src1 = 0x300000, dst1 = 0x380000;
    auto segs0 = segments(src0, dst0, 4, kPage, kPage);
    auto segs1 = segments(src1, dst1, 8, kPage, kPage);
    uint64_t d0 = fc.format == DMA_HW_FMT_CHAINED_PAGES
                      ? write_chained(r.rig.host(0), segs0, {desc0})
                      : write_linked(r.rig.host(0), segs0, {desc0});
    uint64_t d1 = write_chained(r.rig.host(0), segs1, {desc1});
    for (uint64_t a : {desc0, desc1}) r.tables.identity(a, kPage);
    r.tables.identity(src0, 4 * kPage);
    r.tables.identity(dst0, 4 * kPage);
    r.tables.identity(src1, 8 * kPage);
    r.tables.identity(dst1, 8 * kPage);
    fill_pattern(r.rig.host(src1), 8 * kPage, 5);

    uint64_t iova = 0;
    switch (fc.broken) {
        case Broken::descriptor_page:
            iova = desc0;
            r.tables.unmap(desc0);
            break;
        case Broken::source_page:
            iova = src0 + 2 * kPage;
            r.tables.unmap(iova);
            break;
        case Broken::destination_page:
            iova = dst0 + 2 * kPage;
            r.tables.unmap(iova);
            break;
        case Broken::read_only_destination:
            iova = dst0 + 2 * kPage;
            r.tables.map(iova, iova, false);
            break;
        case Broken::read_only_descriptor:  // its status write-back faults
            iova = desc0 + (fc.format == DMA_HW_FMT_CHAINED_PAGES ? 0x18 : 0x20);
            r.tables.map(desc0, desc0, false);
            break;
    }

    r.rig.run([&] {
        r.program(true);
        r.rig.cpu().set_reg(DMA_REG_IRQ_MASK, 3);
        r.rig.start(0, d0, ctrl_word(fc.dir, fc.format));
        r.rig.start(1, d1, kMemCopy);
        ASSERT_NE(r.rig.wait_idle(0, kBound), 0u) << "faulting channel hung";
        ASSERT_NE(r.rig.wait_idle(1, kBound), 0u) << "other channel hung";
        sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));  // irq latency
        EXPECT_EQ(r.rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_STATUS),
                  DMA_STATUS_ERROR | (uint32_t(DMA_ERR_TRANSLATION) << DMA_STATUS_ERR_SHIFT));
        EXPECT_EQ(r.rig.cpu().reg(DMA_CH_BASE(1) + DMA_CH_STATUS), DMA_STATUS_DONE);
        EXPECT_EQ(r.rig.cpu().reg(DMA_REG_IOMMU_FAULT_LO), static_cast<uint32_t>(iova));
        EXPECT_EQ(r.rig.cpu().reg(DMA_REG_IOMMU_FAULT_HI), static_cast<uint32_t>(iova >> 32));
        EXPECT_EQ(r.rig.cpu().reg(DMA_REG_IRQ_STATUS), 3u);
        EXPECT_TRUE(r.rig.platform().irq().read());
    });
    EXPECT_EQ(r.stats().translation_faults, 1u);
    EXPECT_EQ(r.rig.platform().channel_stats(1).descriptors, 8u);
    EXPECT_EQ(std::memcmp(r.rig.host(src1), r.rig.host(dst1), 8 * kPage), 0);
}

std::vector<FaultCase> fault_cases() {
    std::vector<FaultCase> v;
    for (dma_hw_format f : {DMA_HW_FMT_CHAINED_PAGES, DMA_HW_FMT_LINKED_LIST}) {
        v.push_back({Broken::descriptor_page, f, DMA_HW_MEM_TO_MEM});
        v.push_back({Broken::source_page, f, DMA_HW_MEM_TO_MEM});
        v.push_back({Broken::source_page, f, DMA_HW_MEM_TO_DEV});
        v.push_back({Broken::destination_page, f, DMA_HW_MEM_TO_MEM});
        v.push_back({Broken::destination_page, f, DMA_HW_DEV_TO_MEM});
        v.push_back({Broken::read_only_destination, f, DMA_HW_MEM_TO_MEM});
        v.push_back({Broken::read_only_destination, f, DMA_HW_DEV_TO_MEM});
        v.push_back({Broken::read_only_descriptor, f, DMA_HW_MEM_TO_MEM});
    }
    return v;
}

std::string fault_name(const ::testing::TestParamInfo<FaultCase>& info) {
    static const char* broken[] = {"DescriptorPage", "SourcePage", "DestinationPage",
                                   "ReadOnlyDestination", "ReadOnlyDescriptor"};
    static const char* dir[] = {"MemToMem", "DevToMem", "MemToDev"};
    const FaultCase& c = info.param;
    return std::string(broken[static_cast<int>(c.broken)]) +
           (c.format == DMA_HW_FMT_CHAINED_PAGES ? "Chained" : "Linked") + dir[c.dir];
}

INSTANTIATE_TEST_SUITE_P(Every, ModelIommuFault, ::testing::ValuesIn(fault_cases()), fault_name);

// A linked_list descriptor that straddles a page is fetched as two
// translated reads; with the second page missing, the fetch faults there.
TEST(ModelIommu, StraddlingDescriptorTranslatesBothPages) {
    IommuRig r(iommu_platform(4));
    const uint64_t desc = 0x10000 + kPage - 24;  // 48-byte descriptor over the boundary
    uint64_t d = write_linked(r.rig.host(0), segments(kSrc, kDst, 1, 64, 0), {desc});
    r.tables.identity(0x10000, kPage);  // the first page only
    r.tables.identity(kSrc, kPage);
    r.tables.identity(kDst, kPage);
    fill_pattern(r.rig.host(kSrc), 64, 11);
    const uint32_t ctrl = ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_LINKED_LIST);
    r.transfer(d, ctrl, true);
    r.rig.run([&] {
        EXPECT_EQ(r.rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_STATUS),
                  DMA_STATUS_ERROR | (uint32_t(DMA_ERR_TRANSLATION) << DMA_STATUS_ERR_SHIFT));
        EXPECT_EQ(r.rig.cpu().reg(DMA_REG_IOMMU_FAULT_LO), 0x10000u + kPage);
    });
    r.tables.identity(0x10000 + kPage, kPage);
    r.transfer(d, ctrl, true);
    r.rig.run([&] { EXPECT_EQ(r.rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_STATUS), DMA_STATUS_DONE); });
    EXPECT_EQ(std::memcmp(r.rig.host(kSrc), r.rig.host(kDst), 64), 0);
}

// A mapping to physical memory that does not exist is an address error,
// not a translation fault.
TEST(ModelIommu, MappingOutsideMemoryIsADataAddressError) {
    IommuRig r(iommu_platform(4));
    uint64_t d = write_chained(r.rig.host(0), segments(kSrc, kDst, 1, 64, 0), {kDesc});
    r.tables.identity(kDesc, kPage);
    r.tables.map(kSrc, 64 * MiB + 0x1000);  // past the 64 MiB of RAM
    r.tables.identity(kDst, kPage);
    r.transfer(d, kMemCopy, true);
    r.rig.run([&] {
        EXPECT_EQ(r.rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_STATUS),
                  DMA_STATUS_ERROR | (uint32_t(DMA_ERR_DATA_ADDRESS) << DMA_STATUS_ERR_SHIFT));
    });
}

TEST(ModelIommu, IovaBeyondTheTreeFaults) {
    IommuRig r(iommu_platform(2));  // 2 levels: 30-bit IOVAs
    const uint64_t src = uint64_t{1} << IOMMU_IOVA_BITS(2);
    uint64_t d = write_chained(r.rig.host(0), segments(src, kDst, 1, 64, 0), {kDesc});
    r.tables.identity(kDesc, kPage);
    r.tables.identity(kDst, kPage);
    r.transfer(d, kMemCopy, true);
    r.rig.run([&] {
        EXPECT_EQ(r.rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_STATUS),
                  DMA_STATUS_ERROR | (uint32_t(DMA_ERR_TRANSLATION) << DMA_STATUS_ERR_SHIFT));
        EXPECT_EQ(r.rig.cpu().reg(DMA_REG_IOMMU_FAULT_HI), static_cast<uint32_t>(src >> 32));
        EXPECT_EQ(r.rig.cpu().reg(DMA_REG_IOMMU_FAULT_LO), static_cast<uint32_t>(src));
    });
}

// Random page-table damage: whatever the tables hold, a transfer through
// them ends (DONE, or ERROR with a defined code), in
// either format and direction, and the IOMMU keeps serving later runs.
TEST(ModelIommu, RandomPageTablesNeverHangTheChannel) {
    PlatformParams p = iommu_platform(4);
    p.iommu.walk_cache_entries = 2;
    p.iommu.iotlb_entries = 8;
    p.iommu.iotlb_ways = 2;
    IommuRig r(p);
    std::mt19937_64 rng(1234);
    auto segs = segments(kSrc, kDst, 6, 3000, 2 * kPage);
    r.tables.identity(kDesc, kPage);
    r.tables.identity(kSrc, 12 * kPage);
    r.tables.identity(kDst, 12 * kPage);
    // The tables the identity maps needed: root, one per upper level, and
    // the leaf tables, all allocated from kTables on.
    const uint64_t used = 8 * kPage;
    std::vector<uint8_t> pristine(r.rig.host(kTables), r.rig.host(kTables) + used);
    std::vector<uint64_t> present;  // the entries the walks use
    for (uint64_t at = kTables; at < kTables + used; at += 8)
        if (*r.rig.host(at) & IOMMU_PTE_PRESENT) present.push_back(at);
    for (int round = 0; round < 1000; ++round) {
        SCOPED_TRACE(round);
        std::memcpy(r.rig.host(kTables), pristine.data(), used);
        for (int k = 0; k < 3; ++k) {
            const uint64_t at = present[rng() % present.size()];
            uint64_t value;
            std::memcpy(&value, r.rig.host(at), 8);
            switch (rng() % 4) {
                case 0:
                    value &= ~IOMMU_PTE_PRESENT;
                    break;
                case 1:
                    value &= ~IOMMU_PTE_WRITE;
                    break;
                case 2:
                    value = rng();
                    break;
                default:  // somewhere in RAM, maybe a 2 MiB leaf
                    value = (rng() & (64 * MiB - 1)) | (rng() & 0x83);
                    break;
            }
            std::memcpy(r.rig.host(at), &value, 8);
        }
        const auto format =
            rng() % 2 ? DMA_HW_FMT_LINKED_LIST : DMA_HW_FMT_CHAINED_PAGES;
        const auto dir = static_cast<dma_hw_direction>(rng() % 3);
        uint64_t d = format == DMA_HW_FMT_CHAINED_PAGES
                         ? write_chained(r.rig.host(0), segs, {kDesc})
                         : write_linked(r.rig.host(0), segs, {kDesc});
        uint32_t status = 0;
        r.rig.run([&] {
            r.program(true);
            r.rig.cpu().set_reg(DMA_REG_IOMMU_INVALIDATE, 1);
            r.rig.start(0, d, ctrl_word(dir, format));
            ASSERT_NE(r.rig.wait_idle(0, kBound), 0u) << "channel hung";
            status = r.rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_STATUS);
        });
        if (status == DMA_STATUS_DONE) continue;
        ASSERT_TRUE(status & DMA_STATUS_ERROR) << status;
        const uint32_t code = (status & DMA_STATUS_ERR_MASK) >> DMA_STATUS_ERR_SHIFT;
        // Any defined code but ABORTED: a damaged mapping may also let the
        // copy overwrite descriptors not yet fetched.
        EXPECT_TRUE(code >= DMA_ERR_DESC_BUS && code <= DMA_ERR_TRANSLATION &&
                    code != DMA_ERR_ABORTED)
            << code;
    }
    EXPECT_GT(r.stats().translation_faults, 100u) << "the damage rarely hit a walk";
}

// ---- parameters ----------------------------------------------------------

bool names(const std::vector<ParamProblem>& problems, const std::string& key) {
    for (const ParamProblem& p : problems)
        for (const std::string& k : p.keys)
            if (k == key) return true;
    return false;
}

TEST(ModelIommuParams, DefaultsAreValid) {
    EXPECT_TRUE(validate(DmaParams{}, BusParams{}, IommuParams{}).empty());
}

TEST(ModelIommuParams, EachRuleNamesItsKey) {
    auto with = [](auto change) {
        IommuParams m;
        change(m);
        return validate(DmaParams{}, BusParams{}, m);
    };
    EXPECT_TRUE(names(with([](IommuParams& m) { m.iotlb_entries = 0; }), "iommu.iotlb_entries"));
    EXPECT_TRUE(names(with([](IommuParams& m) { m.iotlb_ways = 3; }), "iommu.iotlb_ways"));
    EXPECT_TRUE(names(with([](IommuParams& m) { m.iotlb_ways = 0; }), "iommu.iotlb_ways"));
    // 48 / 4 = 12 sets: not a power of two.
    EXPECT_TRUE(names(with([](IommuParams& m) { m.iotlb_entries = 48; }), "iommu.iotlb_entries"));
    EXPECT_TRUE(names(with([](IommuParams& m) { m.page_bytes = 65536; }), "iommu.page_size"));
    EXPECT_TRUE(names(with([](IommuParams& m) { m.walk_levels = 1; }), "iommu.walk_levels"));
    EXPECT_TRUE(names(with([](IommuParams& m) { m.walk_levels = 6; }), "iommu.walk_levels"));
    EXPECT_TRUE(names(with([](IommuParams& m) { m.walk_cache_entries = 1u << 20; }),
                      "iommu.walk_cache_entries"));
    EXPECT_TRUE(
        names(with([](IommuParams& m) { m.iotlb_hit_cycles = 100000; }), "iommu.iotlb_hit_cycles"));
    IommuParams large;
    large.page_bytes = 3 * MiB;
    bool explained = false;
    for (const ParamProblem& p : validate(DmaParams{}, BusParams{}, large))
        explained |= p.message.find("is not one of 4096, 2097152") != std::string::npos;
    EXPECT_TRUE(explained);
}

}  // namespace
}  // namespace dmasim::model::test
