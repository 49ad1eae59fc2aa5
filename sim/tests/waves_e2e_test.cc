// waves_e2e_test.cc - the AXI handshake VCD (--vcd-axi) and the trace's
// descriptor flows (--trace-flows) of real runs: the VCD read back signal by
// signal and by gtkwave's vcd2fst, its handshakes counted against the
// model's statistics and timed against the memory's latency; the flows
// bound to slices as Perfetto binds them (perfetto_rules.h).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "e2e_support.h"
#include "perfetto_rules.h"

namespace dmasim::sim {
namespace {

using nlohmann::json;
using test::run_dmasim;
using test::TempDir;

// ---- a VCD reader: enough of IEEE 1364 §18 for what dmasim writes ----------

struct Wave {
    uint64_t period_ps = 0;
    /// "ch0.arvalid" -> (time in ps, value), in time order, from #0.
    std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> signals;
    uint64_t end_ps = 0;

    /// The value of `name` during cycle c.
    uint64_t at(const std::string& name, uint64_t c) const {
        uint64_t v = 0;
        for (const auto& [t, value] : signals.at(name)) {
            if (t > c * period_ps) break;
            v = value;
        }
        return v;
    }
    /// Cycles at which all of `names` are high (a handshake when they are a
    /// valid and its ready).
    std::vector<uint64_t> cycles_high(const std::vector<std::string>& names) const {
        std::vector<uint64_t> times;
        for (const std::string& n : names)
            for (const auto& change : signals.at(n)) times.push_back(change.first);
        std::sort(times.begin(), times.end());
        times.erase(std::unique(times.begin(), times.end()), times.end());
        std::vector<uint64_t> cycles;
        for (size_t i = 0; i < times.size(); ++i) {
            const uint64_t from = times[i] / period_ps;
            const uint64_t to = i + 1 < times.size() ? times[i + 1] / period_ps : from + 1;
            bool all = true;
            for (const std::string& n : names) all = all && at(n, from);
            if (all)
                for (uint64_t c = from; c < to; ++c) cycles.push_back(c);
        }
        return cycles;
    }
};

uint64_t value_of(const std::string& text) {
    if (text[0] != 'b') return text[0] == '1';
    return std::stoull(text.substr(1), nullptr, 2);
}

Wave read_vcd(const std::string& text) {
    Wave w;
    std::istringstream in(text);
    std::map<std::string, std::string> names;  // id -> scoped name
    std::vector<std::string> scopes;
    uint64_t now = 0;
    std::string tok;
    while (in >> tok) {
        if (tok == "$scope") {
            std::string kind, name;
            in >> kind >> name;
            scopes.push_back(name);
        } else if (tok == "$upscope") {
            scopes.pop_back();
        } else if (tok == "$var") {
            std::string kind, width, id, name;
            in >> kind >> width >> id >> name;
            names[id] = scopes.back() + "." + name;
        } else if (tok == "$comment") {
            std::string word;
            in >> word >> word >> word >> w.period_ps;
        } else if (tok[0] == '#') {
            now = std::stoull(tok.substr(1));
            w.end_ps = now;
        } else if (tok[0] == 'b') {
            std::string id;
            in >> id;
            w.signals[names.at(id)].push_back({now, value_of(tok)});
        } else if ((tok[0] == '0' || tok[0] == '1') && names.count(tok.substr(1))) {
            w.signals[names.at(tok.substr(1))].push_back({now, value_of(tok)});
        }
        if (tok[0] == '$' && tok != "$end" && tok != "$dumpvars")
            while (tok != "$end" && in >> tok) {
            }
    }
    return w;
}

double stat(const json& report, const std::string& group, const std::string& name) {
    return report["statistics"][group][name]["value"];
}

struct AxiRun {
    Wave wave;
    json report;
    std::string vcd_path;
};

AxiRun axi_run(const TempDir& dir, const std::vector<std::string>& sets) {
    AxiRun run;
    run.vcd_path = dir.path() + "/axi.vcd";
    std::vector<std::string> args = {"run",        "--quiet",  "--vcd-axi",
                                     run.vcd_path, "--report", dir.path() + "/r.json"};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    const auto r = run_dmasim(dir, args);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("shown late"), std::string::npos) << r.err;
    run.wave = read_vcd(test::read_file(run.vcd_path));
    run.report = json::parse(test::read_file(dir.path() + "/r.json"));
    return run;
}

// ---- the AXI VCD -------------------------------------------------------------

TEST(AxiVcdE2E, HandshakesCountTheModelsBursts) {
    TempDir dir;
    const AxiRun run = axi_run(dir, {"workload.entries=64", "workload.chain_depth=4"});
    const Wave& w = run.wave;
    ASSERT_GT(w.period_ps, 0u);
    // One channel and nothing else on the bus: every burst the memory
    // books is this port's.
    const double reads = stat(run.report, "bus.read", "bursts");
    const double writes = stat(run.report, "bus.write", "bursts");
    ASSERT_GT(reads, stat(run.report, "dma.ch0", "read_bursts"));  // fetches too
    EXPECT_EQ(w.cycles_high({"ch0.arvalid", "ch0.arready"}).size(), reads);
    EXPECT_EQ(w.cycles_high({"ch0.rvalid", "ch0.rready", "ch0.rlast"}).size(), reads);
    EXPECT_EQ(w.cycles_high({"ch0.awvalid", "ch0.awready"}).size(), writes);
    EXPECT_EQ(w.cycles_high({"ch0.wvalid", "ch0.wready", "ch0.wlast"}).size(), writes);
    EXPECT_EQ(w.cycles_high({"ch0.bvalid", "ch0.bready"}).size(), writes);
    // R beats are the read channel's busy cycles, W beats the write channel's.
    EXPECT_EQ(w.cycles_high({"ch0.rvalid"}).size(), stat(run.report, "bus.read", "busy_cycles"));
    EXPECT_EQ(w.cycles_high({"ch0.wvalid"}).size(), stat(run.report, "bus.write", "busy_cycles"));
    // A ready is never high without its valid.
    EXPECT_EQ(w.cycles_high({"ch0.arready"}), w.cycles_high({"ch0.arvalid", "ch0.arready"}));
    EXPECT_EQ(w.cycles_high({"ch0.awready"}), w.cycles_high({"ch0.awvalid", "ch0.awready"}));
}

// The first descriptor fetch meets an idle memory: accepted the cycle it is
// asked for, first beat L cycles later, last beat len cycles after that.
TEST(AxiVcdE2E, FirstReadFollowsTheMemoryLatency) {
    for (const unsigned latency : {20u, 50u}) {
        TempDir dir;
        const AxiRun run = axi_run(
            dir, {"workload.entries=8", fmt::format("memory.read_latency_cycles={}", latency)});
        const Wave& w = run.wave;
        const std::vector<uint64_t> ar = w.cycles_high({"ch0.arvalid", "ch0.arready"});
        const std::vector<uint64_t> offered = w.cycles_high({"ch0.arvalid"});
        const std::vector<uint64_t> r = w.cycles_high({"ch0.rvalid"});
        const std::vector<uint64_t> last = w.cycles_high({"ch0.rvalid", "ch0.rlast"});
        ASSERT_FALSE(ar.empty());
        EXPECT_EQ(offered.front(), ar.front()) << "an idle memory takes the address at once";
        EXPECT_EQ(r.front(), ar.front() + latency) << latency;
        EXPECT_EQ(last.front(), r.front() + w.at("ch0.arlen", ar.front())) << latency;
    }
}

TEST(AxiVcdE2E, WritesRespondAfterTheWriteLatency) {
    TempDir dir;
    const AxiRun run = axi_run(dir, {"workload.entries=8", "memory.write_latency_cycles=17"});
    const Wave& w = run.wave;
    const std::vector<uint64_t> last = w.cycles_high({"ch0.wvalid", "ch0.wlast"});
    const std::vector<uint64_t> b = w.cycles_high({"ch0.bvalid"});
    ASSERT_EQ(last.size(), b.size());
    for (size_t i = 0; i < b.size(); ++i) EXPECT_EQ(b[i], last[i] + 1 + 17) << i;
}

TEST(AxiVcdE2E, Vcd2FstAcceptsItWithEveryPortOfEveryChannel) {
    const std::string vcd2fst = "/usr/bin/vcd2fst";
    ASSERT_TRUE(std::filesystem::exists(vcd2fst))
        << "vcd2fst is missing: scripts/install-deps installs the Debian package gtkwave";
    TempDir dir;
    const AxiRun run =
        axi_run(dir, {"dma.channels=2", "workload.scenario=multi_channel", "workload.entries=32"});
    size_t reads = 0, writes = 0;
    for (unsigned ch = 0; ch < 2; ++ch) {
        reads +=
            run.wave.cycles_high({fmt::format("ch{}.arvalid", ch), fmt::format("ch{}.arready", ch)})
                .size();
        writes += run.wave.cycles_high({fmt::format("ch{}.bvalid", ch)}).size();
        for (const char* s :
             {"arvalid", "arready", "araddr", "arlen", "rvalid", "rready", "rlast", "awvalid",
              "awready", "awaddr", "awlen", "wvalid", "wready", "wlast", "bvalid", "bready"})
            EXPECT_TRUE(run.wave.signals.count(fmt::format("ch{}.{}", ch, s))) << ch << s;
        EXPECT_GT(run.wave.cycles_high({fmt::format("ch{}.bvalid", ch)}).size(), 0u) << ch;
    }
    // Each burst the memory books is one channel's: the ports add up to it.
    EXPECT_EQ(reads, stat(run.report, "bus.read", "bursts"));
    EXPECT_EQ(writes, stat(run.report, "bus.write", "bursts"));
    const std::string fst = dir.path() + "/axi.fst";
    auto converted = test::run_program(dir, {vcd2fst, run.vcd_path, fst});
    EXPECT_EQ(converted.status, 0) << converted.out << converted.err;
    EXPECT_GT(std::filesystem::file_size(fst), 0u);
}

TEST(AxiVcdE2E, PcieBusIsRefusedNamingTheOption) {
    TempDir dir;
    auto r = run_dmasim(
        dir, {"run", "--quiet", "--vcd-axi", dir.path() + "/a.vcd", "--set", "bus.kind=pcie"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--vcd-axi"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() + "/a.vcd"));
}

// ---- descriptor flows in the Chrome trace ------------------------------------

TEST(TraceFlowsE2E, EachDescriptorFlowsFromItsFetchToItsInterrupt) {
    TempDir dir;
    const std::string trace = dir.path() + "/t.json";
    auto r = run_dmasim(dir, {"run", "--quiet", "--trace", trace, "--trace-flows", "--report",
                              dir.path() + "/r.json", "--set", "workload.entries=32", "--set",
                              "workload.chain_depth=2"});
    ASSERT_EQ(r.status, 0) << r.err;
    const test::TraceCheck c = test::check_perfetto_rules(test::read_file(trace));
    ASSERT_TRUE(c.problems.empty()) << c.problems.size() << ": " << c.problems.front();
    const json report = json::parse(test::read_file(dir.path() + "/r.json"));
    ASSERT_EQ(c.flows.size(), stat(report, "dma.ch0", "descriptors"));
    size_t to_irq = 0;
    for (const auto& flow : c.flows) {
        ASSERT_GE(flow.size(), 4u);  // fetch, decode, a read, a write at least
        EXPECT_EQ(flow.front().second, "descriptor fetch");
        EXPECT_EQ(flow[1].second, "decode");
        to_irq += flow.back().second == "IRQ";
    }
    EXPECT_GE(to_irq, 1u) << "the last descriptor's flow ends at its interrupt";
}

TEST(TraceFlowsE2E, FlowsNeedATrace) {
    TempDir dir;
    auto r = run_dmasim(dir, {"run", "--quiet", "--trace-flows"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--trace"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace dmasim::sim
