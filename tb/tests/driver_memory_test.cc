// driver_memory_test.cc - the descriptor chunks the driver writes into
// simulated memory, checked field by field against the mapped lists, and
// its page accounting; no simulation needed.
#include <dmasim/workload/workload.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

#include "driver_device.h"

// The MMIO the driver does outside a simulation (the IOTLB invalidation
// after an unmap), recorded instead of sent to a controller.
struct MmioWrite {
    uint64_t addr;
    uint32_t value;
};
std::vector<MmioWrite> mmio_writes;

extern "C" {
uint32_t dmasim_io_read32(uint64_t) { return 0; }
void dmasim_io_write32(uint32_t value, uint64_t addr) { mmio_writes.push_back({addr, value}); }
void dmasim_completion_wait(struct completion*) {}
void dmasim_completion_signal(struct completion*) {}
}

namespace {

/// A mem_to_mem transfer of `entries` in chained_pages over `depth` chunks;
/// the segments are the caller's to describe.
dmasim_load_spec chained_copy(unsigned entries, unsigned depth) {
    dmasim_load_spec spec{};
    spec.xfer.dir = DMA_HW_MEM_TO_MEM;
    spec.xfer.format = DMA_HW_FMT_CHAINED_PAGES;
    spec.xfer.entries = entries;
    spec.xfer.chain_depth = depth;
    return spec;
}

class DriverMemory : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(init_driver_device(&dev_, &dd_, 64));
        pages_before_ = sim_mem_pages_in_use();
    }
    void TearDown() override { sim_mem_exit(); }

    dmasim_xfer* prep(dma_hw_direction dir, dma_hw_format format, unsigned entries, unsigned depth,
                      bool deburst = false, bool for_ring = false) {
        dmasim_load_spec spec{};
        spec.xfer.for_ring = for_ring;
        spec.xfer.dir = dir;
        spec.xfer.format = format;
        spec.xfer.entries = entries;
        spec.xfer.chain_depth = depth;
        spec.xfer.deburst = deburst;
        spec.seg.dist = DMASIM_SEG_FIXED;
        spec.seg.bytes = 1001;
        spec.seg.offset = 13;
        spec.seg.seed = 5;
        dmasim_xfer* x = nullptr;
        EXPECT_EQ(dmasim_load_prep(&dd_, &spec, &x), 0);
        return x;
    }

    device dev_{};
    dmasim_dev dd_{};
    unsigned long pages_before_ = 0;
};

std::vector<uint64_t> dma_addresses(sg_table* sgt) {
    std::vector<uint64_t> out;
    scatterlist* sg;
    unsigned int i;
    for_each_sgtable_dma_sg(sgt, sg, i) out.push_back(sg_dma_address(sg));
    return out;
}

TEST_F(DriverMemory, ChainedPagesChunksHoldTheirShareAndEndInALink) {
    dmasim_xfer* x = prep(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES, 37, 3);
    ASSERT_NE(x, nullptr);
    const auto src = dma_addresses(&x->src), dst = dma_addresses(&x->dst);
    ASSERT_EQ(x->nr_chunks, 3u);
    unsigned k = 0;
    for (unsigned c = 0; c < 3; ++c) {
        ASSERT_EQ(x->chunks[c].nr_desc, dmasim_chunk_entries(37, 3, c));
        for (unsigned s = 0; s < x->chunks[c].nr_desc; ++s, ++k) {
            auto* d = static_cast<dma_hw_desc*>(dmasim_xfer_desc(x, c, s));
            EXPECT_EQ(d->src, src[k]);
            EXPECT_EQ(d->dst, dst[k]);
            EXPECT_EQ(d->length, 1001u);
            EXPECT_EQ(d->flags, k == 36 ? DMA_DESC_END : 0u) << "descriptor " << k;
        }
        if (c == 2) continue;
        auto* link = static_cast<dma_hw_desc*>(dmasim_xfer_desc(x, c, x->chunks[c].nr_desc));
        EXPECT_EQ(link->flags, DMA_DESC_CHAIN);
        EXPECT_EQ(link->src, page_to_phys(x->chunks[c + 1].page));
    }
    EXPECT_EQ(x->head, page_to_phys(x->chunks[0].page));
    dmasim_load_free(&dd_, x, DMASIM_BUF_PAGES);
}

