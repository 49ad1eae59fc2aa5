// contention.cc - the throughput scenario while the background traffic
// master competes for memory. If the config leaves the master off
// (traffic.bytes_per_cycle = 0), it asks for half a bus beat per cycle:
// bus.width_bytes / 2 bytes per cycle (docs/scenarios.md).
#include <dmasim/tb/scenario.h>

DMASIM_SCENARIO_SETUP(contention) {
    auto& traffic = config.platform.traffic;
    if (traffic.bytes_per_cycle <= 0)
        traffic.bytes_per_cycle = config.platform.bus.width_bytes / 2.0;
}

DMASIM_SCENARIO(contention) {
    dmasim::tb::Transfer& t = bench.prepare(bench.config().workload, 0);
    bench.run(t);
    bench.check(t);
}
