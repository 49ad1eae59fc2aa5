// support.h - configurations shared by the testbench tests.
#pragma once

#include <dmasim/tb/run.h>
#include <dmasim/tb/scenario.h>

#include <string>

namespace dmasim::tb::test {

/// A small, quick run: 37 entries of 1001 bytes at in-page offset 13, three
/// descriptor chunks, 64 MiB of scattered memory.
SimConfig small_config();

/// What a run in a child process reports back.
struct ChildRun {
    bool ran = false;  ///< the child ran the simulation and reported
    bool integrity = false;
    uint64_t bytes = 0;
    unsigned held = 0, classes = 0;  ///< scenario results NAME.held equal to 1, of all
    std::string failure;
};

/// Runs `c` in a child process (SystemC elaborates once per process, so
/// one test case can run many configurations).
ChildRun run_in_child(const SimConfig& c);

/// The registered scenario `name` (a test failure if there is none).
const ScenarioInfo& scenario(const char* name);

/// Sum of the segment lengths the driver draws for `w`.
uint64_t list_bytes(const WorkloadConfig& w);

}  // namespace dmasim::tb::test