TEST_F(DriverMemory, LinkedListDescriptorsPointToTheirSuccessor) {
    dmasim_xfer* x = prep(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_LINKED_LIST, 37, 3);
    ASSERT_NE(x, nullptr);
    std::vector<dma_hw_ll_desc*> descs;
    std::vector<uint64_t> bus;
    for (unsigned c = 0; c < 3; ++c)
        for (unsigned s = 0; s < x->chunks[c].nr_desc; ++s) {
            descs.push_back(static_cast<dma_hw_ll_desc*>(dmasim_xfer_desc(x, c, s)));
            bus.push_back(dmasim_xfer_desc_bus(x, c, s));
        }
    ASSERT_EQ(descs.size(), 37u);
    // Chunk ends: after 13 and 13 + 12 descriptors (37 = 13 + 12 + 12).
    for (unsigned k = 0; k + 1 < 37; ++k) {
        EXPECT_EQ(descs[k]->next, bus[k + 1]) << "descriptor " << k;
        const bool chunk_end = k == 12 || k == 24;
        EXPECT_EQ(descs[k]->flags, chunk_end ? DMA_DESC_CHAIN : 0u) << "descriptor " << k;
    }
    EXPECT_EQ(descs[36]->flags, DMA_DESC_END);
    EXPECT_EQ(descs[36]->reserved, 0u);
    dmasim_load_free(&dd_, x, DMASIM_BUF_PAGES);
}

// workload.deburst: every data descriptor asks for one-beat bursts; a
// chain slot only links (its flags stay CHAIN alone).
TEST_F(DriverMemory, DeburstMarksEveryDataDescriptorAndNoChainSlot) {
    dmasim_xfer* x = prep(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES, 7, 2, true);
    ASSERT_NE(x, nullptr);
    for (unsigned c = 0; c < 2; ++c) {
        for (unsigned s = 0; s < x->chunks[c].nr_desc; ++s) {
            auto* d = static_cast<dma_hw_desc*>(dmasim_xfer_desc(x, c, s));
            EXPECT_TRUE(d->flags & DMA_DESC_DEBURST) << "chunk " << c << " slot " << s;
        }
    }
    auto* link = static_cast<dma_hw_desc*>(dmasim_xfer_desc(x, 0, x->chunks[0].nr_desc));
    EXPECT_EQ(link->flags, DMA_DESC_CHAIN);
    dmasim_load_free(&dd_, x, DMASIM_BUF_PAGES);
}

// A controller whose CAPS report 32-byte in-slot linked descriptors with
// five APP words (AXI DMA's BDs): descriptors 0x40 apart, each naming its
// successor in the first 8 bytes, the APP words left at 0.
TEST_F(DriverMemory, InSlotLinkedDescriptorsWithAppWordsSitAtSixtyFourBytes) {
    dd_.desc_bytes = 32;
    dd_.next_in_slot = 1;
    dd_.app_words = 5;
    dmasim_xfer* x = prep(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_LINKED_LIST, 9, 1);
    ASSERT_NE(x, nullptr);
    const auto src = dma_addresses(&x->src);
    for (unsigned k = 0; k < 9; ++k) {
        EXPECT_EQ(dmasim_xfer_desc_bus(x, 0, k), x->chunks[0].bus + uint64_t(k) * 64);
        auto* d = static_cast<dma_hw_ll_desc32*>(dmasim_xfer_desc(x, 0, k));
        EXPECT_EQ(d->next, k + 1 < 9 ? dmasim_xfer_desc_bus(x, 0, k + 1) : 0u);
        EXPECT_EQ(d->src, src[k]);
        EXPECT_EQ(d->length, 1001u);
        EXPECT_EQ(d->flags, k == 8 ? DMA_DESC_END : 0u);
        const auto* app = reinterpret_cast<const uint32_t*>(d + 1);
        for (unsigned w = 0; w < 5; ++w) EXPECT_EQ(app[w], 0u);
    }
    dmasim_load_free(&dd_, x, DMASIM_BUF_PAGES);
}

