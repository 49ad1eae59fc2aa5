// requests_e2e_test.cc - the requests scenario (a stream of requests
// through a submission ring) through the real binary: Poisson arrivals of
// equal requests follow M/D/1, a closed stream queues exactly its
// requests in flight, a full ring waits or drops and says so, and an
// ftrace capture imported with `dmasim trace import` replays end to end.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

using json = nlohmann::json;
using test::run_dmasim;
using test::TempDir;

/// Scenario results of a requests run of one 4 KiB descriptor per request,
/// timing only, with `sets` on top.
json stream(const TempDir& dir, const std::vector<std::string>& sets) {
    std::vector<std::string> args = {
        "--set", "workload.scenario=requests", "--set", "workload.entries=1",
        "--set", "workload.chain_depth=1",     "--set", "workload.segment_bytes=4096",
        "--set", "workload.payload=none"};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    const std::string report = test::report_of_run(dir, args);
    return report.empty() ? json{} : json::parse(report)["result"]["scenario_results"];
}

double value(const json& results, const char* name) { return results[name]["value"].get<double>(); }

/// The service time S: a request alone, arrival to the driver seeing its
/// completion (requests far apart never queue, so every latency is S).
double service_cycles(const TempDir& dir) {
    const json r = stream(dir, {"workload.arrival=periodic", "workload.interarrival_cycles=100000",
                                "workload.requests=5"});
    EXPECT_EQ(value(r, "latency_p50_cycles"), value(r, "latency_p999_cycles"));
    return value(r, "latency_mean_cycles");
}

// Poisson arrivals at rate 1/X of requests that each take the same S
// cycles on one channel: an M/D/1 queue, whose mean wait is
// Pollaczek-Khinchine's Wq = rho S / (2 (1 - rho)), rho = S / X. dmasim's
// Wq (mean latency - S) over 20,000 requests is held within 10 %: the
// sample mean of a queue's wait converges slowly near saturation (its
// relaxation time grows as 1 / (1 - rho)^2), and 20,000 requests keep the
// seed's luck to a few percent at both loads (docs/scenarios.md gives the
// figures).
TEST(SimRequestsE2E, PoissonStreamOfEqualRequestsWaitsAsMD1Predicts) {
    TempDir dir;
    const double S = service_cycles(dir);
    for (const double rho : {0.5, 0.8}) {
        const auto X = static_cast<uint64_t>(S / rho + 0.5);
        const double load = S / static_cast<double>(X);
        const json r = stream(
            dir, {"workload.arrival=poisson", "workload.interarrival_cycles=" + std::to_string(X),
                  "workload.requests=20000", "workload.ring_entries=1000000"});
        const double wq = value(r, "latency_mean_cycles") - S;
        const double pk = load * S / (2 * (1 - load));
        EXPECT_NEAR(wq, pk, 0.10 * pk) << "rho " << load;
        EXPECT_NEAR(value(r, "engine_busy_share"), load, 0.02) << "rho " << load;
        EXPECT_EQ(value(r, "requests_completed"), 20000);
    }
}

// A closed stream of k requests in flight keeps the ring at k: once it
// settles every request waits for the k - 1 ahead of it, so its latency
// is exactly k S, and the engine never idles between requests.
TEST(SimRequestsE2E, ClosedStreamQueuesExactlyItsRequestsInFlight) {
    TempDir dir;
    const double S = service_cycles(dir);
    const json r =
        stream(dir, {"workload.arrival=closed", "workload.in_flight=4", "workload.requests=200"});
    EXPECT_EQ(value(r, "latency_p50_cycles"), 4 * S);
    EXPECT_EQ(value(r, "latency_p999_cycles"), 4 * S);
    EXPECT_DOUBLE_EQ(value(r, "engine_busy_share"), 1.0);
}

// Requests arriving every S / 2 cycles into a ring of 4: the ring fills.
// Dropping, every request either completes or is dropped; waiting, none is
// dropped and those that found the ring full are counted.
TEST(SimRequestsE2E, FullRingDropsOrWaitsAndCountsEachRequest) {
    TempDir dir;
    const double S = service_cycles(dir);
    const std::string every = "workload.interarrival_cycles=" + std::to_string(uint64_t(S / 2));
    const std::vector<std::string> fast = {"workload.arrival=periodic", every,
                                           "workload.requests=100", "workload.ring_entries=4"};
    auto with = [&](const char* policy) {
        std::vector<std::string> sets = fast;
        sets.push_back(policy);
        return stream(dir, sets);
    };
    const json drop = with("workload.ring_full=drop");
    EXPECT_GT(value(drop, "requests_dropped"), 0);
    EXPECT_EQ(value(drop, "requests_completed") + value(drop, "requests_dropped"), 100);
    EXPECT_EQ(value(drop, "requests_waited"), 0);
    const json wait = with("workload.ring_full=wait");
    EXPECT_EQ(value(wait, "requests_dropped"), 0);
    EXPECT_EQ(value(wait, "requests_completed"), 100);
    EXPECT_GT(value(wait, "requests_waited"), 0);
    // Waiting requests queue behind the ring, so they wait longer.
    EXPECT_GT(value(wait, "latency_p99_cycles"), value(drop, "latency_p99_cycles"));
}

