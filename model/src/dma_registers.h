// dma_registers.h - the controller's register map, declared once: offset,
// access, reset value, meaning and the read and write handlers of every
// register. The controller dispatches through this table alone, and a test
// checks docs/registers.md against it.
#pragma once

#include <dmasim/hw/dma_hw.h>

#include <cstdint>
#include <vector>

namespace dmasim::model {

class DmaController;
class DmaChannel;

enum class Access { ro, rw, w1c };

struct RegisterInfo {
    const char* name;
    uint32_t offset;  ///< from DMA_REGS_BASE, or from DMA_CH_BASE(n) if per_channel
    bool per_channel;
    Access access;
    uint32_t reset;  ///< reset value (CAPS: reported at run time)
    const char* doc;
    /// The value a read returns; `channel` is the addressed channel (channel
    /// 0 for a global register).
    uint32_t (*read)(const DmaController& dma, const DmaChannel& channel);
    /// What a write does, at `cycle`; null for read-only registers, whose
    /// writes are ignored as in hardware.
    void (*write)(DmaController& dma, DmaChannel& channel, uint32_t value, uint64_t cycle);
    /// Exists only on a platform with an IOMMU (iommu.enabled): elsewhere
    /// its offset has no register.
    bool iommu = false;
};

const char* access_name(Access a);

/// Every register of the map with its handlers.
const std::vector<RegisterInfo>& register_table();

}  // namespace dmasim::model
