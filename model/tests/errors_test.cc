// Every error class: its own status code, an interrupt within a bounded
// time, the channel halted, and no memory touched outside the descriptors
// that completed before the error.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "memory.h"
#include "support.h"

namespace dmasim::model::test {
namespace {

constexpr uint64_t kRam = 16 * MiB;
constexpr uint64_t kSrc = 0x100000, kDst = 0x800000, kRegion = 0x10000;
constexpr uint64_t kBound = 100000;  // cycles an error may take to show

struct Outcome {
    uint32_t status = 0;
    uint32_t irq_status = 0;
    uint64_t descriptors = 0;
};

/// A 3-descriptor list over 3 chunks whose second descriptor the test may
/// break; only the first may change the destination region.
struct ErrorCase {
    explicit ErrorCase(PlatformParams p = {}) : rig(p, kRam) {
        segs = segments(kSrc, kDst, 3, 1024, 4096);
        fill_pattern(rig.host(kSrc), kRegion, 21);
        fill_pattern(rig.host(kDst), kRegion, 22);
        expected.assign(rig.host(kDst), rig.host(kDst) + kRegion);
        std::memcpy(expected.data(), rig.host(kSrc), segs[0].length);
    }
    uint64_t write(dma_hw_format f = DMA_HW_FMT_CHAINED_PAGES) {
        return f == DMA_HW_FMT_CHAINED_PAGES ? write_chained(rig.host(0), segs, chunks)
                                             : write_linked(rig.host(0), segs, chunks);
    }
    Outcome run(uint64_t desc, dma_hw_format f = DMA_HW_FMT_CHAINED_PAGES) {
        Outcome o;
        rig.run([&] {
            rig.cpu().set_reg(DMA_REG_IRQ_MASK, 1);
            rig.start(0, desc, ctrl_word(DMA_HW_MEM_TO_MEM, f));
            ASSERT_NE(rig.wait_idle(0, kBound), 0u) << "channel did not stop";
            sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));  // irq latency
            o.status = rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_STATUS);
            o.irq_status = rig.cpu().reg(DMA_REG_IRQ_STATUS);
            EXPECT_TRUE(rig.platform().irq().read());
        });
        o.descriptors = rig.platform().channel_stats(0).descriptors;
        return o;
    }
    /// Descriptor i is expected to complete before the error.
    void completes(unsigned i) {
        std::memcpy(&expected[segs[i].dst - kDst], rig.host(segs[i].src), segs[i].length);
    }
    /// Points chunk c's chain slot at `target`.
    void rechain(unsigned c, uint64_t target) {
        uint64_t slot = chunks[c] + chunk_sizes(3, 3)[c] * DMA_HW_DESC_SIZE;
        std::memcpy(rig.host(slot), &target, sizeof target);
    }
    void expect_error(const Outcome& o, dma_hw_error err, uint64_t completed) {
        EXPECT_EQ(o.status, DMA_STATUS_ERROR | (uint32_t(err) << DMA_STATUS_ERR_SHIFT));
        EXPECT_EQ(o.irq_status, 1u);
        EXPECT_EQ(o.descriptors, completed);
        EXPECT_EQ(std::memcmp(expected.data(), rig.host(kDst), kRegion), 0)
            << "memory outside the completed descriptors changed";
    }

    Rig rig;
    std::vector<Seg> segs;
    std::vector<uint64_t> chunks = {0x10000, 0x20000, 0x30000};
    std::vector<uint8_t> expected;
};

TEST(ModelErrors, ZeroLengthDescriptor) {
    ErrorCase c;
    c.segs[1].length = 0;
    c.expect_error(c.run(c.write()), DMA_ERR_ZERO_LENGTH, 1);
}

TEST(ModelErrors, UnknownFlagIsABadDescriptor) {
    ErrorCase c;
    c.segs[1].flags = 0x100;
    c.expect_error(c.run(c.write()), DMA_ERR_BAD_DESCRIPTOR, 1);
}

TEST(ModelErrors, DataAddressOutsideMemory) {
    ErrorCase c;
    c.segs[1].dst = kRam - 100;  // runs past the end of RAM
    c.expect_error(c.run(c.write()), DMA_ERR_DATA_ADDRESS, 1);
}