TEST_F(DriverMemory, DeviceDirectionsPutTheListOnTheMemorySide) {
    dmasim_xfer* in = prep(DMA_HW_DEV_TO_MEM, DMA_HW_FMT_CHAINED_PAGES, 5, 1);
    dmasim_xfer* out = prep(DMA_HW_MEM_TO_DEV, DMA_HW_FMT_CHAINED_PAGES, 5, 1);
    ASSERT_TRUE(in && out);
    auto* d_in = static_cast<dma_hw_desc*>(dmasim_xfer_desc(in, 0, 0));
    auto* d_out = static_cast<dma_hw_desc*>(dmasim_xfer_desc(out, 0, 0));
    EXPECT_EQ(d_in->src, 0u);
    EXPECT_EQ(d_in->dst, sg_dma_address(in->dst.sgl));
    EXPECT_EQ(d_out->src, sg_dma_address(out->src.sgl));
    EXPECT_EQ(d_out->dst, 0u);
    EXPECT_EQ(in->src.sgl, nullptr);
    EXPECT_EQ(out->dst.sgl, nullptr);
    dmasim_load_free(&dd_, in, DMASIM_BUF_PAGES);
    dmasim_load_free(&dd_, out, DMASIM_BUF_PAGES);
}

// A ring writes its requests' descriptors into its own slots: a request
// prepared for it is only its mapped lists, and START refuses it.
TEST_F(DriverMemory, ARingRequestHasItsMappedListsAndNoDescriptorChunks) {
    dmasim_xfer* x = prep(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES, 6, 3, false, true);
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x->nr_chunks, 0u);
    EXPECT_EQ(x->chunks, nullptr);
    EXPECT_EQ(x->src.nents, 6u);
    EXPECT_EQ(x->dst.nents, 6u);
    EXPECT_EQ(x->bytes, 6u * 1001);
    // The memory estimate counts no chunk pages either.
    EXPECT_EQ(dmasim_desc_pages_needed(&x->spec), 0u);
    dd_.chan[0].dd = &dd_;
    EXPECT_EQ(dmasim_xfer_submit(&dd_.chan[0], x), -EINVAL);
    dmasim_load_free(&dd_, x, DMASIM_BUF_PAGES);
    EXPECT_EQ(sim_mem_pages_in_use(), pages_before_);
}

// ... and a ring takes only such requests: one with chunks of its own was
// prepared for START.
TEST_F(DriverMemory, ARingRefusesATransferPreparedForStart) {
    dd_.tail_pointer = 1;
    dd_.nr_channels = 1;
    dd_.chan[0].dd = &dd_;
    dmasim_xfer* x = prep(DMA_HW_MEM_TO_DEV, DMA_HW_FMT_CHAINED_PAGES, 2, 1);
    ASSERT_NE(x, nullptr);
    dmasim_ring* ring = nullptr;
    ASSERT_EQ(dmasim_ring_alloc(&dd_, 0, &x->spec, 8, &ring), 0);
    EXPECT_EQ(dmasim_ring_submit(ring, x), -EINVAL);
    EXPECT_EQ(dmasim_ring_peek(ring, 0), nullptr);
    dmasim_ring_free(&dd_, ring);
    dmasim_load_free(&dd_, x, DMASIM_BUF_PAGES);
    EXPECT_EQ(sim_mem_pages_in_use(), pages_before_);
}

TEST_F(DriverMemory, ALargeChunkTakesContiguousPageFrames) {
    // 300 data descriptors in one chunk: 300 * 32 = 9600 bytes -> 4 frames.
    dmasim_xfer* x = prep(DMA_HW_MEM_TO_DEV, DMA_HW_FMT_CHAINED_PAGES, 300, 1);
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(PAGE_SIZE << x->chunks[0].order, 4 * PAGE_SIZE);
    dmasim_load_free(&dd_, x, DMASIM_BUF_PAGES);
}

