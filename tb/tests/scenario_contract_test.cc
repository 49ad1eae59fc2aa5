// scenario_contract_test.cc - what the testbench promises a scenario of any
// name, shipped or out of tree: the traits it declares (not its name)
// decide which configs it may run, its declared parameters are checked
// when it registers, and what its body does wrong (throws anything, adds a
// result no report can hold, opens a ring it did not declare) ends the run
// with a dmasim error naming it. The scenarios below exist only in this
// test program; each case runs in a process of its own.
#include <dmasim/tb/scenario.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>

#include "support.h"

using namespace dmasim::tb;

// A ring-keeping scenario named like no shipped one: one request through
// the engine's ring, checked byte for byte.
DMASIM_SCENARIO_TRAITS(contract_ring, kKeepsRing);
DMASIM_SCENARIO(contract_ring) {
    const WorkloadConfig& w = bench.config().workload;
    bench.open_ring(static_cast<unsigned>(2 * w.entries), w.direction);
    Transfer& t = bench.prepare(w);
    bench.expect(bench.submit(t), "the ring has a slot for every descriptor");
    bench.wait(t);
    bench.check(t);
    bench.release(t);
    bench.close_ring();
}

// The same body, with no trait declared.
DMASIM_SCENARIO(contract_undeclared_ring) {
    const WorkloadConfig& w = bench.config().workload;
    bench.open_ring(static_cast<unsigned>(2 * w.entries), w.direction);
}

DMASIM_SCENARIO(contract_throws_int) {
    (void)bench;
    throw 42;
}

DMASIM_SCENARIO(contract_nan_result) {
    bench.add_result("ratio", std::numeric_limits<double>::quiet_NaN(), "", "0 / 0");
}

DMASIM_SCENARIO(contract_twice_result) {
    bench.add_result("count", 1, "", "first");
    bench.add_result("count", 2, "", "second");
}

// Two checks whose messages are built on failure: one holds, one fails.
DMASIM_SCENARIO(contract_described_checks) {
    int built = 0;
    const bool held = bench.expect(true, [&] {
        ++built;
        return std::string("a check that held");
    });
    const bool failed = !bench.expect(false, [&] {
        ++built;
        return fmt::format("check number {} failed", 2);
    });
    bench.add_result("messages_built", built, "", "messages the checks built");
    bench.add_result("returns_as_asked", held && failed, "", "each check returned its condition");
}