TEST(ModelErrors, DataAddressInTheRegisterWindow) {
    ErrorCase c;
    c.segs[1].src = DMA_REGS_BASE;  // the DMA master may not reach registers
    c.expect_error(c.run(c.write()), DMA_ERR_DATA_ADDRESS, 1);
}

TEST(ModelErrors, DataBusError) {
    ErrorCase c;
    c.rig.memory().inject_fault_from(kRam - 64 * KiB);
    c.segs[1].src = kRam - 32 * KiB;
    c.expect_error(c.run(c.write()), DMA_ERR_DATA_BUS, 1);
}

TEST(ModelErrors, DescriptorAddressOutsideMemory) {
    ErrorCase c;
    uint64_t d = c.write();
    c.rechain(0, kRam + 0x1000);
    c.expect_error(c.run(d), DMA_ERR_DESC_ADDRESS, 1);
}

TEST(ModelErrors, DescriptorBusError) {
    ErrorCase c;
    c.chunks[1] = kRam - 0x10000;
    uint64_t d = c.write();
    c.rig.memory().inject_fault_from(kRam - 0x20000);
    c.expect_error(c.run(d), DMA_ERR_DESC_BUS, 1);
}

TEST(ModelErrors, ChainBackToAWalkedChunkIsALoop) {
    ErrorCase c;
    uint64_t d = c.write();
    c.rechain(1, c.chunks[0]);  // chunk 1 links back to chunk 0
    c.completes(1);
    c.expect_error(c.run(d), DMA_ERR_CHAIN_LOOP, 2);
}

TEST(ModelErrors, ChainDeeperThanTheLimitIsALoop) {
    PlatformParams p;
    p.dma.max_chain_depth = 1;
    ErrorCase c(p);
    // Two links are needed; the second exceeds the limit after 2 descriptors.
    c.completes(1);
    c.expect_error(c.run(c.write()), DMA_ERR_CHAIN_LOOP, 2);
}

TEST(ModelErrors, TooManyDescriptorsIsALoop) {
    PlatformParams p;
    p.dma.max_descriptors = 1;
    ErrorCase c(p);
    c.expect_error(c.run(c.write()), DMA_ERR_CHAIN_LOOP, 1);
}

TEST(ModelErrors, LinkedListPointingToItselfIsCaughtByTheDescriptorLimit) {
    PlatformParams p;
    p.dma.max_descriptors = 50;
    ErrorCase c(p);
    dma_hw_ll_desc self{0x10000, kSrc, kDst, 1024, 0, 0, 0, 0};
    std::memcpy(c.rig.host(0x10000), &self, sizeof self);
    Outcome o = c.run(0x10000, DMA_HW_FMT_LINKED_LIST);
    EXPECT_EQ(o.status, DMA_STATUS_ERROR | (uint32_t(DMA_ERR_CHAIN_LOOP) << DMA_STATUS_ERR_SHIFT));
    EXPECT_EQ(o.descriptors, 50u);
}

TEST(ModelErrors, AbortStopsTheChannel) {
    ErrorCase c;
    c.segs = segments(kSrc, kDst, 3, 4 * 1024 * 1024, 0);  // long: still running at abort
    uint64_t d = c.write();
    Outcome o;
    c.rig.run([&] {
        c.rig.cpu().set_reg(DMA_REG_IRQ_MASK, 1);
        c.rig.start(0, d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
        sc_core::wait(sc_core::sc_time(20, sc_core::SC_US));
        c.rig.cpu().set_reg(DMA_CH_BASE(0) + DMA_CH_CTRL, DMA_CTRL_ABORT);
        ASSERT_NE(c.rig.wait_idle(0, kBound), 0u);
        sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));
        o.status = c.rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_STATUS);
        o.irq_status = c.rig.cpu().reg(DMA_REG_IRQ_STATUS);
    });
    EXPECT_EQ(o.status, DMA_STATUS_ERROR | (uint32_t(DMA_ERR_ABORTED) << DMA_STATUS_ERR_SHIFT));
    EXPECT_EQ(o.irq_status, 1u);
    // 20 us at 16 B/cycle moves far less than the 12 MiB requested.
    EXPECT_LT(c.rig.platform().channel_stats(0).bytes, 3u * 4 * MiB);
}

}  // namespace
}  // namespace dmasim::model::test
