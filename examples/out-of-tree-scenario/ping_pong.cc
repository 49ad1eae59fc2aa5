// ping_pong.cc - an out-of-tree scenario: the configured list goes to a
// second buffer and back, `rounds` times, each leg checked byte for byte.
#include <dmasim/tb/scenario.h>
#include <fmt/format.h>

DMASIM_SCENARIO_PARAM(ping_pong, rounds, true, 2, 1, 100, "round trips",
                      "Times the list goes out and comes back");

DMASIM_SCENARIO(ping_pong) {
    using namespace dmasim::tb;
    const auto rounds = static_cast<unsigned>(bench.param("rounds"));
    for (unsigned i = 0; i < rounds; ++i) {
        for (unsigned leg = 0; leg < 2; ++leg) {
            WorkloadConfig w = bench.config().workload;
            w.seed += 2 * i + leg;  // fresh data and placement every leg
            Transfer& t = bench.prepare(w);
            bench.run(t);
            bench.check(t);
            bench.expect(t.descs_done() > 0,
                         fmt::format("round {} leg {}: no descriptor done", i, leg));
            bench.release(t);
        }
    }
    bench.add_result("legs", 2.0 * rounds, "transfers", "Transfers the scenario ran");
}
