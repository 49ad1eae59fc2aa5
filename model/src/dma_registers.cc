// dma_registers.cc - the register table and its handlers.
#include "dma_registers.h"

#include <dmasim/model/dma_controller.h>

#include "dma_channel.h"
#include "iommu.h"

namespace dmasim::model {

// A friend of the controller, so the handlers reach its own state.
const std::vector<RegisterInfo>& register_table() {
    using Dma = DmaController;
    using Ch = DmaChannel;
    static const std::vector<RegisterInfo> table = {
        {"VERSION", DMA_REG_VERSION, false, Access::ro, DMA_HW_VERSION,
         "hardware version, major in bits 31:16",
         [](const Dma&, const Ch&) -> uint32_t { return DMA_HW_VERSION; }, nullptr},
        {"CAPS", DMA_REG_CAPS, false, Access::ro, 0,
         "channels (7:0), formats (bits 8, 9), descriptor size (23:16)",
         [](const Dma& d, const Ch&) { return d.caps(); }, nullptr},
        {"IRQ_STATUS", DMA_REG_IRQ_STATUS, false, Access::w1c, 0,
         "bit n: channel n raised an interrupt; write 1 to clear",
         [](const Dma& d, const Ch&) { return d.irq_status_; },
         [](Dma& d, Ch&, uint32_t v, uint64_t) { d.irq_status_ &= ~v; }},
        {"IRQ_MASK", DMA_REG_IRQ_MASK, false, Access::rw, 0,
         "bit n: channel n drives the interrupt line",
         [](const Dma& d, const Ch&) { return d.irq_mask_; },
         [](Dma& d, Ch&, uint32_t v, uint64_t) { d.irq_mask_ = v & ((1u << d.channels()) - 1); }},
        {"IOMMU_CTRL", DMA_REG_IOMMU_CTRL, false, Access::rw, 0,
         "ENABLE (bit 0): channels started from now on translate their addresses",
         [](const Dma& d, const Ch&) { return d.iommu_->ctrl; },
         [](Dma& d, Ch&, uint32_t v, uint64_t) { d.iommu_->ctrl = v & DMA_IOMMU_CTRL_ENABLE; },
         true},
        {"IOMMU_ROOT_LO", DMA_REG_IOMMU_ROOT_LO, false, Access::rw, 0,
         "root page table's bus address, bits 31:0",
         [](const Dma& d, const Ch&) { return static_cast<uint32_t>(d.iommu_->root); },
         [](Dma& d, Ch&, uint32_t v, uint64_t) {
             d.iommu_->root = (d.iommu_->root & ~0xFFFFFFFFull) | v;
         },
         true},
        {"IOMMU_ROOT_HI", DMA_REG_IOMMU_ROOT_HI, false, Access::rw, 0,
         "root page table's bus address, bits 63:32",
         [](const Dma& d, const Ch&) { return static_cast<uint32_t>(d.iommu_->root >> 32); },
         [](Dma& d, Ch&, uint32_t v, uint64_t) {
             d.iommu_->root = (d.iommu_->root & 0xFFFFFFFFull) | (uint64_t(v) << 32);
         },
         true},
        {"IOMMU_INVALIDATE", DMA_REG_IOMMU_INVALIDATE, false, Access::rw, 0,
         "any write drops every cached translation; reads 0",
         [](const Dma&, const Ch&) -> uint32_t { return 0; },
         [](Dma& d, Ch&, uint32_t, uint64_t) { d.iommu_->invalidate(); }, true},
        {"IOMMU_FAULT_LO", DMA_REG_IOMMU_FAULT_LO, false, Access::ro, 0,
         "IOVA of the latest translation fault, bits 31:0",
         [](const Dma& d, const Ch&) { return static_cast<uint32_t>(d.iommu_->fault_iova); },
         nullptr, true},
        {"IOMMU_FAULT_HI", DMA_REG_IOMMU_FAULT_HI, false, Access::ro, 0,
         "IOVA of the latest translation fault, bits 63:32",
         [](const Dma& d, const Ch&) { return static_cast<uint32_t>(d.iommu_->fault_iova >> 32); },
         nullptr, true},
        {"DESC_ADDR_LO", DMA_CH_DESC_ADDR_LO, true, Access::rw, 0,
         "first descriptor's bus address, bits 31:0",
         [](const Dma&, const Ch& c) { return static_cast<uint32_t>(c.desc_addr); },
         [](Dma&, Ch& c, uint32_t v, uint64_t) {
             c.desc_addr = (c.desc_addr & ~0xFFFFFFFFull) | v;
         }},
        {"DESC_ADDR_HI", DMA_CH_DESC_ADDR_HI, true, Access::rw, 0,
         "first descriptor's bus address, bits 63:32",
         [](const Dma&, const Ch& c) { return static_cast<uint32_t>(c.desc_addr >> 32); },
         [](Dma&, Ch& c, uint32_t v, uint64_t) {
             c.desc_addr = (c.desc_addr & 0xFFFFFFFFull) | (uint64_t(v) << 32);
         }},
        {"CTRL", DMA_CH_CTRL, true, Access::rw, 0,
         "START, ABORT (write-only, read 0), IRQ_EN, DIR, FORMAT",
         [](const Dma&, const Ch& c) { return c.ctrl; },
         [](Dma& d, Ch& c, uint32_t v, uint64_t cycle) { d.write_ctrl(c, v, cycle); }},
        {"STATUS", DMA_CH_STATUS, true, Access::ro, 0, "BUSY, DONE, ERROR, error code in bits 15:8",
         [](const Dma&, const Ch& c) { return c.status; }, nullptr},
        {"BYTES_DONE_LO", DMA_CH_BYTES_DONE_LO, true, Access::ro, 0,
         "payload bytes of completed descriptors, bits 31:0",
         [](const Dma&, const Ch& c) { return static_cast<uint32_t>(c.bytes_done); }, nullptr},
        {"BYTES_DONE_HI", DMA_CH_BYTES_DONE_HI, true, Access::ro, 0,
         "payload bytes of completed descriptors, bits 63:32",
         [](const Dma&, const Ch& c) { return static_cast<uint32_t>(c.bytes_done >> 32); },
         nullptr},
        {"DESCS_DONE", DMA_CH_DESCS_DONE, true, Access::ro, 0, "data descriptors completed",
         [](const Dma&, const Ch& c) { return c.descs_done; }, nullptr},
        {"TAIL_LO", DMA_CH_TAIL_LO, true, Access::rw, 0,
         "last descriptor to process (dma.submission tail_pointer), bits 31:0",
         [](const Dma&, const Ch& c) { return static_cast<uint32_t>(c.tail); },
         [](Dma&, Ch& c, uint32_t v, uint64_t) { c.tail = (c.tail & ~0xFFFFFFFFull) | v; }},
        {"TAIL_HI", DMA_CH_TAIL_HI, true, Access::rw, 0,
         "bits 63:32; the write hands the descriptors up to TAIL to the channel",
         [](const Dma&, const Ch& c) { return static_cast<uint32_t>(c.tail >> 32); },
         [](Dma&, Ch& c, uint32_t v, uint64_t cycle) {
             c.tail = (c.tail & 0xFFFFFFFFull) | (uint64_t(v) << 32);
             c.write_tail(cycle);
         }},
    };
    return table;
}

const char* access_name(Access a) {
    switch (a) {
        case Access::ro:
            return "RO";
        case Access::rw:
            return "RW";
        case Access::w1c:
            return "W1C";
    }
    return "?";
}

}  // namespace dmasim::model
