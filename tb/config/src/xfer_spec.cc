// xfer_spec.cc - see xfer_spec.h.
#include "xfer_spec.h"

#include <dmasim/hw/iommu_hw.h>
#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace dmasim::tb {

uint64_t list_pages(const WorkloadConfig& w, dma_hw_format format, const model::DmaParams& dma) {
    const dmasim_load_spec spec = make_load_spec(w, format, dma);
    return dmasim_load_pages_needed(&spec);
}

std::string fit_error(const WorkloadConfig& w, const dmasim_load_spec& spec,
                      uint64_t memory_size_mib) {
    const uint64_t needed = dmasim_load_pages_needed(&spec) * PAGE_SIZE;
    const uint64_t free = uint64_t{sim_mem_pages_free()} * PAGE_SIZE;
    if (needed <= free) return {};
    return fmt::format(
        "the list does not fit in simulated memory: {} entries need {} bytes "
        "(buffers and descriptor chunks), {} of memory.size_mib = {} ({} bytes) "
        "are free",
        w.entries, needed, free, memory_size_mib, sim_mem_size());
}

IovaWindow iova_window(unsigned levels) {
    const uint64_t end = uint64_t{1} << IOMMU_IOVA_BITS(levels);
    const uint64_t base = levels > 2 ? uint64_t{1} << 30 : uint64_t{2} << 20;
    return {base, end - base};
}

std::string iova_fit_error(const SimConfig& config, const std::vector<WorkloadConfig>& lists) {
    const model::IommuParams& iommu = config.platform.iommu;
    if (!iommu.enabled) return {};
    constexpr uint64_t kMaxDescriptorBytes = 80;  // the largest slot (linked_list, 64 B)
    uint64_t needed = 0;
    for (const WorkloadConfig& w : lists) {
        const uint64_t largest =
            w.distribution == DMASIM_SEG_FIXED ? w.segment_bytes : w.segment_bytes_max;
        // Packed segments start anywhere in a page.
        const uint64_t offset = w.buffers == DMASIM_BUF_PACKED ? PAGE_SIZE - 1 : w.offset;
        const uint64_t per_list = w.entries * PAGE_ALIGN(offset + largest) + iommu.page_bytes;
        const uint64_t buffers = w.direction == DMA_HW_MEM_TO_MEM ? 2 : 1;
        const uint64_t chunks =
            w.chain_depth * PAGE_SIZE + (w.entries + w.chain_depth) * kMaxDescriptorBytes;
        needed += buffers * per_list + chunks;
    }
    const IovaWindow iova = iova_window(iommu.walk_levels);
    // Compact descriptors hold 32-bit addresses: the DMA mask ends the space at 4 GiB.
    uint64_t end = iova.base + iova.size;
    if (config.platform.dma.descriptor_bytes == DMA_HW_DESC16_SIZE)
        end = std::min(end, uint64_t{1} << 32);
    if (needed <= end - iova.base) return {};
    return fmt::format(
        "the lists need up to {} bytes of I/O virtual address space behind the IOMMU, but "
        "iommu.walk_levels = {} gives [{:#x}, {:#x}) ({} bytes): raise iommu.walk_levels or "
        "shrink the list",
        needed, iommu.walk_levels, iova.base, end, end - iova.base);
}

const std::vector<std::string>& iova_fit_keys() {
    static const std::vector<std::string> keys = {"iommu.walk_levels", "iommu.page_size",
                                                  "workload.entries", "workload.segment_bytes",
                                                  "workload.segment_bytes_max"};
    return keys;
}

dmasim_load_spec make_load_spec(const WorkloadConfig& w, dma_hw_format format,
                                const model::DmaParams& dma) {
    dmasim_load_spec spec{};
    spec.xfer.dir = w.direction;
    spec.xfer.format = format;
    spec.xfer.entries = static_cast<unsigned>(w.entries);
    spec.xfer.chain_depth = static_cast<unsigned>(w.chain_depth);
    const dma_hw_layout layout = model::layout_of(format, dma);
    spec.xfer.desc_bytes = layout.slot_bytes;
    spec.xfer.next_in_slot = layout.next_in_slot;
    spec.xfer.app_words = layout.app_words;
    spec.xfer.irq_per_desc = w.irq_per_descriptor;
    spec.xfer.deburst = w.deburst;
    spec.seg.dist = w.distribution;
    spec.seg.bytes = w.segment_bytes;
    spec.seg.min = w.segment_bytes_min;
    spec.seg.max = w.segment_bytes_max;
    spec.seg.sigma = w.lognormal_sigma;
    spec.seg.offset = static_cast<uint32_t>(w.offset);
    spec.seg.seed = w.seed;
    spec.seg.layout = w.buffers;
    if (w.distribution == DMASIM_SEG_LIST) {
        spec.seg.lengths = w.lengths.data();
        spec.seg.offsets = w.offsets.data();
    }
    return spec;
}

}  // namespace dmasim::tb
