// interrupt_e2e_test.cc - interrupt coalescing and the CPU's completion
// cost through the real binary: the cost ends the measured window later by
// exactly the last handler's work, coalescing counts interrupts as the
// threshold says in every format and direction, and a threshold without a
// delay timer is refused at validation.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

using nlohmann::json;
using test::run_dmasim;
using test::TempDir;

constexpr const char* kFormats[] = {"chained_pages", "linked_list"};
constexpr const char* kDirections[] = {"mem_to_mem", "dev_to_mem", "mem_to_dev"};

/// Runs a small list with the given --set values; returns the whole report.
json run_report(const TempDir& dir, const std::vector<std::string>& sets) {
    const std::string report = dir.path() + "/r.json";
    std::vector<std::string> args = {"run",
                                     "--set",
                                     "workload.entries=12",
                                     "--set",
                                     "workload.chain_depth=3",
                                     "--set",
                                     "workload.segment_bytes=1000",
                                     "--report",
                                     report,
                                     "--quiet"};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    auto r = run_dmasim(dir, args);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.status == 0 ? json::parse(test::read_file(report)) : json{};
}

double stat(const json& report, const char* name) {
    return report["statistics"]["dma.ch0"][name]["value"].get<double>();
}

TEST(SimInterruptE2E, CpuCostEndsTheWindowAfterTheLastHandler) {
    TempDir dir;
    const uint64_t handler = 300, per_descriptor = 7, entries = 12;
    for (const char* format : kFormats)
        for (const char* direction : kDirections) {
            SCOPED_TRACE(fmt::format("{} {}", format, direction));
            const std::vector<std::string> base = {fmt::format("dma.descriptor_format={}", format),
                                                   fmt::format("workload.direction={}", direction)};
            std::vector<std::string> costly = base;
            costly.push_back(fmt::format("cpu.irq_handler_cycles={}", handler));
            costly.push_back(fmt::format("cpu.per_descriptor_cycles={}", per_descriptor));
            const json free = run_report(dir, base)["result"];
            const json paid = run_report(dir, costly)["result"];
            // One interrupt, when the channel stops; its handler reaps all
            // 12 descriptors, and the window ends when that work is done.
            const uint64_t cost = handler + per_descriptor * entries;
            EXPECT_EQ(free["interrupts"], 1);
            EXPECT_EQ(free["cpu_busy_cycles"], 0);
            EXPECT_EQ(paid["interrupts"], 1);
            EXPECT_EQ(paid["cpu_busy_cycles"], cost);
            EXPECT_EQ(paid["cycles"].get<uint64_t>(), free["cycles"].get<uint64_t>() + cost);
            EXPECT_DOUBLE_EQ(paid["cpu_utilization"].get<double>(),
                             double(cost) / paid["cycles"].get<double>());
        }
}

TEST(SimInterruptE2E, ThresholdCountsInterruptsInEveryFormatAndDirection) {
    TempDir dir;
    const uint64_t entries = 12, count = 5, handler = 100, per_descriptor = 3;
    for (const char* format : kFormats)
        for (const char* direction : kDirections) {
            SCOPED_TRACE(fmt::format("{} {}", format, direction));
            const json r =
                run_report(dir, {fmt::format("dma.descriptor_format={}", format),
                                 fmt::format("workload.direction={}", direction),
                                 "workload.irq_per_descriptor=true",
                                 fmt::format("dma.irq_coalesce_count={}", count),
                                 "dma.irq_coalesce_timeout_cycles=1000000",
                                 fmt::format("cpu.irq_handler_cycles={}", handler),
                                 fmt::format("cpu.per_descriptor_cycles={}", per_descriptor)});
            // 12 = 5 + 5 + 2: two threshold interrupts, then the stop
            // interrupt reports the last 2; each folds in all but one.
            EXPECT_EQ(stat(r, "irqs_raised"), double(entries / count + 1));
            EXPECT_EQ(stat(r, "irq_completions_coalesced"), double(4 + 4 + 1));
            EXPECT_EQ(stat(r, "irqs_by_timeout"), 0.0);
            // The CPU handles at most the raised ones (a rise while it is
            // busy merges into the pending line), and reaps every descriptor.
            const json& res = r["result"];
            const uint64_t handled = res["interrupts"];
            EXPECT_GE(handled, 1u);
            EXPECT_LE(handled, entries / count + 1);
            EXPECT_EQ(res["cpu_busy_cycles"], handler * handled + per_descriptor * entries);
            EXPECT_EQ(res["integrity"], "pass");
        }
}

