// host_threads.h - the host's cores for the testbench's own bulk work
// (filling and checking buffers), which is plain memory traffic outside
// the simulation and splits across cores.
#pragma once

#include <cstddef>
#include <functional>

namespace dmasim::tb {

/// Cores this process may run on (its CPU affinity), at least 1.
unsigned host_cores();

/// Calls work(0) ... work(parts - 1), each part on a thread of its own
/// except part 0, which runs on the caller; returns when all are done.
/// The parts must not call into SystemC.
void run_in_parallel(size_t parts, const std::function<void(size_t part)>& work);

}  // namespace dmasim::tb
