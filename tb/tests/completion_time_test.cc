// completion_time_test.cc - the CPU's handling of a completion ends no
// earlier than the reads that found it. A ring's reap finds requests by
// the status words its register reads let it see, some done only while
// the handler ran; with slow register reads and a free handler
// (cpu.irq_handler_cycles 0), the measured window must still reach the
// cycle the scenario saw the last request complete (it once closed so
// early that the window carried more than the bus can, and the run
// failed its own invariants). The scenario below exists only in this test
// program; each case runs in a process of its own.
#include <dmasim/tb/scenario.h>
#include <gtest/gtest.h>

#include <vector>

#include "support.h"

using namespace dmasim::tb;

namespace {
constexpr unsigned kRequests = 4;
}

// kRequests requests submitted back to back into the engine's ring, then
// waited oldest first; reports the cycle the measured window opened (the
// first TAIL write done) and the cycle the last wait returned.
DMASIM_SCENARIO_TRAITS(completion_time_ring, kKeepsRing);
DMASIM_SCENARIO(completion_time_ring) {
    const WorkloadConfig& w = bench.config().workload;
    bench.open_ring(static_cast<unsigned>(kRequests * w.entries), w.direction);
    std::vector<Transfer*> requests;
    for (unsigned i = 0; i < kRequests; ++i) requests.push_back(&bench.prepare(w));
    uint64_t opened = 0;
    for (Transfer* t : requests) {
        bench.expect(bench.submit(*t), "the ring has a slot for every request");
        if (t == requests.front()) opened = bench.now_cycles();
    }
    uint64_t last_seen = 0;
    for (Transfer* t : requests) {
        bench.wait(*t);
        last_seen = bench.now_cycles();
        bench.check(*t);
    }
    bench.add_result("opened_cycle", double(opened), "cycles", "the first TAIL write done");
    bench.add_result("last_seen_cycle", double(last_seen), "cycles", "the last wait() returned");
    for (Transfer* t : requests) bench.release(*t);
    bench.close_ring();
}

namespace dmasim::tb {
namespace {

double result(const RunResult& r, const std::string& name) {
    for (const ScenarioResult& s : r.scenario_results)
        if (s.name == name) return s.value;
    ADD_FAILURE() << "no scenario result " << name;
    return 0;
}

TEST(CompletionTime, ARingRequestIsNotBilledDoneBeforeTheReadsThatFoundIt) {
    SimConfig c = test::small_config();
    c.workload.scenario = "completion_time_ring";
    c.workload.entries = 1;
    c.workload.segment_bytes = 4096;
    c.workload.offset = 0;
    c.workload.chain_depth = 1;
    c.platform.dma.submission = model::Submission::tail_pointer;
    // Each register read takes 200 cycles, the handler bills none: the
    // reap's reads end long after the interrupt that began them.
    c.platform.bus.mmio_latency_cycles = 200;
    c.cpu.irq_handler_cycles = 0;
    c.cpu.per_descriptor_cycles = 0;
    const RunResult r = run_simulation(c);
    ASSERT_TRUE(r.integrity) << r.failure;
    ASSERT_EQ(r.bytes, kRequests * 4096u);
    // The window runs from the first TAIL write to the last completion the
    // CPU handled; the scenario saw that completion when its wait returned,
    // after the handler's reads, so the window cannot end before then.
    const double opened = result(r, "opened_cycle");
    const double last_seen = result(r, "last_seen_cycle");
    EXPECT_GE(opened + double(r.cycles), last_seen)
        << "the window closed " << last_seen - opened - double(r.cycles)
        << " cycles before the scenario saw the last request complete";
}

}  // namespace
}  // namespace dmasim::tb
