// streaming.cc - a device stream in both directions: the configured list
// filled from the device (dev_to_mem), then a list drained to the device
// (mem_to_dev), one after the other at device.rate_bytes_per_cycle.
#include <dmasim/tb/scenario.h>

namespace {

using dmasim::tb::WorkloadConfig;

WorkloadConfig in_list(WorkloadConfig w) {
    w.direction = DMA_HW_DEV_TO_MEM;
    return w;
}

WorkloadConfig out_list(WorkloadConfig w) {
    w.direction = DMA_HW_MEM_TO_DEV;
    w.seed += 1;
    return w;
}

}  // namespace

// Both lists stay prepared until the scenario returns.
DMASIM_SCENARIO_FOOTPRINT(streaming) {
    return {in_list(config.workload), out_list(config.workload)};
}

DMASIM_SCENARIO(streaming) {
    dmasim::tb::Transfer& in = bench.prepare(in_list(bench.config().workload), 0);
    bench.run(in);
    bench.check(in);

    dmasim::tb::Transfer& out = bench.prepare(out_list(bench.config().workload), 0);
    bench.run(out);
    bench.check(out);
}
