// polling_e2e_test.cc - completions learnt by polling (workload.completion:
// polling) through the real binary: request streams with START and with
// the engine's ring keep their data intact without a single interrupt, a
// request is seen at the first poll after it completes, the CPU is billed
// per poll, and asking for interrupts while polling is refused.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "request_stream.h"

namespace dmasim::sim {
namespace {

using json = nlohmann::json;
using test::run_dmasim;
using test::scenario_value;
using test::TempDir;

/// The report of a polled request stream with `sets` on top, or null.
json polled_run(const TempDir& dir, std::vector<std::string> sets) {
    sets.push_back("workload.completion=polling");
    return test::request_stream_report(dir, sets);
}

class Polling : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

// Poisson arrivals, payload checked: every request completes with its
// data intact (the run exits 0), and the driver never took an interrupt.
TEST_P(Polling, EveryRequestCompletesWithoutAnInterrupt) {
    TempDir dir;
    const auto [submission, direction] = GetParam();
    const json r =
        polled_run(dir, {"dma.submission=" + submission, "workload.direction=" + direction,
                         "workload.arrival=poisson", "workload.interarrival_cycles=600",
                         "workload.requests=100", "workload.ring_entries=8",
                         "workload.poll_interval_cycles=300"});
    ASSERT_FALSE(r.is_null());
    EXPECT_EQ(r["result"]["integrity"], "pass");
    EXPECT_EQ(scenario_value(r, "requests_completed"), 100);
    EXPECT_EQ(r["result"]["interrupts"], 0);
    EXPECT_EQ(r["statistics"]["dma.ch0"]["irqs_raised"]["value"], 0);
    // At least one poll per request; polls only while work is in flight,
    // so no more than the stream's cycles allow.
    const auto polls = r["result"]["polls"].get<uint64_t>();
    EXPECT_GE(polls, 100u);
    EXPECT_LE(polls, r["result"]["cycles"].get<uint64_t>() / 300 + 1);
}

INSTANTIATE_TEST_SUITE_P(
    SubmissionsAndDirections, Polling,
    ::testing::Combine(::testing::Values(std::string("start"), std::string("tail_pointer")),
                       ::testing::Values(std::string("mem_to_mem"), std::string("dev_to_mem"))),
    [](const auto& info) { return std::get<0>(info.param) + "_" + std::get<1>(info.param); });

// Requests far apart, each done well inside one interval: each is seen at
// the first poll, one interval after its submission, whatever the engine
// took, so a longer interval adds exactly its difference to every latency
// and the interval sets the polls.
TEST(SimPollingE2E, ARequestIsSeenAtTheFirstPollAfterItCompletes) {
    TempDir dir;
    auto run = [&](const char* interval) {
        return polled_run(dir, {"dma.submission=tail_pointer", "workload.arrival=periodic",
                                "workload.interarrival_cycles=10000", "workload.requests=20",
                                std::string("workload.poll_interval_cycles=") + interval});
    };
    const json every_1000 = run("1000"), every_2000 = run("2000");
    ASSERT_FALSE(every_1000.is_null());
    ASSERT_FALSE(every_2000.is_null());
    for (const char* q : {"latency_p50_cycles", "latency_p99_cycles", "latency_mean_cycles"})
        EXPECT_EQ(scenario_value(every_2000, q) - scenario_value(every_1000, q), 1000) << q;
    EXPECT_EQ(every_1000["result"]["polls"], 20);
    EXPECT_EQ(every_2000["result"]["polls"], 20);
    EXPECT_GE(scenario_value(every_1000, "latency_p50_cycles"), 1000);
}

// Each poll costs cpu.poll_cycles whether it finds work done or not, and
// each reaped descriptor cpu.per_descriptor_cycles on top.
TEST(SimPollingE2E, TheCpuIsBilledPerPollAndPerDescriptor) {
    TempDir dir;
    const json r = polled_run(
        dir, {"dma.submission=tail_pointer", "workload.arrival=closed", "workload.in_flight=4",
              "workload.requests=50", "workload.poll_interval_cycles=200", "cpu.poll_cycles=30",
              "cpu.per_descriptor_cycles=7", "cpu.irq_handler_cycles=999"});
    ASSERT_FALSE(r.is_null());
    const json& result = r["result"];
    const auto polls = result["polls"].get<uint64_t>();
    EXPECT_GT(polls, 50u / 4);
    EXPECT_EQ(result["cpu_busy_cycles"].get<uint64_t>(),
              polls * 30 + result["descriptors"].get<uint64_t>() * 7);
}

// Single lists too: the throughput scenario's list is seen by a poll.
TEST(SimPollingE2E, AListStartedAloneIsSeenByAPoll) {
    TempDir dir;
    const std::string report = test::report_of_run(
        dir, {"--set", "workload.completion=polling", "--set", "workload.entries=64"});
    ASSERT_FALSE(report.empty());
    const json r = json::parse(report);
    EXPECT_EQ(r["result"]["integrity"], "pass");
    EXPECT_EQ(r["result"]["interrupts"], 0);
    EXPECT_GE(r["result"]["polls"].get<uint64_t>(), 1u);
}

TEST(SimPollingE2E, InterruptsPerDescriptorWhilePollingAreRefused) {
    TempDir dir;
    const auto r = run_dmasim(dir, {"run", "--set", "workload.completion=polling", "--set",
                                    "workload.irq_per_descriptor=true"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("workload.irq_per_descriptor = true"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("workload.completion = polling"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace dmasim::sim
