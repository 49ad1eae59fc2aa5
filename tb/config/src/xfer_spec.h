// xfer_spec.h - a workload in the driver's terms, validated.
#pragma once

#include <dmasim/tb/sim_config.h>
#include <dmasim/workload/workload.h>

#include <string>
#include <vector>

namespace dmasim::tb {

/// Page frames the driver will allocate for `w`'s buffers and descriptor
/// chunks (the list must be valid: tb::validate(w) is empty).
uint64_t list_pages(const WorkloadConfig& w, dma_hw_format format, const model::DmaParams& dma);

/// Why the list `spec` (built from `w`) does not fit in the simulated
/// memory free now (other lists may hold some), naming the sizes; empty if
/// it fits. Does not throw, so scenario threads can call it.
std::string fit_error(const WorkloadConfig& w, const dmasim_load_spec& spec,
                      uint64_t memory_size_mib);

/// The DMA device's I/O address space behind the IOMMU: from 1 GiB (2 MiB
/// with two levels, whose tables translate only 1 GiB) to the end of what
/// `levels` levels translate.
struct IovaWindow {
    uint64_t base, size;
};
IovaWindow iova_window(unsigned levels);

/// With iommu.enabled: why `lists` (mapped at once) cannot fit the I/O
/// address space, naming iommu.walk_levels; empty if they fit. An upper
/// bound: every segment takes whole IOVA pages from its in-page offset.
std::string iova_fit_error(const SimConfig& config, const std::vector<WorkloadConfig>& lists);
/// The keys iova_fit_error() weighs, for the rules that apply it.
const std::vector<std::string>& iova_fit_keys();

/// Converts a valid `w` (tb::validate(w) is empty) for the workload
/// library; the descriptor layout keys of `dma` size the chunks.
dmasim_load_spec make_load_spec(const WorkloadConfig& w, dma_hw_format format,
                                const model::DmaParams& dma = {});

}  // namespace dmasim::tb
