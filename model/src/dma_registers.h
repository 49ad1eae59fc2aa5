// dma_registers.h - the controller's register map, declared once: offset,
// access, reset value and meaning of every register. The controller
// dispatches on this table and a test checks docs/registers.md against it.
#pragma once

#include <dmasim/hw/dma_hw.h>

#include <cstdint>
#include <vector>

namespace dmasim::model {

enum class Access { ro, rw, w1c };

enum class RegId {
    version,
    caps,
    irq_status,
    irq_mask,
    desc_addr_lo,
    desc_addr_hi,
    ctrl,
    status,
    bytes_done_lo,
    bytes_done_hi,
    descs_done,
};

struct RegisterInfo {
    RegId id;
    const char* name;
    uint32_t offset;  ///< from DMA_REGS_BASE, or from DMA_CH_BASE(n) if per_channel
    bool per_channel;
    Access access;
    uint32_t reset;  ///< reset value (CAPS: reported at run time)
    const char* doc;
};

/// Every register, global ones first.
const std::vector<RegisterInfo>& register_table();

const char* access_name(Access a);

}  // namespace dmasim::model
