// request.h - one request of a request stream: a scatterlist that arrives
// at a cycle and is handed to the driver then (docs/requests.md).
//
// The arrival processes (closed, periodic, poisson) draw these; a
// workload trace file (workload.trace) is read into them.
#pragma once

#include <dmasim/hw/dma_hw.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace dmasim::tb {

/// One scatterlist entry of a request.
struct RequestEntry {
    uint64_t bytes = 0;
    /// where the entry's buffer starts, when a trace gave it; else the
    /// driver allocates it (at page_offset within its first page)
    std::optional<uint64_t> address;
    uint32_t page_offset = 0;
};

struct Request {
    uint64_t arrival_cycle = 0;  ///< cycle the request reaches the driver
    dma_hw_direction direction = DMA_HW_MEM_TO_MEM;
    std::vector<RequestEntry> entries;
};

}  // namespace dmasim::tb