TEST_F(DriverMemory, EveryPageIsReturnedForEveryDirectionAndFormat) {
    for (auto dir : {DMA_HW_MEM_TO_MEM, DMA_HW_DEV_TO_MEM, DMA_HW_MEM_TO_DEV})
        for (auto format : {DMA_HW_FMT_CHAINED_PAGES, DMA_HW_FMT_LINKED_LIST}) {
            dmasim_xfer* x = prep(dir, format, 37, 3);
            ASSERT_NE(x, nullptr);
            EXPECT_GT(sim_mem_pages_in_use(), pages_before_);
            dmasim_load_free(&dd_, x, DMASIM_BUF_PAGES);
            EXPECT_EQ(sim_mem_pages_in_use(), pages_before_) << dir << "/" << format;
        }
}

TEST_F(DriverMemory, OutOfMemoryLeavesNothingAllocated) {
    // 20000 segments of one frame each cannot fit in 64 MiB twice over.
    dmasim_load_spec spec{};
    spec.xfer.dir = DMA_HW_MEM_TO_MEM;
    spec.xfer.entries = 20000;
    spec.xfer.chain_depth = 1;
    spec.seg.dist = DMASIM_SEG_FIXED;
    spec.seg.bytes = 4096;
    dmasim_xfer* x = nullptr;
    EXPECT_EQ(dmasim_load_prep(&dd_, &spec, &x), -ENOMEM);
    EXPECT_EQ(x, nullptr);
    EXPECT_EQ(sim_mem_pages_in_use(), pages_before_);
}

// Packed buffers: 1001-byte segments, 32 per 32 KiB fragment block
// (32 x 1001 = 32032 <= 32768 < 33 x 1001), so 100 segments take
// ceil(100 / 32) = 4 blocks of 8 frames per list, laid back to back.
TEST_F(DriverMemory, PackedSegmentsShareFragmentBlocksBackToBack) {
    dmasim_seg_spec seg{};
    seg.dist = DMASIM_SEG_FIXED;
    seg.bytes = 1001;
    seg.seed = 5;
    seg.layout = DMASIM_BUF_PACKED;
    const uint64_t blocks = (100 + 31) / 32;
    EXPECT_EQ(dmasim_buf_pages_needed(&seg, 100), blocks * 8);

    sg_table sgt{};
    const unsigned long table_pages = sim_mem_pages_in_use();
    ASSERT_EQ(dmasim_buf_alloc(&sgt, 100, &seg), 0);
    scatterlist* sg = sgt.sgl;
    for (unsigned i = 1; i < 32; ++i) {
        scatterlist* next = sg_next(sg);
        EXPECT_EQ(sg_phys(next), sg_phys(sg) + 1001) << "segment " << i;
        sg = next;
    }
    // The frames in use: the table's own page and the fragment blocks.
    EXPECT_EQ(sim_mem_pages_in_use() - table_pages, blocks * 8 + 1);
    dmasim_buf_free(&sgt, DMASIM_BUF_PACKED);
    EXPECT_EQ(sim_mem_pages_in_use(), pages_before_);
}

// mem_to_mem draws the destination from the same spec: drawn lengths and
// offsets match the source's entry by entry, on other frames.
TEST_F(DriverMemory, ADestinationListHasTheSourcesShapeOnOtherFrames) {
    for (const dmasim_buf_layout layout : {DMASIM_BUF_PAGES, DMASIM_BUF_PACKED}) {
        dmasim_load_spec spec = chained_copy(300, 2);
        spec.seg.dist = DMASIM_SEG_LOGNORMAL;
        spec.seg.bytes = 3000;
        spec.seg.sigma = 1.0;
        spec.seg.min = 1;
        spec.seg.max = 50000;  // some longer than a fragment block
        spec.seg.offset = layout == DMASIM_BUF_PAGES ? 100 : 0;
        spec.seg.seed = 9;
        spec.seg.layout = layout;
        dmasim_xfer* x = nullptr;
        ASSERT_EQ(dmasim_load_prep(&dd_, &spec, &x), 0);
        std::vector<unsigned> lengths;
        scatterlist *s = x->src.sgl, *d = x->dst.sgl;
        for (unsigned i = 0; i < 300; ++i, s = sg_next(s), d = sg_next(d)) {
            EXPECT_EQ(d->length, s->length) << i;
            if (layout == DMASIM_BUF_PAGES) {
                EXPECT_EQ(d->offset, s->offset) << i;
            }
            EXPECT_NE(sg_phys(d), sg_phys(s)) << i;
            lengths.push_back(s->length);
        }
        EXPECT_GT(*std::max_element(lengths.begin(), lengths.end()), PAGE_FRAG_CACHE_MAX_SIZE);
        EXPECT_NE(lengths.front(), lengths.back());
        dmasim_load_free(&dd_, x, layout);
    }
    EXPECT_EQ(sim_mem_pages_in_use(), pages_before_);
}

