// ring_reap_test.cc - dmasim_ring_reap() learns completions as a Linux
// driver does, from the status words the hardware writes back into the
// ring's slots; no simulation: the test writes those words itself, and a
// register file of two values answers the driver's reads.
#include <cstdint>
#include <cstring>
#include <tuple>

#include "driver_device.h"

namespace {

// The channel's registers as the reap reads them.
uint32_t channel_status = DMA_STATUS_BUSY | DMA_STATUS_IDLE;
uint32_t channel_descs_done = 0;
unsigned descs_done_reads = 0;

}  // namespace

extern "C" {
uint32_t dmasim_io_read32(uint64_t addr) {
    if (addr == DMA_CH_BASE(0) + DMA_CH_STATUS) return channel_status;
    if (addr == DMA_CH_BASE(0) + DMA_CH_DESCS_DONE) {
        ++descs_done_reads;
        return channel_descs_done;
    }
    return 0;
}
void dmasim_io_write32(uint32_t, uint64_t) {}
void dmasim_completion_wait(struct completion*) {}
void dmasim_completion_signal(struct completion*) {}
}

namespace {

constexpr unsigned kSlots = 8, kEntries = 2, kSegmentBytes = 700;

/// A ring of kSlots on channel 0 of a controller with the given slot size
/// and write-back policy, and requests of kEntries segments prepared for it.
class RingReap : public ::testing::TestWithParam<std::tuple<dma_hw_format, unsigned>> {
protected:
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(init_driver_device(&dev_, &dd_, 32));
        dd_.nr_channels = 1;
        dd_.tail_pointer = 1;
        dd_.desc_bytes = std::get<1>(GetParam());
        dd_.writeback = DMA_HW_WB_PER_DESCRIPTOR;
        dd_.chan[0].dd = &dd_;
        channel_status = DMA_STATUS_BUSY | DMA_STATUS_IDLE;
        channel_descs_done = 0;
        descs_done_reads = 0;
    }
    void TearDown() override {
        for (dmasim_xfer* x : requests_) dmasim_load_free(&dd_, x, DMASIM_BUF_PAGES);
        dmasim_ring_free(&dd_, ring_);
        sim_mem_exit();
    }

    /// Submits `count` requests to a ring started for them.
    void submit(unsigned count) {
        for (unsigned i = 0; i < count; ++i) {
            dmasim_load_spec spec{};
            spec.xfer.for_ring = 1;
            spec.xfer.dir = DMA_HW_MEM_TO_MEM;
            spec.xfer.format = std::get<0>(GetParam());
            spec.xfer.entries = kEntries;
            spec.xfer.chain_depth = 1;
            spec.seg.dist = DMASIM_SEG_FIXED;
            spec.seg.bytes = kSegmentBytes;
            spec.seg.seed = 5 + i;
            dmasim_xfer* x = nullptr;
            ASSERT_EQ(dmasim_load_prep(&dd_, &spec, &x), 0);
            requests_.push_back(x);
            if (!ring_) {
                ASSERT_EQ(dmasim_ring_alloc(&dd_, 0, &x->spec, kSlots, &ring_), 0);
                ASSERT_EQ(dmasim_ring_start(ring_), 0);
            }
            ASSERT_EQ(dmasim_ring_submit(ring_, x), 0);
        }
    }

    /// Writes back `status` into `slot` as the hardware does: the 16-bit
    /// word of a compact slot, else the status and bytes_done words.
    void write_back(unsigned slot, uint32_t status) {
        const dma_hw_layout l = dmasim_desc_layout(&ring_->spec);
        uint8_t* at = static_cast<uint8_t*>(page_address(ring_->block.page)) +
                      slot * dmasim_desc_stride(&ring_->spec) + dma_hw_layout_status_offset(&l);
        const uint16_t half = static_cast<uint16_t>(status);
        const uint32_t words[2] = {status, kSegmentBytes};
        if (dma_hw_layout_short_status(&l))
            std::memcpy(at, &half, sizeof half);
        else
            std::memcpy(at, words, sizeof words);
    }
    /// Slot of request r's last descriptor (requests fill the ring in order).
    static unsigned last_slot(unsigned r) { return r * kEntries + kEntries - 1; }

    device dev_{};
    dmasim_dev dd_{};
    dmasim_ring* ring_ = nullptr;
    std::vector<dmasim_xfer*> requests_;
};

