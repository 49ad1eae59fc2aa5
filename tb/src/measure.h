// measure.h - the result keys of design section 7, from the measured
// window and the model's statistics.
#pragma once

#include <dmasim/model/platform.h>
#include <dmasim/tb/run.h>

#include <cstdint>
#include <optional>
#include <systemc>

namespace dmasim::tb {

/// What the testbench observed of the measured transfers.
struct Window {
    sc_core::sc_time first_start;      ///< first START write completed
    sc_core::sc_time last_completion;  ///< last completion interrupt rose
    uint64_t bytes = 0;                ///< payload the channels reported done
};

/// Fills the time, throughput, count and utilisation keys of `result` if
/// anything was measured, and its statistics (model counters plus each
/// channel's phases as shares of the measured cycles) in any case.
void measure(const std::optional<Window>& window, const model::Platform& platform,
             RunResult& result);

}  // namespace dmasim::tb
