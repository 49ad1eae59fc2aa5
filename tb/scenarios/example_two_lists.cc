// example_two_lists.cc - the worked example of docs/scenarios.md: two
// differently shaped lists, on two channels at once when there are two,
// each checked byte for byte and by its descriptor count.
#include <fmt/format.h>

#include <dmasim/tb/scenario.h>

DMASIM_SCENARIO(example_two_lists)
{
    using dmasim::tb::Transfer;
    using dmasim::tb::WorkloadConfig;

    // List A is the configured workload.
    const WorkloadConfig a = bench.config().workload;
    // List B: half the entries (at least one), twice the segment size, one chunk.
    WorkloadConfig b = a;
    b.entries = a.entries / 2 > 0 ? a.entries / 2 : 1;
    b.segment_bytes = 2 * a.segment_bytes;
    b.chain_depth = 1;
    b.seed = a.seed + 1;

    const unsigned second = bench.channels() > 1 ? 1 : 0;
    Transfer& ta = bench.prepare(a, 0);
    Transfer& tb = bench.prepare(b, second);

    bench.start(ta);
    if (second == 0)
        bench.wait(ta);  // one channel: run them one after the other
    bench.start(tb);
    if (second != 0)
        bench.wait(ta);
    bench.wait(tb);

    for (const Transfer* t : {&ta, &tb}) {
        bench.check(*t);
        bench.expect(t->descs_done() == t->workload().entries,
                     fmt::format("channel {}: {} descriptors done, expected {}", t->channel(),
                                 t->descs_done(), t->workload().entries));
    }
}
