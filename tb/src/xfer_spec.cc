// xfer_spec.cc - see xfer_spec.h.
#include "xfer_spec.h"

#include <fmt/format.h>

namespace dmasim::tb {

uint64_t list_pages(const WorkloadConfig& w, dma_hw_format format, unsigned descriptor_bytes) {
    const dmasim_xfer_spec spec = make_xfer_spec(w, format, descriptor_bytes);
    return dmasim_xfer_pages_needed(&spec);
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

dmasim_xfer_spec make_xfer_spec(const WorkloadConfig& w, dma_hw_format format,
                                unsigned descriptor_bytes) {
    dmasim_xfer_spec spec{};
    spec.dir = w.direction;
    spec.format = format;
    spec.entries = static_cast<unsigned>(w.entries);
    spec.chain_depth = static_cast<unsigned>(w.chain_depth);
    spec.desc_bytes = descriptor_bytes;
    spec.seg.dist = w.distribution;
    spec.seg.bytes = w.segment_bytes;
    spec.seg.min = w.segment_bytes_min;
    spec.seg.max = w.segment_bytes_max;
    spec.seg.sigma = w.lognormal_sigma;
    spec.seg.offset = static_cast<uint32_t>(w.offset);
    spec.seg.seed = w.seed;
    spec.seg.layout = w.buffers;
    spec.irq_per_desc = w.irq_per_descriptor;
    return spec;
}

}  // namespace dmasim::tb
