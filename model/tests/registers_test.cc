// Register map: reset values, access rights, interrupt registers, and
// agreement between docs/registers.md and the register table.
#include <dmasim/model/dma_controller.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>

#include "dma_registers.h"
#include "support.h"

namespace dmasim::model::test {
namespace {

uint64_t reg_addr(const RegisterInfo& r, unsigned ch) {
    return DMA_REGS_BASE + (r.per_channel ? DMA_CH_BASE(ch) + r.offset : r.offset);
}

TEST(ModelRegisters, ResetValuesMatchTheTable) {
    PlatformParams p;
    p.dma.channels = 2;
    p.iommu.enabled = true;  // every register of the table exists
    Rig rig(p);
    rig.run([&] {
        for (const RegisterInfo& r : register_table()) {
            if (std::string(r.name) == "CAPS") continue;  // reports the configuration
            for (unsigned ch = 0; ch < (r.per_channel ? 2u : 1u); ++ch)
                EXPECT_EQ(rig.cpu().read32(reg_addr(r, ch)), r.reset) << r.name;
        }
    });
}

TEST(ModelRegisters, CapsReportChannelsFormatsAndDescriptorSize) {
    PlatformParams p;
    p.dma.channels = 3;
    Rig rig(p);
    rig.run([&] {
        uint32_t caps = rig.cpu().reg(DMA_REG_CAPS);
        EXPECT_EQ(caps & DMA_CAPS_CHANNELS_MASK, 3u);
        EXPECT_TRUE(caps & DMA_CAPS_CHAINED_PAGES);
        EXPECT_TRUE(caps & DMA_CAPS_LINKED_LIST);
        EXPECT_EQ((caps >> DMA_CAPS_DESC_SIZE_SHIFT) & 0xFF, DMA_HW_DESC_SIZE);
    });
}

TEST(ModelRegisters, ReadOnlyRegistersIgnoreWrites) {
    PlatformParams p;
    p.iommu.enabled = true;  // every register of the table exists
    Rig rig(p);
    rig.run([&] {
        for (const RegisterInfo& r : register_table()) {
            if (r.access != Access::ro) continue;
            uint32_t before = rig.cpu().read32(reg_addr(r, 0));
            rig.cpu().write32(reg_addr(r, 0), 0xFFFFFFFFu);
            EXPECT_EQ(rig.cpu().read32(reg_addr(r, 0)), before) << r.name;
        }
    });
}

TEST(ModelRegisters, DescriptorAddressHoldsSixtyFourBits) {
    Rig rig(PlatformParams{});
    rig.run([&] {
        rig.cpu().set_reg(DMA_CH_BASE(0) + DMA_CH_DESC_ADDR_LO, 0x89ABCDEFu);
        rig.cpu().set_reg(DMA_CH_BASE(0) + DMA_CH_DESC_ADDR_HI, 0x01234567u);
        EXPECT_EQ(rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_DESC_ADDR_LO), 0x89ABCDEFu);
        EXPECT_EQ(rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_DESC_ADDR_HI), 0x01234567u);
    });
}

TEST(ModelRegisters, CtrlKeepsConfigurationBitsAndStartReadsZero) {
    Rig rig(PlatformParams{});
    std::vector<Seg> segs = segments(0x100000, 0x200000, 1, 64, 0);
    uint64_t d = write_chained(rig.host(0), segs, {0x10000});
    uint32_t ctrl = ctrl_word(DMA_HW_MEM_TO_DEV, DMA_HW_FMT_CHAINED_PAGES);
    rig.run([&] {
        rig.start(0, d, ctrl);
        EXPECT_EQ(rig.cpu().reg(DMA_CH_BASE(0) + DMA_CH_CTRL), ctrl);
        ASSERT_NE(rig.wait_idle(0, 100000), 0u);
    });
}