TEST_P(RingReap, RequestsCompleteWhenTheirLastStatusWordShowsDone) {
    submit(3);
    EXPECT_EQ(dmasim_ring_reap(ring_), 0u);
    write_back(0, DMA_DESC_STATUS_DONE);
    write_back(last_slot(0), DMA_DESC_STATUS_DONE);
    write_back(last_slot(1) - 1, DMA_DESC_STATUS_DONE);
    // Request 1's first descriptor is done, its last not yet: it waits.
    EXPECT_EQ(dmasim_ring_reap(ring_), 1u);
    EXPECT_EQ(requests_[0]->status, DMA_STATUS_DONE);
    EXPECT_EQ(requests_[0]->descs_done, kEntries);
    EXPECT_EQ(requests_[0]->bytes_done, uint64_t{kEntries} * kSegmentBytes);
    EXPECT_EQ(requests_[1]->status, DMA_STATUS_BUSY);
    write_back(last_slot(1), DMA_DESC_STATUS_DONE);
    EXPECT_EQ(dmasim_ring_reap(ring_), 1u);
    EXPECT_EQ(requests_[1]->status, DMA_STATUS_DONE);
    EXPECT_EQ(requests_[2]->status, DMA_STATUS_BUSY);
    EXPECT_EQ(dmasim_ring_pop(ring_), requests_[0]);
    EXPECT_EQ(dmasim_ring_pop(ring_), requests_[1]);
    EXPECT_EQ(dmasim_ring_pop(ring_), nullptr);
    // The status words said it all: DESCS_DONE was never read.
    EXPECT_EQ(descs_done_reads, 0u);
}

TEST_P(RingReap, AnErrorCodeInAStatusWordEndsItsRequestWithThatError) {
    submit(2);
    write_back(last_slot(0), DMA_DESC_STATUS_DONE);
    write_back(last_slot(1), DMA_ERR_DATA_BUS << DMA_DESC_STATUS_ERR_SHIFT);
    EXPECT_EQ(dmasim_ring_reap(ring_), 2u);
    EXPECT_EQ(requests_[0]->status, DMA_STATUS_DONE);
    EXPECT_EQ(requests_[1]->status,
              DMA_STATUS_ERROR | (uint32_t{DMA_ERR_DATA_BUS} << DMA_STATUS_ERR_SHIFT));
    EXPECT_EQ(requests_[1]->descs_done, 0u);
}

// Slots are reused round the ring: the request in slots 0 and 1 again
// waits for its own write-back, not the one left there last time round
// (the driver cleared it when it filled the slot).
TEST_P(RingReap, ASlotReusedRoundTheRingWaitsForItsNewStatus) {
    submit(kSlots / kEntries);
    for (unsigned r = 0; r < kSlots / kEntries; ++r) write_back(last_slot(r), DMA_DESC_STATUS_DONE);
    EXPECT_EQ(dmasim_ring_reap(ring_), kSlots / kEntries);
    while (dmasim_ring_pop(ring_)) {
    }
    submit(1);
    EXPECT_EQ(dmasim_ring_reap(ring_), 0u);
    write_back(last_slot(0), DMA_DESC_STATUS_DONE);
    EXPECT_EQ(dmasim_ring_reap(ring_), 1u);
    EXPECT_EQ(requests_.back()->status, DMA_STATUS_DONE);
}

// A channel that stopped (here TAIL_UNREACHED) ends what its status words
// do not complete with its STATUS.
TEST_P(RingReap, AStoppedChannelEndsTheRequestsLeftWithItsStatus) {
    submit(2);
    write_back(last_slot(0), DMA_DESC_STATUS_DONE);
    channel_status = DMA_STATUS_ERROR | (DMA_ERR_TAIL_UNREACHED << DMA_STATUS_ERR_SHIFT);
    EXPECT_EQ(dmasim_ring_reap(ring_), 2u);
    EXPECT_EQ(requests_[0]->status, DMA_STATUS_DONE);
    EXPECT_EQ(requests_[1]->status, channel_status);
}

// An engine that writes no status back (dma.status_writeback none): the
// reap counts DESCS_DONE instead.
TEST_P(RingReap, WithoutWriteBacksTheReapCountsDescsDone) {
    dd_.writeback = DMA_HW_WB_NONE;
    submit(2);
    channel_descs_done = kEntries + 1;
    EXPECT_EQ(dmasim_ring_reap(ring_), 1u);
    EXPECT_EQ(requests_[0]->status, DMA_STATUS_DONE);
    EXPECT_EQ(requests_[1]->status, DMA_STATUS_BUSY);
    channel_descs_done = 2 * kEntries;
    EXPECT_EQ(dmasim_ring_reap(ring_), 1u);
    EXPECT_EQ(requests_[1]->status, DMA_STATUS_DONE);
    EXPECT_EQ(descs_done_reads, 2u);
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, RingReap,
    ::testing::Combine(::testing::Values(DMA_HW_FMT_CHAINED_PAGES, DMA_HW_FMT_LINKED_LIST),
                       ::testing::Values(DMA_HW_DESC16_SIZE, DMA_HW_DESC_SIZE)),
    [](const auto& info) {
        return std::string(std::get<0>(info.param) == DMA_HW_FMT_CHAINED_PAGES ? "chained"
                                                                               : "linked") +
               std::to_string(std::get<1>(info.param));
    });

}  // namespace
