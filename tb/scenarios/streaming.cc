// streaming.cc - a device stream in both directions: the configured list
// filled from the device (dev_to_mem), then a list drained to the device
// (mem_to_dev), one after the other at device.rate_bytes_per_cycle.
#include <dmasim/tb/scenario.h>

DMASIM_SCENARIO(streaming) {
    using dmasim::tb::Direction;
    dmasim::tb::WorkloadConfig w = bench.config().workload;

    w.direction = Direction::dev_to_mem;
    dmasim::tb::Transfer& in = bench.prepare(w, 0);
    bench.run(in);
    bench.check(in);

    w.direction = Direction::mem_to_dev;
    w.seed += 1;
    dmasim::tb::Transfer& out = bench.prepare(w, 0);
    bench.run(out);
    bench.check(out);
}
