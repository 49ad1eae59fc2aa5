// trace_e2e_test.cc - the Chrome trace and the VCD of real runs, read back
// the way Perfetto and a strict VCD reader would: the checker of
// perfetto_rules.h must find no event Perfetto would drop, and vcd2fst
// (Debian package gtkwave) must accept the VCD.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "e2e_support.h"
#include "perfetto_rules.h"

namespace dmasim::sim {
namespace {

using nlohmann::json;
using test::check_perfetto_rules;
using test::run_dmasim;
using test::TempDir;
using test::TraceCheck;

// ---- the checker itself: each rule catches what it should ------------------

std::string trace_of(const std::string& events) {
    return R"({"traceEvents":[{"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"t"}},)" +
           events + "]}";
}

TEST(PerfettoRules, NestedAndDisjointSlicesPass) {
    TraceCheck c = check_perfetto_rules(
        trace_of(R"({"name":"a","ph":"X","ts":1.000,"dur":10,"pid":1,"tid":1},)"
                 R"({"name":"b","ph":"X","ts":2.000,"dur":3,"pid":1,"tid":1},)"
                 R"({"name":"c","ph":"X","ts":11.000,"dur":1,"pid":1,"tid":1})"));
    EXPECT_TRUE(c.problems.empty()) << c.problems.front();
    EXPECT_EQ((c.per_thread[{"pid 1", "t"}]), 3u);
}

TEST(PerfettoRules, PartiallyOverlappingSliceIsReported) {
    TraceCheck c =
        check_perfetto_rules(trace_of(R"({"name":"a","ph":"X","ts":1,"dur":10,"pid":1,"tid":1},)"
                                      R"({"name":"b","ph":"X","ts":5,"dur":10,"pid":1,"tid":1})"));
    ASSERT_EQ(c.problems.size(), 1u);
    EXPECT_NE(c.problems[0].find("partially overlaps"), std::string::npos) << c.problems[0];
}

TEST(PerfettoRules, OverlapCreatedByRoundingToNanosecondsIsReported) {
    // [1.6, 3.2) ns and [3.4, 5.4) ns are disjoint, but the importer rounds
    // ts and dur separately to whole ns: [2, 4) and [3, 5) overlap.
    TraceCheck c = check_perfetto_rules(
        trace_of(R"({"name":"a","ph":"X","ts":0.0016,"dur":0.0016,"pid":1,"tid":1},)"
                 R"({"name":"b","ph":"X","ts":0.0034,"dur":0.002,"pid":1,"tid":1})"));
    EXPECT_EQ(c.problems.size(), 1u);
}

TEST(PerfettoRules, MissingTimestampNonNumericCounterAndStrayEndAreReported) {
    TraceCheck c =
        check_perfetto_rules(trace_of(R"({"name":"a","ph":"X","dur":1,"pid":1,"tid":1},)"
                                      R"({"name":"n","ph":"C","ts":1,"pid":1,"args":{"v":"high"}},)"
                                      R"({"name":"e","ph":"E","ts":1,"pid":1,"tid":1},)"
                                      R"({"name":"q","ph":"b","ts":1,"pid":1,"cat":"c","id":1},)"
                                      R"({"name":"r","ph":"e","ts":2,"pid":1,"cat":"c","id":2})"));
    // no ts, counter text, E without B, e without b, b never ended
    EXPECT_EQ(c.problems.size(), 5u);
}

TEST(PerfettoRules, FlowBindsToTheSliceAroundItAndTheNextOne) {
    TraceCheck c = check_perfetto_rules(
        trace_of(R"({"name":"a","ph":"X","ts":1,"dur":2,"pid":1,"tid":1},)"
                 R"({"name":"b","ph":"X","ts":4,"dur":2,"pid":1,"tid":1},)"
                 R"({"name":"irq","ph":"i","s":"t","ts":8,"pid":1,"tid":1},)"
                 R"({"name":"d","cat":"flow","ph":"s","id":1,"ts":2,"pid":1,"tid":1},)"
                 R"({"name":"d","cat":"flow","ph":"t","id":1,"ts":5,"pid":1,"tid":1},)"
                 R"({"name":"d","cat":"flow","ph":"f","id":1,"ts":7,"pid":1,"tid":1})"));
    EXPECT_TRUE(c.problems.empty()) << c.problems.front();
    ASSERT_EQ(c.flows.size(), 1u);
    EXPECT_EQ(c.flows[0].size(), 3u);
}

TEST(PerfettoRules, FlowOutsideAnySliceOrWithoutAnEndIsReported) {
    // id 1: its "f" with bp e sits between slices; id 2 never ends.
    TraceCheck c = check_perfetto_rules(
        trace_of(R"({"name":"a","ph":"X","ts":1,"dur":2,"pid":1,"tid":1},)"
                 R"({"name":"d","cat":"flow","ph":"s","id":1,"ts":2,"pid":1,"tid":1},)"
                 R"({"name":"d","cat":"flow","ph":"f","id":1,"ts":4,"pid":1,"tid":1,"bp":"e"},)"
                 R"({"name":"d","cat":"flow","ph":"s","id":2,"ts":2,"pid":1,"tid":1})"));
    EXPECT_EQ(c.problems.size(), 2u);
}

