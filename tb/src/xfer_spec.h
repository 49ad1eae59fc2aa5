// xfer_spec.h - a workload in the driver's terms, validated.
#pragma once

#include <dmasim/driver/dmasim_dma.h>
#include <dmasim/tb/run.h>

#include <string>

namespace dmasim::tb {

/// Page frames the driver will allocate for `w`'s buffers and descriptor
/// chunks (the list must be valid: tb::validate(w) is empty).
uint64_t list_pages(const WorkloadConfig& w, dma_hw_format format, unsigned descriptor_bytes);

/// Why the list `spec` (built from `w`) does not fit in the simulated
/// memory free now (other lists may hold some), naming the sizes; empty if
/// it fits. Does not throw, so scenario threads can call it.
std::string fit_error(const WorkloadConfig& w, const dmasim_xfer_spec& spec,
                      uint64_t memory_size_mib);

/// Converts a valid `w` (tb::validate(w) is empty) for the driver;
/// `descriptor_bytes` is dma.descriptor_bytes (it sizes the chunks).
dmasim_xfer_spec make_xfer_spec(const WorkloadConfig& w, dma_hw_format format,
                                unsigned descriptor_bytes = DMA_HW_DESC_SIZE);

}  // namespace dmasim::tb
