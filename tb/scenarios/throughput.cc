// throughput.cc - the default scenario: one transfer of the configured
// list on channel 0, measured from START to its interrupt and checked.
#include <dmasim/tb/scenario.h>

DMASIM_SCENARIO(throughput) {
    dmasim::tb::Transfer& t = bench.prepare(bench.config().workload, 0);
    bench.run(t);
    bench.check(t);
}
