// bare_sg_loop.h - the yardstick of bench/speed_ratios: a bare SystemC
// TLM-2.0 loosely-timed scatter/gather copy with no model behind it.
#pragma once

#include <cstdint>

namespace dmasim::bench {

/// Elaborates and runs the loop in this process (once: SystemC elaborates
/// once per process) for ENTRIES segments of SEGMENT_BYTES; returns the
/// descriptors it walked.
uint64_t run_bare_sg_loop(uint64_t entries, uint32_t segment_bytes);

}  // namespace dmasim::bench