// Fixed lengths are counted by formula; a uniform distribution with
// min = max draws the same lengths one by one, so both counts must agree,
// for fragments, exact and partial blocks, and segments with frames of
// their own (40000 B > the 32 KiB fragment block).
TEST(DriverBufferPages, FixedLengthsCountAsManyPagesAsTheSameLengthsDrawn) {
    for (dmasim_buf_layout layout : {DMASIM_BUF_PACKED, DMASIM_BUF_PAGES})
        for (uint64_t bytes : {64u, 1001u, 4096u, 40000u})
            for (unsigned entries : {1u, 511u, 512u, 513u, 3000u}) {
                dmasim_seg_spec fixed{};
                fixed.dist = DMASIM_SEG_FIXED;
                fixed.bytes = bytes;
                fixed.offset = 100;
                fixed.layout = layout;
                dmasim_seg_spec drawn = fixed;
                drawn.dist = DMASIM_SEG_UNIFORM;
                drawn.min = drawn.max = bytes;
                EXPECT_EQ(dmasim_buf_pages_needed(&fixed, entries),
                          dmasim_buf_pages_needed(&drawn, entries))
                    << layout << " " << bytes << " x " << entries;
            }
}

TEST(DriverErrors, ChannelErrorsAreNamedAsTheRegisterMapNamesThem) {
    EXPECT_STREQ(dmasim_error_name(DMA_ERR_CHAIN_LOOP), "CHAIN_LOOP");
    EXPECT_STREQ(dmasim_error_name(DMA_ERR_DATA_BUS), "DATA_BUS");
    EXPECT_STREQ(dmasim_error_name(DMA_ERR_ABORTED), "ABORTED");
    EXPECT_STREQ(dmasim_error_name(dmasim_status_error(DMA_STATUS_ERROR | 0x604u)), "CHAIN_LOOP");
    EXPECT_STREQ(dmasim_error_name(200), "UNKNOWN");
}

TEST_F(DriverMemory, InvalidDepthIsRejected) {
    dmasim_load_spec spec{};
    spec.xfer.dir = DMA_HW_MEM_TO_MEM;
    spec.xfer.entries = 4;
    spec.xfer.chain_depth = 5;
    spec.seg.bytes = 64;
    dmasim_xfer* x = nullptr;
    EXPECT_EQ(dmasim_load_prep(&dd_, &spec, &x), -EINVAL);
}

// Bytes of chunk @c's slot pages not equal to zero, past its first
// `written` slots and in the write-back words of those.
size_t dirty_chunk_bytes(dmasim_xfer* x, unsigned c, unsigned written) {
    const size_t stride = dmasim_desc_stride(&x->spec);
    const unsigned slots = dmasim_chunk_slots(x->spec.format, x->spec.entries, x->nr_chunks, c);
    const auto* base = static_cast<const unsigned char*>(dmasim_xfer_desc(x, c, 0));
    size_t dirty = 0;
    for (size_t b = written * stride; b < PAGE_ALIGN(slots * stride); ++b) dirty += base[b] != 0;
    for (unsigned i = 0; i < written; ++i) {
        const auto* d = static_cast<const dma_hw_desc*>(dmasim_xfer_desc(x, c, i));
        dirty += (d->status != 0) + (d->bytes_done != 0);
    }
    return dirty;
}