TEST(ModelRegisters, IrqStatusIsWriteOneToClear) {
    PlatformParams p;
    p.dma.channels = 2;
    Rig rig(p);
    uint64_t d0 = write_chained(rig.host(0), segments(0x100000, 0x200000, 1, 64, 0), {0x10000});
    uint64_t d1 = write_chained(rig.host(0), segments(0x110000, 0x210000, 1, 64, 0), {0x20000});
    rig.run([&] {
        rig.cpu().set_reg(DMA_REG_IRQ_MASK, 0x3);
        rig.start(0, d0, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
        rig.start(1, d1, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
        ASSERT_NE(rig.wait_idle(0, 100000), 0u);
        ASSERT_NE(rig.wait_idle(1, 100000), 0u);
        sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));  // past irq latency
        EXPECT_EQ(rig.cpu().reg(DMA_REG_IRQ_STATUS), 0x3u);
        EXPECT_TRUE(rig.platform().irq().read());
        rig.cpu().set_reg(DMA_REG_IRQ_STATUS, 0x1);
        EXPECT_EQ(rig.cpu().reg(DMA_REG_IRQ_STATUS), 0x2u);
        rig.cpu().set_reg(DMA_REG_IRQ_STATUS, 0x2);
        EXPECT_EQ(rig.cpu().reg(DMA_REG_IRQ_STATUS), 0x0u);
        EXPECT_FALSE(rig.platform().irq().read());
    });
}

TEST(ModelRegisters, IrqLineIsLowWhileTheChannelIsMasked) {
    Rig rig(PlatformParams{});
    uint64_t d = write_chained(rig.host(0), segments(0x100000, 0x200000, 1, 64, 0), {0x10000});
    rig.run([&] {
        rig.start(0, d, ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES));
        ASSERT_NE(rig.wait_idle(0, 100000), 0u);
        sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));
        EXPECT_EQ(rig.cpu().reg(DMA_REG_IRQ_STATUS), 0x1u);
        EXPECT_FALSE(rig.platform().irq().read());
        rig.cpu().set_reg(DMA_REG_IRQ_MASK, 0x1);
        EXPECT_TRUE(rig.platform().irq().read());
    });
}

TEST(ModelRegisters, UnmappedOffsetAndWrongSizeAreRejected) {
    Rig rig(PlatformParams{});
    rig.run([&] {
        uint32_t v = 0;
        EXPECT_EQ(rig.cpu().access(false, DMA_REGS_BASE + 0x20, &v),
                  tlm::TLM_ADDRESS_ERROR_RESPONSE);
        // Channel 1 does not exist on a one-channel controller.
        EXPECT_EQ(rig.cpu().access(false, DMA_REGS_BASE + DMA_CH_BASE(1), &v),
                  tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(rig.cpu().access(false, DMA_REGS_BASE + 0x2, &v), tlm::TLM_BURST_ERROR_RESPONSE);
    });
}

// docs/registers.md rows look like
// | `0x008` | `IRQ_STATUS` | global | W1C | `0x00000000` | ... |
TEST(ModelRegisters, DocumentationTableMatchesTheRegisterTable) {
    std::ifstream doc(std::string(DMASIM_SOURCE_DIR) + "/docs/registers.md");
    ASSERT_TRUE(doc.good());
    std::regex row(
        R"(^\|\s*`(0x[0-9A-Fa-f]+)`\s*\|\s*`(\w+)`\s*\|\s*(\w+)\s*\|\s*(\w+)\s*\|\s*`?(\w+)`?\s*\|)");
    std::map<std::string, std::smatch> rows;
    std::vector<std::string> lines;
    for (std::string line; std::getline(doc, line);) lines.push_back(line);
    unsigned matched = 0;
    for (const std::string& line : lines) {
        std::smatch m;
        if (!std::regex_search(line, m, row)) continue;
        const RegisterInfo* r = nullptr;
        for (const RegisterInfo& x : register_table())
            if (m[2] == x.name) r = &x;
        ASSERT_NE(r, nullptr) << "documented register not in the model: " << m[2];
        EXPECT_EQ(std::stoul(m[1].str(), nullptr, 16), r->offset) << r->name;
        EXPECT_EQ(m[3].str(), r->per_channel ? "channel" : "global") << r->name;
        EXPECT_EQ(m[4].str(), access_name(r->access)) << r->name;
        if (m[5].str().rfind("0x", 0) == 0) {
            EXPECT_EQ(std::stoul(m[5].str(), nullptr, 16), r->reset) << r->name;
        }
        ++matched;
    }
    EXPECT_EQ(matched, register_table().size());
}

}  // namespace
}  // namespace dmasim::model::test