TEST(SimInterruptE2E, CoalescingCutsTheInterruptRateOfASmallTransferStream) {
    TempDir dir;
    auto run = [&dir](unsigned count) {
        return run_report(
            dir,
            {"workload.entries=512", "workload.segment_bytes=256", "workload.direction=dev_to_mem",
             "workload.irq_per_descriptor=true", fmt::format("dma.irq_coalesce_count={}", count),
             "dma.irq_coalesce_timeout_cycles=100000", "cpu.irq_handler_cycles=500",
             "cpu.per_descriptor_cycles=5"})["result"];
    };
    const json every = run(1), batched = run(64);
    // 256-byte packets at 16 B/cycle complete every 16 cycles; the CPU
    // needs 500 + 5 x 64 = 820 of the 16 x 64 = 1024 cycles between two
    // interrupts, so it keeps up: 512 / 64 = 8 interrupts, the last at the
    // same cycle as the stop's, each reaping 64 descriptors.
    EXPECT_EQ(batched["interrupts"].get<uint64_t>(), 512u / 64);
    EXPECT_EQ(batched["cpu_busy_cycles"].get<uint64_t>(), 500u * 8 + 5u * 512);
    EXPECT_GT(every["interrupts"].get<uint64_t>(), batched["interrupts"].get<uint64_t>());
    EXPECT_GT(every["cpu_utilization"].get<double>(), batched["cpu_utilization"].get<double>());
}

// Found by the soak: with several channels the handler reads each one's
// STATUS, and a waiter woken by an earlier channel's completion used to
// leave its transfer unfinished for ever.
TEST(SimInterruptE2E, SeveralChannelsWithPerDescriptorInterruptsAllComplete) {
    TempDir dir;
    const uint64_t channels = 3, entries = 12, handler = 700;
    const json r = run_report(
        dir,
        {"workload.scenario=multi_channel", fmt::format("dma.channels={}", channels),
         "workload.irq_per_descriptor=true", fmt::format("cpu.irq_handler_cycles={}", handler)});
    const json& res = r["result"];
    EXPECT_EQ(res["integrity"], "pass");
    EXPECT_EQ(res["descriptors"], channels * entries);
    EXPECT_EQ(res["cpu_busy_cycles"], handler * res["interrupts"].get<uint64_t>());
}

TEST(SimInterruptE2E, BadCoalescingExitsTwoNamingTheKeys) {
    TempDir dir;
    struct Case {
        std::vector<std::string> sets;
        std::vector<std::string> says;
    };
    for (const Case& c :
         std::vector<Case>{{{"dma.irq_coalesce_count=4"},
                            {"dma.irq_coalesce_count = 4", "dma.irq_coalesce_timeout_cycles = 0"}},
                           {{"dma.irq_coalesce_count=0"}, {"dma.irq_coalesce_count", "1 .. 255"}},
                           {{"dma.irq_coalesce_count=256"}, {"dma.irq_coalesce_count", "1 .. 255"}},
                           {{"cpu.irq_handler_cycles=-1"}, {"cpu.irq_handler_cycles"}}}) {
        std::vector<std::string> args = {"run"};
        for (const auto& s : c.sets) args.insert(args.end(), {"--set", s});
        auto r = run_dmasim(dir, args);
        EXPECT_EQ(r.status, 2) << c.sets[0];
        for (const auto& part : c.says)
            EXPECT_NE(r.err.find(part), std::string::npos) << part << "\n" << r.err;
    }
}

}  // namespace
}  // namespace dmasim::sim
