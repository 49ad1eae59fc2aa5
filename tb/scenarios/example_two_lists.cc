// example_two_lists.cc - the worked example of docs/scenarios.md: two
// differently shaped lists, on two channels at once when there are two,
// each checked byte for byte and by its descriptor count.
#include <dmasim/tb/scenario.h>
#include <fmt/format.h>

#include <algorithm>

// List B: half the entries of A (at least one), twice the segment size,
// one chunk.
static dmasim::tb::WorkloadConfig list_b(const dmasim::tb::WorkloadConfig& a) {
    dmasim::tb::WorkloadConfig b = a;
    b.entries = std::max<uint64_t>(a.entries / 2, 1);
    b.segment_bytes = 2 * a.segment_bytes;
    b.chain_depth = 1;
    b.seed = a.seed + 1;
    return b;
}

// Both lists are prepared before either runs: the host-memory estimate
// counts both.
DMASIM_SCENARIO_FOOTPRINT(example_two_lists) { return {config.workload, list_b(config.workload)}; }

DMASIM_SCENARIO(example_two_lists) {
    using namespace dmasim::tb;

    // List A is the configured workload.
    const WorkloadConfig a = bench.config().workload;
    const WorkloadConfig b = list_b(a);

    // With two channels both lists run at once; with one, one after the other.
    const bool together = bench.channels() > 1;
    Transfer& first = bench.prepare(a, 0);
    Transfer& second = bench.prepare(b, together ? 1 : 0);
    if (together) {
        bench.start(first);
        bench.start(second);
        bench.wait(first);
        bench.wait(second);
    } else {
        bench.run(first);
        bench.run(second);
    }

    for (const Transfer* t : {&first, &second}) {
        bench.check(*t);  // every destination byte, and nothing around it
        // One descriptor per entry, unless an IOMMU merged entries (check()
        // compares with the merged count).
        if (!bench.config().platform.iommu.enabled)
            bench.expect(t->descs_done() == t->workload().entries,
                         fmt::format("channel {}: {} descriptors done, expected {}", t->channel(),
                                     t->descs_done(), t->workload().entries));
    }
}