TEST(PerfettoRules, TextThatIsNotJsonIsReported) {
    EXPECT_FALSE(check_perfetto_rules(R"({"traceEvents":[{"ph":"X",)").problems.empty());
}

// ---- traces of real runs ----------------------------------------------------

struct TracedRun {
    TraceCheck check;
    json report;
};

TracedRun traced_run(const TempDir& dir, std::vector<std::string> sets) {
    std::vector<std::string> args = {
        "run", "--quiet", "--trace", dir.path() + "/t.json", "--report", dir.path() + "/r.json"};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    auto r = run_dmasim(dir, args);
    EXPECT_EQ(r.status, 0) << r.err;
    return {check_perfetto_rules(test::read_file(dir.path() + "/t.json")),
            json::parse(test::read_file(dir.path() + "/r.json"))};
}

/// Slices on every lane of one stage of a process ("read", "read 2", ...).
size_t slices_on(const TraceCheck& c, const std::string& process, const std::string& stage) {
    size_t n = 0;
    for (const auto& [track, count] : c.per_thread)
        if (track.first == process &&
            (track.second == stage || track.second.rfind(stage + " ", 0) == 0))
            n += count;
    return n;
}

double stat(const json& report, const std::string& group, const std::string& name) {
    return report["statistics"][group][name]["value"];
}

/// chained_pages decodes each chain slot too; linked_list has no chain slots.
void expect_whole_channel(const TracedRun& run, unsigned ch) {
    const bool chain_slots = run.report["config"]["dma.descriptor_format"] == "chained_pages";
    const std::string process = fmt::format("DMA channel {}", ch);
    const std::string group = fmt::format("dma.ch{}", ch);
    EXPECT_EQ(slices_on(run.check, process, "read"), stat(run.report, group, "read_bursts"));
    EXPECT_EQ(slices_on(run.check, process, "write"), stat(run.report, group, "write_bursts"));
    EXPECT_EQ(slices_on(run.check, process, "write-back"), stat(run.report, group, "descriptors"));
    EXPECT_EQ(slices_on(run.check, process, "decode"),
              stat(run.report, group, "descriptors") +
                  (chain_slots ? stat(run.report, group, "chain_links") : 0));
    EXPECT_GT(slices_on(run.check, process, "descriptor fetch"), 0u);
    EXPECT_GT(slices_on(run.check, process, "IRQ"), 0u);
}

void expect_no_drops(const TraceCheck& c) {
    EXPECT_TRUE(c.problems.empty())
        << c.problems.size() << " events dropped, first: " << c.problems.front();
    EXPECT_GT(c.by_phase.at("X"), 0u);
}

TEST(TraceE2E, DefaultRunLosesNoEventAndShowsEveryStage) {
    TempDir dir;
    TracedRun run = traced_run(dir, {});
    expect_no_drops(run.check);
    expect_whole_channel(run, 0);
    // RAM carries every fetch, read, write and write-back: at least the DMA's bursts.
    EXPECT_GE(slices_on(run.check, "RAM", "read channel"), stat(run.report, "bus.read", "bursts"));
    for (const char* counter :
         {"reads in flight", "writes in flight", "buffer held", "descriptor FIFO", "bytes moved"})
        EXPECT_GT(run.check.counters[counter], 0u) << counter;
}

// The requests scenario draws its ring's occupancy: at least one change per
// request (each is queued on arrival and leaves at its completion).
TEST(TraceE2E, RequestStreamDrawsItsQueueAsACounterTrack) {
    TempDir dir;
    TracedRun run = traced_run(dir, {"workload.scenario=requests", "workload.entries=1",
                                     "workload.chain_depth=1", "workload.arrival=poisson",
                                     "workload.interarrival_cycles=400", "workload.requests=200"});
    expect_no_drops(run.check);
    EXPECT_GE(run.check.counters["requests queued"], 200u);
}

// The account track's slices are shares of equal parts of the window:
// each slice's shares add up to 100, and weighted by the slices' lengths
// they give back the report's account, cause by cause.
TEST(TraceE2E, CycleAccountTrackAddsUpToTheReportsAccount) {
    TempDir dir;
    TracedRun run = traced_run(dir, {"workload.segment_bytes=256", "dma.data_overlap=false"});
    expect_no_drops(run.check);
    const json doc = json::parse(test::read_file(dir.path() + "/t.json"));
    std::vector<const json*> slices;
    for (const json& e : doc["traceEvents"])
        if (e["name"] == "cycle account %" && e["pid"] == 1) slices.push_back(&e);
    ASSERT_GT(slices.size(), 10u);
    const double cycles = run.report["result"]["cycles"];
    // 1000 MHz: one cycle per ns, ts in us.
    const double start = (*slices.front())["ts"].get<double>() * 1000;
    std::map<std::string, double> weighted;
    for (size_t i = 0; i < slices.size(); ++i) {
        const double from = (*slices[i])["ts"].get<double>() * 1000;
        const double to =
            i + 1 < slices.size() ? (*slices[i + 1])["ts"].get<double>() * 1000 : start + cycles;
        double sum = 0;
        for (const auto& [cause, share] : (*slices[i])["args"].items()) {
            sum += share.get<double>();
            weighted[cause] += share.get<double>() / 100 * (to - from);
        }
        EXPECT_NEAR(sum, 100, 0.01 * (*slices[i])["args"].size()) << slices[i]->dump();
    }
    ASSERT_GE(weighted.size(), 2u);
    for (const auto& [cause, estimate] : weighted)
        EXPECT_NEAR(estimate, stat(run.report, "account", cause), 1 + 1e-3 * cycles) << cause;
}

