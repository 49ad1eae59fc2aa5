// account_e2e_test.cc - the cycle account through the real binary: its
// causes add up to the cycles exactly, per channel and for the run, in
// every format, direction, bus kind and with the IOMMU and contention;
// and known workloads are blamed on what is known to limit them.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

using nlohmann::json;
using test::run_dmasim;
using test::TempDir;

json run_report(const TempDir& dir, const std::vector<std::string>& sets) {
    const std::string report = dir.path() + "/r.json";
    std::vector<std::string> args = {"run", "--report", report, "--quiet"};
    for (const std::string& s : sets) args.insert(args.end(), {"--set", s});
    auto r = run_dmasim(dir, args);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.status == 0 ? json::parse(test::read_file(report)) : json{};
}

uint64_t group_sum(const json& report, const std::string& group) {
    uint64_t sum = 0;
    for (const auto& [name, counter] : report["statistics"][group].items())
        sum += counter["value"].get<uint64_t>();
    return sum;
}

double cause(const json& report, const std::string& group, const std::string& name) {
    return report["statistics"][group][name]["value"].get<double>();
}

/// The cause with the most cycles in `group`.
std::string leader(const json& report, const std::string& group) {
    std::string best;
    double most = -1;
    for (const auto& [name, counter] : report["statistics"][group].items())
        if (counter["value"].get<double>() > most) {
            most = counter["value"].get<double>();
            best = name;
        }
    return best;
}

TEST(SimAccountE2E, CausesAddUpToTheCyclesInEveryConfiguration) {
    TempDir dir;
    const std::vector<std::vector<std::string>> configs = {
        {},
        {"dma.descriptor_format=linked_list"},
        {"workload.direction=dev_to_mem"},
        {"workload.direction=mem_to_dev"},
        {"dma.data_overlap=false", "workload.segment_bytes=64"},
        {"iommu.enabled=true", "iommu.iotlb_entries=1", "iommu.iotlb_ways=1"},
        {"bus.kind=pcie"},
        {"dma.channels=4", "workload.scenario=multi_channel"},
        {"workload.scenario=contention"},
        {"memory.bandwidth_bytes_per_cycle=4"},
        {"dma.status_writeback=none", "dma.irq_latency_cycles=100"},
        {"dma.data_overlap=false", "dma.descriptor_launch_cycles=9",
         "dma.chain_link_on_demand=true", "dma.write_issue_latency_cycles=2",
         "workload.chain_depth=4", "workload.segment_bytes=64"},
    };
    for (const auto& sets : configs) {
        SCOPED_TRACE(fmt::format("{}", fmt::join(sets, " ")));
        const json report = run_report(dir, sets);
        if (report.is_null()) continue;
        EXPECT_EQ(group_sum(report, "account"), report["result"]["cycles"].get<uint64_t>());
        // A channel is accounted from each START to its stop: never more than the run.
        for (const auto& [group, counters] : report["statistics"].items()) {
            if (group.rfind("account.ch", 0) != 0) continue;
            EXPECT_LE(group_sum(report, group), report["result"]["cycles"].get<uint64_t>())
                << group;
        }
    }
}

TEST(SimAccountE2E, LongSegmentsOnAnIdleBusAreDataBound) {
    TempDir dir;
    const json report = run_report(dir, {"workload.segment_bytes=65536", "workload.entries=16"});
    EXPECT_EQ(leader(report, "account"), "data");
    // The ideal share is the bytes over the bus width, read and write
    // channels overlapping: at least bytes / width cycles of beats.
    const double bytes = report["result"]["bytes"].get<double>();
    EXPECT_GE(cause(report, "account", "data"), bytes / 16);
}

TEST(SimAccountE2E, SmallSegmentsWithoutOverlapAreBoundByEachDescriptorsRoundTrips) {
    TempDir dir;
    const json report = run_report(dir, {"workload.segment_bytes=64", "dma.data_overlap=false"});
    // Per descriptor, one after another: a 4-beat read behind the read
    // latency, a 4-beat write and its response, then the status write-back
    // before the next descriptor may start. Nothing hides the latencies.
    const double entries = report["result"]["descriptors"].get<double>();
    EXPECT_EQ(leader(report, "account"), "memory_latency");
    EXPECT_GE(cause(report, "account", "memory_latency"), entries * (50 + 20));
    EXPECT_GT(cause(report, "account", "writeback"), cause(report, "account", "data"));
    // With overlap the same list hides them behind the next descriptor's work.
    const json overlapped = run_report(dir, {"workload.segment_bytes=64"});
    EXPECT_LT(cause(overlapped, "account", "memory_latency"),
              cause(report, "account", "memory_latency") / 10);
}

TEST(SimAccountE2E, OneEntryIotlbIsWalkBound) {
    TempDir dir;
    const json report = run_report(dir, {"iommu.enabled=true", "iommu.iotlb_entries=1",
                                         "iommu.iotlb_ways=1", "workload.segment_bytes=256"});
    EXPECT_EQ(leader(report, "account"), "iommu");
}

TEST(SimAccountE2E, ContendingChannelsShowTheSharedBus) {
    TempDir dir;
    const json report = run_report(dir, {"dma.channels=4", "workload.scenario=multi_channel"});
    // Each channel gets about a quarter of the bus: most of its own time it
    // waits for the others' beats.
    for (unsigned ch = 0; ch < 4; ++ch)
        EXPECT_EQ(leader(report, fmt::format("account.ch{}", ch)), "bandwidth") << ch;
    EXPECT_EQ(leader(report, "account"), "data");
}

