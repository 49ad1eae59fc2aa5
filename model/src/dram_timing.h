// dram_timing.h - DRAM times in whole clocks, and how long a run of one
// row's bursts may be: what both the controller and the parameter rules
// need, without the controller.
#pragma once

#include <dmasim/model/params.h>

#include <cstdint>

namespace dmasim::model {

/// A time in whole DRAM clocks at `data_rate_mts` (rounded up, as JEDEC does).
uint64_t dram_clocks(double ns, unsigned data_rate_mts);

/// The most bursts of one row a run may hold and still fit between two
/// refreshes (UINT64_MAX without refresh; 0 when not even one burst fits,
/// which validate() refuses).
uint64_t dram_longest_run(const MemoryParams& params, bool write);

}  // namespace dmasim::model