// Arrivals that offer more bytes per cycle than the bus carries can only
// fill the ring: the run says so with both figures, and still runs.
TEST(SimRequestsE2E, OfferedLoadAboveTheBusPeakIsWarnedWithBothFigures) {
    TempDir dir;
    const auto r = run_dmasim(dir, {"run",   "--quiet",
                                    "--set", "workload.scenario=requests",
                                    "--set", "workload.entries=1",
                                    "--set", "workload.chain_depth=1",
                                    "--set", "workload.segment_bytes=4096",
                                    "--set", "workload.payload=none",
                                    "--set", "workload.arrival=periodic",
                                    "--set", "workload.interarrival_cycles=128",
                                    "--set", "workload.requests=20",
                                    "--set", "workload.ring_full=drop"});
    EXPECT_EQ(r.status, 0) << r.err;
    // 4096 B every 128 cycles = 32 B/cycle on the default 16-byte bus.
    EXPECT_NE(r.err.find("offer 32 B/cycle, more than the engine's peak of 16 B/cycle"),
              std::string::npos)
        << r.err;
}

// The shipped ftrace sample, imported for one device and replayed with
// checked payload: every request completes, the bytes moved are the sum
// of the trace's entry lengths, and the data arrive intact (exit 0).
TEST(SimRequestsE2E, ImportedFtraceReplaysEveryEntryOfEveryRequest) {
    TempDir dir;
    const std::string trace = dir.path() + "/nvme.trace";
    const auto imported =
        run_dmasim(dir, {"trace", "import",
                         std::string(DMASIM_SOURCE_DIR) + "/configs/traces/nvme-and-nic.ftrace",
                         "-o", trace, "--device", "0000:01:00.0"});
    ASSERT_EQ(imported.status, 0) << imported.err;
    EXPECT_NE(imported.err.find("111 requests (1119 entries)"), std::string::npos) << imported.err;
    uint64_t requests = 0, bytes = 0;
    std::istringstream lines(test::read_file(trace));
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] == '#') continue;
        ++requests;
        std::istringstream fields(line);
        std::string at, dir_field, entry;
        fields >> at >> dir_field;
        while (fields >> entry) bytes += std::stoull(entry.substr(0, entry.find('@')));
    }
    const std::string report = dir.path() + "/r.json";
    const auto r =
        run_dmasim(dir, {"run", "--quiet", "--report", report, "--set",
                         "workload.scenario=requests", "--set", "workload.arrival=trace", "--set",
                         "workload.trace=" + trace, "--set", "workload.chain_depth=4"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json result = json::parse(test::read_file(report))["result"];
    EXPECT_EQ(value(result["scenario_results"], "requests_completed"), requests);
    EXPECT_EQ(result["bytes"].get<uint64_t>(), bytes);
    EXPECT_EQ(result["integrity"].get<std::string>(), "pass");
}

// A trace line that is not a request stops the run before it starts,
// naming the file, line and field; so does a trace arrival without a trace.
TEST(SimRequestsE2E, BadTraceLineIsAnErrorNamingFileLineAndField) {
    TempDir dir;
    const std::string trace =
        dir.write("bad.trace", "# two requests\n0 mem_to_dev 4096\n10 dev_to_mem 512 4096@5000\n");
    const auto r =
        run_dmasim(dir, {"run", "--quiet", "--set", "workload.scenario=requests", "--set",
                         "workload.arrival=trace", "--set", "workload.trace=" + trace});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(trace + ":3: field 4 ('4096@5000'): an entry's in-page OFFSET must be "
                                 "at most 4095"),
              std::string::npos)
        << r.err;
    const auto unset = run_dmasim(dir, {"run", "--quiet", "--set", "workload.scenario=requests",
                                        "--set", "workload.arrival=trace"});
    EXPECT_EQ(unset.status, 2);
    EXPECT_NE(unset.err.find("workload.trace, which is not set"), std::string::npos) << unset.err;
}

}  // namespace
}  // namespace dmasim::sim