// Frames come back dirty from earlier users: every chunk, linked or left
// over after an IOMMU merge, is cleared before the controller reads it,
// and the transfer's byte count is the list's, merged or not.
TEST(DriverChunks, EveryChunkIsClearedOnDirtyFrames) {
    device dev{};
    dmasim_dev dd{};
    ASSERT_NO_FATAL_FAILURE(init_driver_device(&dev, &dd, 64));
    std::memset(sim_mem_base(), 0xa5, sim_mem_size());
    ASSERT_EQ(sim_iommu_attach_tables(&dev, 1ull << 30, 1ull << 30, 4, PAGE_SIZE), 0);
    dd.iommu = 1;
    dmasim_load_spec spec{};
    spec.seg.dist = DMASIM_SEG_FIXED;
    // 300 x 1001 B at offset 13 over 3 chunks: nothing merges; 8 whole
    // pages over 4 chunks: one segment, chunks 1-3 unlinked.
    for (const auto& [entries, depth, bytes] :
         {std::tuple{300u, 3u, 1001u}, std::tuple{8u, 4u, unsigned(PAGE_SIZE)}}) {
        spec.xfer = chained_copy(entries, depth).xfer;
        spec.seg.bytes = bytes;
        spec.seg.offset = bytes == PAGE_SIZE ? 0 : 13;
        dmasim_xfer* x = nullptr;
        ASSERT_EQ(dmasim_load_prep(&dd, &spec, &x), 0);
        EXPECT_EQ(x->bytes, uint64_t{entries} * bytes);  // counted as the descriptors are written
        for (unsigned c = 0; c < x->nr_chunks; ++c) {
            const unsigned n = x->chunks[c].nr_desc;
            const unsigned written = n + (n && c + 1 < x->nr_linked ? 1 : 0);
            EXPECT_EQ(dirty_chunk_bytes(x, c, written), 0u) << entries << " entries, chunk " << c;
        }
        dmasim_load_free(&dd, x, DMASIM_BUF_PAGES);
    }
    dd.iommu = 0;
    sim_iommu_detach(&dev);
    sim_mem_exit();
}

}  // namespace

// Behind an IOMMU every address the controller sees is an IOVA: the head,
// the chain links and the data addresses all translate back, through the
// page tables in simulated memory, to the frames the driver wrote.
class DriverIommu : public DriverMemory {
protected:
    void SetUp() override {
        DriverMemory::SetUp();
        ASSERT_EQ(sim_iommu_attach_tables(&dev_, kIovaBase, 1ull << 30, 4, PAGE_SIZE), 0);
        dd_.iommu = 1;  // as dmasim_probe() sets it for a controller with CAPS.IOMMU
        mmio_writes.clear();
    }
    void TearDown() override {
        sim_iommu_detach(&dev_);
        EXPECT_EQ(sim_mem_pages_in_use(), pages_before_);
        DriverMemory::TearDown();
    }
    static constexpr uint64_t kIovaBase = 1ull << 30;
};

TEST_F(DriverIommu, ChunksAndLinksAreIovasThatTranslateToTheChunkFrames) {
    dmasim_xfer* x = prep(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES, 37, 3);
    ASSERT_NE(x, nullptr);
    for (unsigned c = 0; c < 3; ++c) {
        EXPECT_GE(x->chunks[c].bus, kIovaBase);
        EXPECT_EQ(sim_iommu_iova_to_phys(&dev_, x->chunks[c].bus), page_to_phys(x->chunks[c].page));
        if (c == 2) continue;
        auto* link = static_cast<dma_hw_desc*>(dmasim_xfer_desc(x, c, x->chunks[c].nr_desc));
        EXPECT_EQ(link->src, x->chunks[c + 1].bus);
    }
    EXPECT_EQ(x->head, x->chunks[0].bus);
    dmasim_load_free(&dd_, x, DMASIM_BUF_PAGES);
}

TEST_F(DriverIommu, DataAddressesTranslateToTheSegments) {
    dmasim_xfer* x = prep(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_LINKED_LIST, 9, 2);
    ASSERT_NE(x, nullptr);
    // 1001-byte segments at offset 13 never end on a page: no merging.
    ASSERT_EQ(x->src.nents, 9u);
    unsigned k = 0;
    scatterlist *sg, *dsg = x->dst.sgl;
    unsigned i;
    for_each_sgtable_sg(&x->src, sg, i) {
        const unsigned c = k < x->chunks[0].nr_desc ? 0 : 1;
        const unsigned slot = c ? k - x->chunks[0].nr_desc : k;
        auto* d = static_cast<dma_hw_ll_desc*>(dmasim_xfer_desc(x, c, slot));
        EXPECT_EQ(sim_iommu_iova_to_phys(&dev_, d->src), sg_phys(sg)) << k;
        EXPECT_EQ(sim_iommu_iova_to_phys(&dev_, d->dst), sg_phys(dsg)) << k;
        dsg = sg_next(dsg);
        ++k;
    }
    dmasim_load_free(&dd_, x, DMASIM_BUF_PAGES);
}