TEST(TraceE2E, TwoChannelsWithBackgroundTrafficLoseNoEvent) {
    TempDir dir;
    TracedRun run = traced_run(dir, {"dma.channels=2", "workload.scenario=multi_channel",
                                     "traffic.bytes_per_cycle=8", "workload.entries=64"});
    expect_no_drops(run.check);
    expect_whole_channel(run, 0);
    expect_whole_channel(run, 1);
    EXPECT_EQ(slices_on(run.check, "background master", "bursts"),
              stat(run.report, "traffic", "bursts"));
}

TEST(TraceE2E, LinkedListOf4096DescriptorsLosesNoEvent) {
    TempDir dir;
    TracedRun run = traced_run(dir, {"dma.descriptor_format=linked_list", "workload.entries=4096",
                                     "workload.segment_bytes=512"});
    expect_no_drops(run.check);
    EXPECT_EQ(run.report["result"]["descriptors"], 4096);
    expect_whole_channel(run, 0);
}

TEST(TraceE2E, WindowKeepsOnlyItsCycles) {
    TempDir dir;
    const std::string trace = dir.path() + "/t.json";
    auto r = run_dmasim(dir, {"run", "--quiet", "--trace", trace, "--trace-window", "10000:20000"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json doc = json::parse(test::read_file(trace));
    size_t timed = 0;
    for (const json& e : doc["traceEvents"]) {
        if (e["ph"] == "M") continue;
        ++timed;
        // 1000 MHz: cycle c is at c / 1000 us.
        EXPECT_GE(e["ts"].get<double>(), 10.0 - 1e-9) << e.dump();
        EXPECT_LE(e["ts"].get<double>() + e.value("dur", 0.0), 20.0 + 1e-9) << e.dump();
    }
    EXPECT_GT(timed, 0u);
    EXPECT_TRUE(check_perfetto_rules(test::read_file(trace)).problems.empty());
}

TEST(TraceE2E, SizeCapStopsTheTraceWithANote) {
    TempDir dir;
    const std::string trace = dir.path() + "/t.json";
    auto r = run_dmasim(dir, {"run", "--quiet", "--trace", trace, "--trace-max-mib", "1"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("size cap (1 MiB)"), std::string::npos) << r.err;
    EXPECT_LE(std::filesystem::file_size(trace), 1u << 20);
    EXPECT_TRUE(check_perfetto_rules(test::read_file(trace)).problems.empty());
}

TEST(TraceE2E, BadWindowIsAUsageError) {
    TempDir dir;
    for (const char* window : {"20:10", "abc", "5x:9", "7"}) {
        auto r = run_dmasim(
            dir, {"run", "--quiet", "--trace", dir.path() + "/t.json", "--trace-window", window});
        EXPECT_EQ(r.status, 2) << window;
        EXPECT_NE(r.err.find("--trace-window"), std::string::npos) << r.err;
    }
}

// ---- the VCD read back by gtkwave's vcd2fst ----------------------------------

TEST(VcdE2E, Vcd2FstAcceptsTheVcdWithEveryChannelSignal) {
    const std::string vcd2fst = "/usr/bin/vcd2fst";
    ASSERT_TRUE(std::filesystem::exists(vcd2fst))
        << "vcd2fst is missing: scripts/install-deps installs the Debian package gtkwave";
    TempDir dir;
    const std::string vcd = dir.path() + "/w.vcd";
    auto r = run_dmasim(dir, {"run", "--quiet", "--vcd", vcd, "--set", "dma.channels=2", "--set",
                              "workload.scenario=multi_channel", "--set", "workload.entries=32"});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string text = test::read_file(vcd);
    for (unsigned ch = 0; ch < 2; ++ch)
        for (const char* signal :
             {"busy", "irq", "reads_in_flight", "writes_in_flight", "buffer_bytes"})
            EXPECT_NE(text.find(fmt::format(" {}_ch{} ", signal, ch)), std::string::npos)
                << signal << ch;
    const std::string fst = dir.path() + "/w.fst";
    auto converted = test::run_program(dir, {vcd2fst, vcd, fst});
    EXPECT_EQ(converted.status, 0) << converted.out << converted.err;
    EXPECT_GT(std::filesystem::file_size(fst), 0u);
}

}  // namespace
}  // namespace dmasim::sim
