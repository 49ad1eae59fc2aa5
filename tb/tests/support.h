// support.h - configurations shared by the testbench tests.
#pragma once

#include <dmasim/tb/run.h>

namespace dmasim::tb::test {

/// A small, quick run: 37 entries of 1001 bytes at in-page offset 13, three
/// descriptor chunks, 64 MiB of scattered memory.
SimConfig small_config();

/// Sum of the segment lengths the driver draws for `w`.
uint64_t list_bytes(const WorkloadConfig& w);

}  // namespace dmasim::tb::test