TEST_F(DriverIommu, FreeingATransferInvalidatesTheIotlbOnce) {
    dmasim_xfer* x = prep(DMA_HW_DEV_TO_MEM, DMA_HW_FMT_CHAINED_PAGES, 5, 1);
    ASSERT_NE(x, nullptr);
    EXPECT_TRUE(mmio_writes.empty());
    dmasim_load_free(&dd_, x, DMASIM_BUF_PAGES);
    ASSERT_EQ(mmio_writes.size(), 1u);
    EXPECT_EQ(mmio_writes[0].addr, uint64_t{DMA_REG_IOMMU_INVALIDATE});  // dd_.regs is 0
}

TEST_F(DriverIommu, RevokeUnmapsTheDescriptorsFirstPageAndInvalidates) {
    dmasim_xfer* x = prep(DMA_HW_MEM_TO_DEV, DMA_HW_FMT_CHAINED_PAGES, 5, 1);
    ASSERT_NE(x, nullptr);
    auto* d = static_cast<dma_hw_desc*>(dmasim_xfer_desc(x, 0, 3));
    ASSERT_NE(sim_iommu_iova_to_phys(&dev_, d->src), 0u);
    ASSERT_EQ(dmasim_xfer_revoke(&dd_, x, 3), 0);
    EXPECT_EQ(sim_iommu_iova_to_phys(&dev_, d->src), 0u);
    auto* other = static_cast<dma_hw_desc*>(dmasim_xfer_desc(x, 0, 2));
    EXPECT_NE(sim_iommu_iova_to_phys(&dev_, other->src), 0u);
    ASSERT_EQ(mmio_writes.size(), 1u);
    EXPECT_EQ(mmio_writes[0].addr, uint64_t{DMA_REG_IOMMU_INVALIDATE});
    EXPECT_EQ(dmasim_xfer_revoke(&dd_, x, 5), -EINVAL);  // past the list
    dmasim_load_free(&dd_, x, DMASIM_BUF_PAGES);
}

TEST_F(DriverMemory, RevokeNeedsAnIommu) {
    dmasim_xfer* x = prep(DMA_HW_MEM_TO_DEV, DMA_HW_FMT_CHAINED_PAGES, 2, 1);
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(dmasim_xfer_revoke(&dd_, x, 0), -ENODEV);
    dmasim_load_free(&dd_, x, DMASIM_BUF_PAGES);
}

TEST_F(DriverIommu, AListMergedIntoFewerSegmentsThanChunksLinksOnlyThatMany) {
    // 8 whole pages at offset 0 are contiguous in IOVA space: the IOMMU
    // merges them into one segment, so of the 4 chunks only the first is used.
    dmasim_load_spec spec = chained_copy(8, 4);
    spec.seg.dist = DMASIM_SEG_FIXED;
    spec.seg.bytes = PAGE_SIZE;
    dmasim_xfer* x = nullptr;
    ASSERT_EQ(dmasim_load_prep(&dd_, &spec, &x), 0);
    ASSERT_EQ(x->src.nents, 1u);
    EXPECT_EQ(x->nr_chunks, 4u);
    EXPECT_EQ(x->nr_linked, 1u);
    auto* d = static_cast<dma_hw_desc*>(dmasim_xfer_desc(x, 0, 0));
    EXPECT_EQ(d->length, 8 * PAGE_SIZE);
    EXPECT_EQ(d->flags, DMA_DESC_END);
    EXPECT_EQ(d->dst, sg_dma_address(x->dst.sgl));
    dmasim_load_free(&dd_, x, DMASIM_BUF_PAGES);
}
