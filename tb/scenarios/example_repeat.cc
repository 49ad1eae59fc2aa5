// example_repeat.cc - the second worked example of docs/scenarios.md: a
// scenario with parameters of its own and results of its own. It runs the
// configured list `iterations` times, `gap_cycles` apart, checks every
// run, and reports the fastest and the slowest iteration.
#include <dmasim/tb/scenario.h>

#include <algorithm>
#include <systemc>

// Config keys scenario.example_repeat.iterations and .gap_cycles: typed,
// range-checked, listed by `dmasim config --explain`, settable and sweepable.
DMASIM_SCENARIO_PARAM(example_repeat, iterations, true, 4, 1, 1000, "transfers",
                      "Times the configured list runs, one after the other");
DMASIM_SCENARIO_PARAM(example_repeat, gap_cycles, true, 0, 0, 1000000, "cycles",
                      "Idle time from one interrupt to the next START");

DMASIM_SCENARIO(example_repeat) {
    using namespace dmasim::tb;
    const auto iterations = static_cast<unsigned>(bench.param("iterations"));
    const auto gap = static_cast<uint64_t>(bench.param("gap_cycles"));

    double fastest = 0, slowest = 0;
    for (unsigned i = 0; i < iterations; ++i) {
        WorkloadConfig w = bench.config().workload;
        w.seed += i;  // fresh data (and page placement) every iteration
        Transfer& t = bench.prepare(w);
        const sc_core::sc_time started = sc_core::sc_time_stamp();
        bench.run(t);
        const double ns = (sc_core::sc_time_stamp() - started).to_seconds() * 1e9;
        fastest = i == 0 ? ns : std::min(fastest, ns);
        slowest = std::max(slowest, ns);
        bench.check(t);
        bench.release(t);
        if (i + 1 < iterations) bench.delay_cycles(gap);
    }

    // Named figures for the summary, the report, results.csv and plots.
    bench.add_result("iteration_ns_min", fastest, "ns",
                     "Fastest iteration, from programming the channel to its interrupt");
    bench.add_result("iteration_ns_max", slowest, "ns",
                     "Slowest iteration, from programming the channel to its interrupt");
}
