// dma_registers.cc - the register table.
#include "dma_registers.h"

namespace dmasim::model {

const std::vector<RegisterInfo>& register_table() {
    static const std::vector<RegisterInfo> table = {
        {RegId::version, "VERSION", DMA_REG_VERSION, false, Access::ro, DMA_HW_VERSION,
         "hardware version, major in bits 31:16"},
        {RegId::caps, "CAPS", DMA_REG_CAPS, false, Access::ro, 0,
         "channels (7:0), formats (bits 8, 9), descriptor size (23:16)"},
        {RegId::irq_status, "IRQ_STATUS", DMA_REG_IRQ_STATUS, false, Access::w1c, 0,
         "bit n: channel n raised an interrupt; write 1 to clear"},
        {RegId::irq_mask, "IRQ_MASK", DMA_REG_IRQ_MASK, false, Access::rw, 0,
         "bit n: channel n drives the interrupt line"},
        {RegId::desc_addr_lo, "DESC_ADDR_LO", DMA_CH_DESC_ADDR_LO, true, Access::rw, 0,
         "first descriptor's bus address, bits 31:0"},
        {RegId::desc_addr_hi, "DESC_ADDR_HI", DMA_CH_DESC_ADDR_HI, true, Access::rw, 0,
         "first descriptor's bus address, bits 63:32"},
        {RegId::ctrl, "CTRL", DMA_CH_CTRL, true, Access::rw, 0,
         "START, ABORT (write-only, read 0), IRQ_EN, DIR, FORMAT"},
        {RegId::status, "STATUS", DMA_CH_STATUS, true, Access::ro, 0,
         "BUSY, DONE, ERROR, error code in bits 15:8"},
        {RegId::bytes_done_lo, "BYTES_DONE_LO", DMA_CH_BYTES_DONE_LO, true, Access::ro, 0,
         "payload bytes of completed descriptors, bits 31:0"},
        {RegId::bytes_done_hi, "BYTES_DONE_HI", DMA_CH_BYTES_DONE_HI, true, Access::ro, 0,
         "payload bytes of completed descriptors, bits 63:32"},
        {RegId::descs_done, "DESCS_DONE", DMA_CH_DESCS_DONE, true, Access::ro, 0,
         "data descriptors completed"},
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
