// example_two_lists.cc - the worked example of docs/scenarios.md: two
// differently shaped lists, on two channels at once when there are two,
// each checked byte for byte and by its descriptor count.
#include <dmasim/tb/scenario.h>
#include <fmt/format.h>

#include <algorithm>

DMASIM_SCENARIO(example_two_lists) {
    using namespace dmasim::tb;

    // List A is the configured workload.
    const WorkloadConfig a = bench.config().workload;
    // List B: half the entries (at least one), twice the segment size, one chunk.
    WorkloadConfig b = a;
    b.entries = std::max<uint64_t>(a.entries / 2, 1);
    b.segment_bytes = 2 * a.segment_bytes;
    b.chain_depth = 1;
    b.seed = a.seed + 1;

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
        bench.expect(t->descs_done() == t->workload().entries,
                     fmt::format("channel {}: {} descriptors done, expected {}", t->channel(),
                                 t->descs_done(), t->workload().entries));
    }
}
