// support.cc - see support.h.
#include "support.h"

#include "../src/xfer_spec.h"

namespace dmasim::tb::test {

SimConfig small_config() {
    SimConfig c;
    c.memory_size_mib = 64;
    c.placement = Placement::scattered;
    c.workload.entries = 37;
    c.workload.segment_bytes = 1001;
    c.workload.offset = 13;
    c.workload.chain_depth = 3;
    c.workload.seed = 7;
    return c;
}

uint64_t list_bytes(const WorkloadConfig& w) {
    dmasim_xfer_spec spec = make_xfer_spec(w, DMA_HW_FMT_CHAINED_PAGES);
    dmasim_seg_rng rng;
    dmasim_seg_rng_init(&rng, &spec.seg);
    uint64_t bytes = 0;
    for (uint64_t i = 0; i < w.entries; ++i) bytes += dmasim_seg_next_len(&rng, &spec.seg);
    return bytes;
}

}  // namespace dmasim::tb::test

// libsystemc references sc_main even though gtest's main() runs the tests.
extern "C" int sc_main(int, char*[]) { return 0; }
