// measure.h - the result keys of design section 7, from the measured
// window and the model's statistics.
#pragma once

#include <dmasim/model/platform.h>
#include <dmasim/tb/run.h>

#include <cstdint>
#include <systemc>

namespace dmasim::tb {

/// What the testbench observed of the measured transfers.
struct Window {
    sc_core::sc_time first_start;      ///< first START write completed
    sc_core::sc_time last_completion;  ///< last completion interrupt rose
    uint64_t bytes = 0;                ///< payload the channels reported done
};

/// Fills the throughput, count and utilisation keys of `result`.
void measure(const Window& window, const model::Platform& platform, RunResult& result);

}  // namespace dmasim::tb
