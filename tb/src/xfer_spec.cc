// xfer_spec.cc - see xfer_spec.h.
#include "xfer_spec.h"

#include <dmasim/hw/iommu_hw.h>
#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace dmasim::tb {
namespace {

constexpr uint64_t kMaxSegment = std::numeric_limits<uint32_t>::max();

dma_hw_direction hw_direction(Direction d) {
    switch (d) {
        case Direction::dev_to_mem:
            return DMA_HW_DEV_TO_MEM;
        case Direction::mem_to_dev:
            return DMA_HW_MEM_TO_DEV;
        case Direction::mem_to_mem:
            break;
    }
    return DMA_HW_MEM_TO_MEM;
}

dmasim_seg_dist hw_distribution(SizeDistribution d) {
    switch (d) {
        case SizeDistribution::uniform:
            return DMASIM_SEG_UNIFORM;
        case SizeDistribution::lognormal:
            return DMASIM_SEG_LOGNORMAL;
        case SizeDistribution::fixed:
            break;
    }
    return DMASIM_SEG_FIXED;
}

}  // namespace

std::string workload_error(const WorkloadConfig& w) {
    if (w.entries < 1 || w.entries > std::numeric_limits<unsigned>::max())
        return fmt::format("workload.entries = {}: must be in [1, {}]", w.entries,
                           std::numeric_limits<unsigned>::max());
    if (w.chain_depth < 1 || w.chain_depth > w.entries)
        return fmt::format("workload.chain_depth = {}: must be in [1, workload.entries = {}]",
                           w.chain_depth, w.entries);
    if (w.offset >= PAGE_SIZE)
        return fmt::format("workload.offset = {}: must be below the page size {}", w.offset,
                           PAGE_SIZE);
    if (w.distribution == SizeDistribution::fixed) {
        if (w.segment_bytes < 1 || w.segment_bytes > kMaxSegment)
            return fmt::format("workload.segment_bytes = {}: must be in [1, {}]", w.segment_bytes,
                               kMaxSegment);
        return {};
    }
    if (w.segment_bytes_min < 1 || w.segment_bytes_min > w.segment_bytes_max ||
        w.segment_bytes_max > kMaxSegment)
        return fmt::format(
            "workload.segment_bytes_min = {} and workload.segment_bytes_max = {}: "
            "need 1 <= min <= max <= {}",
            w.segment_bytes_min, w.segment_bytes_max, kMaxSegment);
    if (w.distribution == SizeDistribution::lognormal &&
        (w.segment_bytes < 1 || w.lognormal_sigma < 0))
        return fmt::format(
            "workload.segment_bytes = {} (log-normal mean) must be >= 1 and "
            "workload.lognormal_sigma = {} >= 0",
            w.segment_bytes, w.lognormal_sigma);
    return {};
}

std::string fit_error(const WorkloadConfig& w, const dmasim_xfer_spec& spec,
                      uint64_t memory_size_mib) {
    const uint64_t needed = dmasim_xfer_pages_needed(&spec) * PAGE_SIZE;
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
            w.distribution == SizeDistribution::fixed ? w.segment_bytes : w.segment_bytes_max;
        // Packed segments start anywhere in a page.
        const uint64_t offset = w.buffers == Buffers::packed ? PAGE_SIZE - 1 : w.offset;
        const uint64_t per_list = w.entries * PAGE_ALIGN(offset + largest) + iommu.page_bytes;
        const uint64_t buffers = w.direction == Direction::mem_to_mem ? 2 : 1;
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

dmasim_xfer_spec make_xfer_spec(const WorkloadConfig& w, model::DescriptorFormat format,
                                unsigned descriptor_bytes) {
    dmasim_xfer_spec spec{};
    spec.dir = hw_direction(w.direction);
    spec.format = format == model::DescriptorFormat::linked_list ? DMA_HW_FMT_LINKED_LIST
                                                                 : DMA_HW_FMT_CHAINED_PAGES;
    spec.entries = static_cast<unsigned>(w.entries);
    spec.chain_depth = static_cast<unsigned>(w.chain_depth);
    spec.desc_bytes = descriptor_bytes;
    spec.seg.dist = hw_distribution(w.distribution);
    spec.seg.bytes = w.segment_bytes;
    spec.seg.min = w.segment_bytes_min;
    spec.seg.max = w.segment_bytes_max;
    spec.seg.sigma = w.lognormal_sigma;
    spec.seg.offset = static_cast<uint32_t>(w.offset);
    spec.seg.seed = w.seed;
    spec.seg.layout = w.buffers == Buffers::packed ? DMASIM_BUF_PACKED : DMASIM_BUF_PAGES;
    spec.irq_per_desc = w.irq_per_descriptor;
    return spec;
}

}  // namespace dmasim::tb
