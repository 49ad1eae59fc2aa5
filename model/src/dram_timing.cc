// dram_timing.cc - DRAM times in clocks, and the longest run between refreshes.
#include "dram_timing.h"

#include <algorithm>
#include <cmath>

namespace dmasim::model {

uint64_t dram_clocks(double ns, unsigned data_rate_mts) {
    // The guard keeps an exact multiple (13.75 ns at 0.625 ns) from
    // rounding up on a last bit.
    const double tck_ns = 2000.0 / data_rate_mts;
    return ns <= 0 ? 0 : static_cast<uint64_t>(std::ceil(ns / tck_ns - 0.01));
}

// A run crossing a refresh is taken again after it, from a closed row: it
// can only ever fit if tRCD, its first data's latency, a column command
// every max(tCCD_L, tBURST) and its last burst end within tREFI - tRFC.
uint64_t dram_longest_run(const MemoryParams& params, bool write) {
    const uint64_t refi = dram_clocks(params.t_refi_ns, params.data_rate_mts);
    if (refi == 0) return UINT64_MAX;
    const uint64_t rfc = dram_clocks(params.t_rfc_ns, params.data_rate_mts);
    const uint64_t window = refi > rfc ? refi - rfc : 0;
    const uint64_t burst = params.burst_length / 2u;
    const uint64_t one = dram_clocks(params.t_rcd_ns, params.data_rate_mts) +
                         (write ? params.t_cwl_clocks : params.t_cl_clocks) + burst;
    if (one >= window) return 0;
    const uint64_t step = std::max<uint64_t>({params.t_ccd_l_clocks, burst, 1});
    return 1 + (window - 1 - one) / step;
}

}  // namespace dmasim::model