TEST(SimAccountE2E, ManySmallSegmentsOnABusyBusAreNotBlamedOnDescriptors) {
    // Issue 25's run: 65,536 x 256 B keeps the bus 98% busy.
    TempDir dir;
    const json report = run_report(dir, {"workload.entries=65536", "workload.segment_bytes=256"});
    EXPECT_EQ(leader(report, "account"), "data");
    EXPECT_LT(cause(report, "account", "descriptor_fetch"),
              0.05 * report["result"]["cycles"].get<double>());
}

// The known-bottleneck bank (issue 38): runs built so that one mechanism
// limits them; the account's leader names it.

TEST(SimAccountE2E, ADescriptorARoundTripIsDescriptorSupplyNotMemoryLatency) {
    // Issue 38's run, shortened: each 64 B segment's read overlaps the
    // fetch of the next descriptor, one round trip each. The old account
    // gave 90 % to memory_latency; raising max_outstanding_reads changes
    // nothing, raising descriptor_prefetch gives six times the throughput.
    TempDir dir;
    const json report = run_report(dir, {"workload.entries=2048", "workload.segment_bytes=64",
                                         "workload.chain_depth=64", "dma.descriptor_prefetch=1"});
    EXPECT_EQ(leader(report, "account"), "descriptor_fetch");
    EXPECT_GT(cause(report, "account", "descriptor_fetch"),
              0.5 * report["result"]["cycles"].get<double>());
    EXPECT_LT(cause(report, "account", "memory_latency"),
              0.1 * report["result"]["cycles"].get<double>());
}

TEST(SimAccountE2E, OneReadInFlightAtLongLatencyIsTheOutstandingLimit) {
    TempDir dir;
    const json report =
        run_report(dir, {"workload.entries=4", "workload.segment_bytes=65536",
                         "dma.max_outstanding_reads=1", "memory.read_latency_cycles=200"});
    EXPECT_EQ(leader(report, "account"), "outstanding_limit");
}

TEST(SimAccountE2E, ABufferOfTwoBurstsAtLongLatencyIsBufferSpace) {
    TempDir dir;
    const json report = run_report(dir, {"workload.entries=4", "workload.segment_bytes=65536",
                                         "dma.buffer_bytes=512", "memory.read_latency_cycles=200"});
    EXPECT_EQ(leader(report, "account"), "buffer_space");
}

TEST(SimAccountE2E, ACostlyChainLinkOnShortPagesIsChainLink) {
    TempDir dir;
    const json report = run_report(
        dir, {"workload.entries=1024", "workload.segment_bytes=64", "workload.chain_depth=512",
              "dma.chain_link_cycles=400", "memory.read_latency_cycles=10"});
    EXPECT_EQ(leader(report, "account"), "chain_link");
}

TEST(SimAccountE2E, AnExpensiveHandlerPerRequestIsTheCpu) {
    // Back-to-back 256 B requests, one interrupt each, 20,000 cycles of
    // handler: the channels wait for the CPU, not the other way round.
    TempDir dir;
    const json report =
        run_report(dir, {"workload.scenario=requests", "workload.requests=40", "workload.entries=1",
                         "workload.chain_depth=1", "workload.segment_bytes=256",
                         "workload.interarrival_cycles=1", "cpu.irq_handler_cycles=20000",
                         "dma.irq_coalesce_count=1"});
    EXPECT_EQ(leader(report, "account"), "cpu");
}

/// Splits one CSV line without quoted fields (results.csv of numbers).
std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out(1);
    for (char c : line) {
        if (c == ',')
            out.emplace_back();
        else
            out.back() += c;
    }
    return out;
}

TEST(SimAccountE2E, EveryCauseIsASweepColumnAndPlotsAsAStack) {
    TempDir dir;
    const std::string out = dir.path() + "/out";
    const std::string sweep = dir.write(
        "s.yaml", "set:\n  workload.entries: 32\nsweep:\n  workload.segment_bytes: [64, 4096]\n");
    auto r = run_dmasim(dir, {"sweep", sweep, "-j", "2", "--out", out, "--no-plot"});
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream csv(test::read_file(out + "/results.csv"));
    std::string line;
    std::getline(csv, line);
    const std::vector<std::string> header = fields(line);
    auto column = [&header](const std::string& name) {
        return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    };
    ASSERT_LT(column("cycles"), header.size());
    for (const char* name : {"data", "bandwidth", "descriptor_fetch", "writeback", "idle"})
        EXPECT_LT(column(fmt::format("account.{}", name)), header.size()) << name;
    size_t rows = 0;
    while (std::getline(csv, line)) {
        const std::vector<std::string> row = fields(line);
        uint64_t sum = 0;
        for (size_t i = 0; i < header.size(); ++i)
            if (header[i].rfind("account.", 0) == 0 && header[i].find(".ch") == std::string::npos)
                sum += std::stoull(row[i]);
        EXPECT_EQ(sum, std::stoull(row[column("cycles")])) << line;
        ++rows;
    }
    EXPECT_EQ(rows, 2u);
    const std::string svg = dir.path() + "/stack.svg";
    auto plot = run_dmasim(dir, {"plot", out + "/results.csv", "--x", "workload.segment_bytes",
                                 "--stack", "account", "-o", svg});
    ASSERT_EQ(plot.status, 0) << plot.err;
    const std::string text = test::read_file(svg);
    for (const char* part :
         {"Share of cycles (%)", "Cycles by cause (account)", "descriptor_fetch"})
        EXPECT_NE(text.find(part), std::string::npos) << part;
    auto missing = run_dmasim(dir, {"plot", out + "/results.csv", "--stack", "nothing", "-o", svg});
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("no column 'nothing.*'"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace dmasim::sim