namespace dmasim::tb {
namespace {

using test::scenario;

bool names(const std::vector<std::string>& keys, const std::string& key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

SimConfig config_for(const char* name) {
    SimConfig c = test::small_config();
    c.workload.scenario = name;
    c.workload.chain_depth = 1;
    return c;
}

/// The message run_simulation() throws for `c`, as exception type E.
template <typename E>
std::string error_of(const SimConfig& c) {
    try {
        run_simulation(c);
    } catch (const E& e) {
        return e.what();
    }
    ADD_FAILURE() << "run_simulation did not throw the expected exception type";
    return {};
}

/// A request trace file holding `lines`, removed when it goes.
class TraceFile {
public:
    explicit TraceFile(const std::string& lines)
        : path_(fmt::format("{}/contract-{}.trace", ::testing::TempDir(), getpid())) {
        std::ofstream(path_) << lines;
    }
    ~TraceFile() { std::remove(path_.c_str()); }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

bool has_result(const RunResult& r, const std::string& name) {
    return std::any_of(r.scenario_results.begin(), r.scenario_results.end(),
                       [&](const ScenarioResult& s) { return s.name == name; });
}

SimConfig replay(const TraceFile& trace) {
    SimConfig c = config_for("requests");
    c.workload.arrival = Arrival::trace;
    c.workload.trace = trace.path();
    return c;
}

// --- Row 5: rings are a trait, not a name ---------------------------------

TEST(ScenarioContract, AScenarioDeclaringKeepsRingRunsOnTheEnginesRing) {
    SimConfig c = config_for("contract_ring");
    c.platform.dma.submission = model::Submission::tail_pointer;
    EXPECT_FALSE(scenario_refusal(scenario("contract_ring"), c));
    const RunResult r = run_simulation(c);
    EXPECT_TRUE(r.integrity) << r.failure;
    EXPECT_EQ(r.bytes, test::list_bytes(c.workload));
}

TEST(ScenarioContract, TailPointerIsRefusedForAScenarioThatKeepsNoRingNamingBoth) {
    SimConfig c = config_for("throughput");
    c.platform.dma.submission = model::Submission::tail_pointer;
    const auto refusal = scenario_refusal(scenario("throughput"), c);
    ASSERT_TRUE(refusal);
    EXPECT_TRUE(names(refusal->keys, "dma.submission"));
    EXPECT_TRUE(names(refusal->keys, "workload.scenario"));
    EXPECT_TRUE(contains(refusal->why, "scenario throughput")) << refusal->why;
    EXPECT_TRUE(contains(refusal->why, "kKeepsRing")) << refusal->why;
    // An embedder calling run_simulation() is refused the same way.
    EXPECT_TRUE(contains(error_of<ConfigError>(c), "kKeepsRing"));
}

TEST(ScenarioContract, OpenRingWithoutTheTraitStopsTheRunNamingScenarioAndTrait) {
    const std::string why = error_of<std::runtime_error>(config_for("contract_undeclared_ring"));
    EXPECT_TRUE(contains(why, "scenario contract_undeclared_ring")) << why;
    EXPECT_TRUE(contains(why, "kKeepsRing")) << why;
}

TEST(ScenarioContract, OpenRingUnderStartIsAConfigErrorNamingTheSubmissionKey) {
    const std::string why = error_of<ConfigError>(config_for("contract_ring"));
    EXPECT_TRUE(contains(why, "scenario contract_ring")) << why;
    EXPECT_TRUE(contains(why, "dma.submission = tail_pointer")) << why;
}

// --- Row 6: declared parameters are checked when they register -----------

std::vector<std::string> errors_of(const ScenarioParam& p) {
    ScenarioRegistry registry;
    registry.add_param(p);
    return registry.errors();
}

TEST(ScenarioContract, AParamWhoseDefaultLiesOutsideItsRangeIsARegistrationError) {
    const auto errors = errors_of({"s", "p", true, 0, 1, 10, "", "a parameter"});
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_TRUE(contains(errors[0], "scenario s: parameter scenario.s.p")) << errors[0];
    EXPECT_TRUE(contains(errors[0], "default of 0 outside its range 1 .. 10")) << errors[0];
}

TEST(ScenarioContract, AParamWithAnEmptyRangeIsARegistrationError) {
    const auto errors = errors_of({"s", "p", true, 5, 10, 1, "", "a parameter"});
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_TRUE(contains(errors[0], "scenario.s.p")) << errors[0];
    EXPECT_TRUE(contains(errors[0], "empty range 10 .. 1")) << errors[0];
}

TEST(ScenarioContract, ParamRowsKeepEveryInvariantOfAConfigKey) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // A whole number with a fraction, below zero, or beyond what a double
    // holds exactly; any number that is NaN; a key with no description.
    for (const ScenarioParam& p :
         std::vector<ScenarioParam>{{"s", "p", true, 1.5, 0, 10, "", "a parameter"},
                                    {"s", "p", true, 0, -1, 10, "", "a parameter"},
                                    {"s", "p", true, 0, 0, 1e300, "", "a parameter"},
                                    {"s", "p", false, nan, 0, 1, "", "a parameter"},
                                    {"s", "p", false, 0, 0, 1, "", ""}}) {
        const auto errors = errors_of(p);
        EXPECT_EQ(errors.size(), 1u) << p.default_value << " in " << p.min << " .. " << p.max;
    }
    EXPECT_TRUE(errors_of({"s", "p", false, 0.5, 0, 1, "fraction", "a parameter"}).empty());
}

TEST(ScenarioContract, ABadlyDeclaredParamRefusesEveryRun) {
    ScenarioRegistry::instance().add_param({"s", "p", true, 0, 1, 10, "", "a parameter"});
    const std::string why = error_of<ConfigError>(config_for("throughput"));
    EXPECT_TRUE(contains(why, "scenario.s.p")) << why;
}

// --- Row 13: the offered load of a single instant -------------------------

TEST(ScenarioContract, ATraceArrivingAtOneInstantReportsNoOfferedLoadAndNoWarning) {
    const TraceFile trace("0 mem_to_mem 4096\n");
    ::testing::internal::CaptureStderr();
    const RunResult r = run_simulation(replay(trace));
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_TRUE(r.integrity) << r.failure;
    EXPECT_TRUE(has_result(r, "requests_completed"));
    EXPECT_FALSE(has_result(r, "offered_bytes_per_cycle"));
    EXPECT_FALSE(contains(err, "can only fill")) << err;
}

TEST(ScenarioContract, ATraceSpanningTimeReportsItsOfferedLoad) {
    const TraceFile trace("0 mem_to_mem 4096\n100000 mem_to_mem 4096\n");
    const RunResult r = run_simulation(replay(trace));
    EXPECT_TRUE(r.integrity) << r.failure;
    EXPECT_TRUE(has_result(r, "offered_bytes_per_cycle"));
}

// --- Extras: what a scenario body does wrong ------------------------------

TEST(ScenarioContract, AnythingThrownFromAScenarioIsAnErrorNamingIt) {
    const std::string why = error_of<std::runtime_error>(config_for("contract_throws_int"));
    EXPECT_TRUE(contains(why, "scenario contract_throws_int threw")) << why;
}

TEST(ScenarioContract, ANonFiniteResultStopsTheRunNamingResultAndScenario) {
    const std::string why = error_of<std::runtime_error>(config_for("contract_nan_result"));
    EXPECT_TRUE(contains(why, "scenario contract_nan_result")) << why;
    EXPECT_TRUE(contains(why, "result ratio = nan is not a finite number")) << why;
}

TEST(ScenarioContract, AResultAddedTwiceStopsTheRunNamingIt) {
    const std::string why = error_of<std::runtime_error>(config_for("contract_twice_result"));
    EXPECT_TRUE(contains(why, "scenario contract_twice_result: result count is added twice"))
        << why;
}

TEST(ScenarioContract, ACheckBuildsItsMessageOnlyWhenItFails) {
    const RunResult r = run_simulation(config_for("contract_described_checks"));
    EXPECT_FALSE(r.integrity);
    EXPECT_EQ(r.failure, "check number 2 failed");
    auto value_of = [&](const std::string& name) {
        for (const ScenarioResult& s : r.scenario_results)
            if (s.name == name) return s.value;
        ADD_FAILURE() << "no result " << name;
        return -1.0;
    };
    EXPECT_EQ(value_of("messages_built"), 1);
    EXPECT_EQ(value_of("returns_as_asked"), 1);
}

// --- Traces are a trait too ----------------------------------------------

TEST(ScenarioContract, ATraceForAScenarioThatReplaysNoneIsRefusedNamingKeyAndScenario) {
    const TraceFile trace("0 mem_to_mem 4096\n");
    SimConfig c = replay(trace);
    c.workload.scenario = "throughput";
    const auto refusal = scenario_refusal(scenario("throughput"), c);
    ASSERT_TRUE(refusal);
    EXPECT_TRUE(names(refusal->keys, "workload.trace"));
    EXPECT_TRUE(contains(refusal->why, "workload.trace = " + trace.path())) << refusal->why;
    EXPECT_TRUE(contains(refusal->why, "scenario throughput")) << refusal->why;
    // arrival: trace alone is refused too, naming its key.
    c.workload.trace.clear();
    const auto arrival = scenario_refusal(scenario("throughput"), c);
    ASSERT_TRUE(arrival);
    EXPECT_TRUE(names(arrival->keys, "workload.arrival"));
}

TEST(ScenarioContract, AReplayingScenarioNeedsTraceAndArrivalTogether) {
    const TraceFile trace("0 mem_to_mem 4096\n");
    SimConfig c = replay(trace);
    EXPECT_FALSE(scenario_refusal(scenario("requests"), c));
    c.workload.arrival = Arrival::poisson;
    const auto refusal = scenario_refusal(scenario("requests"), c);
    ASSERT_TRUE(refusal);
    EXPECT_TRUE(contains(refusal->why, "replayed only with workload.arrival: trace"))
        << refusal->why;
}

}  // namespace
}  // namespace dmasim::tb
