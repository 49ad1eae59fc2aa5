// multi_channel.cc - the configured list on every channel at once; each
// channel gets its own buffers (seed + channel) and all start together,
// so the measured window spans the slowest channel.
#include <dmasim/tb/scenario.h>

#include <vector>

DMASIM_SCENARIO_FOOTPRINT(multi_channel) {
    return std::vector(config.platform.dma.channels, config.workload);
}

DMASIM_SCENARIO(multi_channel) {
    std::vector<dmasim::tb::Transfer*> transfers;
    for (unsigned ch = 0; ch < bench.channels(); ++ch) {
        dmasim::tb::WorkloadConfig w = bench.config().workload;
        w.seed += ch;
        transfers.push_back(&bench.prepare(w, ch));
    }
    for (dmasim::tb::Transfer* t : transfers) bench.start(*t);
    for (dmasim::tb::Transfer* t : transfers) bench.wait(*t);
    for (dmasim::tb::Transfer* t : transfers) bench.check(*t);
}
