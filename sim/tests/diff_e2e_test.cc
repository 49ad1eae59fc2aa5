// diff_e2e_test.cc - `dmasim diff` through the real binary: two reports,
// two sweep folders, --check for regression checks, and mismatched inputs.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

using nlohmann::json;
using test::read_file;
using test::run_dmasim;
using test::TempDir;

const std::vector<std::string> kSmall = {"--set", "workload.entries=16", "--set",
                                         "workload.chain_depth=2"};

std::string report_with(const TempDir& dir, const std::string& name,
                        std::vector<std::string> sets) {
    const std::string path = dir.path() + "/" + name;
    std::vector<std::string> args = {"run", "--quiet", "--report", path};
    args.insert(args.end(), kSmall.begin(), kSmall.end());
    args.insert(args.end(), sets.begin(), sets.end());
    EXPECT_EQ(run_dmasim(dir, args).status, 0);
    return path;
}

/// The output line of `column` (with its leading flag column).
std::string line_of(const std::string& out, const std::string& column) {
    const auto at = out.find(" " + column + " ");
    if (at == std::string::npos) return "";
    const auto begin = out.rfind('\n', at) + 1;
    return out.substr(begin, out.find('\n', at) - begin);
}

TEST(SimDiffE2E, ReportsShowTheKnobAndEveryStatisticWithItsRatio) {
    TempDir dir;
    const std::string a = report_with(dir, "a.json", {});
    const std::string b = report_with(dir, "b.json", {"--set", "dma.descriptor_prefetch=1"});
    auto r = run_dmasim(dir, {"diff", a, b});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("dma.descriptor_prefetch"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("workload.entries "), std::string::npos) << "equal keys are not listed";
    // Fetching one descriptor at a time reads no slot past a chain or END
    // slot, so fewer descriptor bytes: flagged, with B/A from the reports.
    const double fa = json::parse(read_file(a))["result"]["descriptor_bytes_fetched"];
    const double fb = json::parse(read_file(b))["result"]["descriptor_bytes_fetched"];
    ASSERT_LT(fb, fa);
    const std::string line = line_of(r.out, "descriptor_bytes_fetched");
    EXPECT_EQ(line.rfind("*", 0), 0u) << line;
    EXPECT_NE(line.find(fmt::format("{:.4g}", fb / fa)), std::string::npos) << line;
    // Statistics too, not only result keys; bytes are equal and not flagged.
    EXPECT_NE(line_of(r.out, "dma.ch0.descriptor_wait_cycles"), "") << r.out;
    EXPECT_EQ(line_of(r.out, "bytes").rfind("  ", 0), 0u) << r.out;
}

// Descriptor overlap off on small segments moves cycles into the
// descriptor-side causes: the account section names the largest move first,
// with the cycles of both reports.
TEST(SimDiffE2E, ReportsListTheAccountCausesAKnobMovedLargestFirst) {
    TempDir dir;
    const std::string a = report_with(dir, "a.json", {"--set", "workload.segment_bytes=64"});
    const std::string b = report_with(
        dir, "b.json", {"--set", "workload.segment_bytes=64", "--set", "dma.data_overlap=false"});
    auto r = run_dmasim(dir, {"diff", a, b});
    ASSERT_EQ(r.status, 0) << r.err;
    const json ja = json::parse(read_file(a))["statistics"]["account"];
    const json jb = json::parse(read_file(b))["statistics"]["account"];
    std::string largest;
    double largest_move = 0;
    for (const auto& [cause, counter] : jb.items()) {
        const double move = std::fabs(counter["value"].get<double>() - ja[cause]["value"].get<double>());
        if (move > largest_move) largest_move = move, largest = cause;
    }
    ASSERT_GT(largest_move, 0);
    const std::string header = "cycle account, the causes that moved (largest move first):\n";
    const auto at = r.out.find(header);
    ASSERT_NE(at, std::string::npos) << r.out;
    const std::string first = r.out.substr(at + header.size(), r.out.find('\n', at + header.size()) - at - header.size());
    EXPECT_EQ(first.find("  " + largest + " "), 0u) << first;
    EXPECT_NE(first.find(fmt::format("{:+.0f} cycles", jb[largest]["value"].get<double>() -
                                                          ja[largest]["value"].get<double>())),
              std::string::npos)
        << first;
}

TEST(SimDiffE2E, CheckExitsOneOnlyWhenSomethingChanged) {
    TempDir dir;
    const std::string a = report_with(dir, "a.json", {});
    const std::string same = report_with(dir, "same.json", {});
    const std::string b = report_with(dir, "b.json", {"--set", "memory.read_latency_cycles=200"});
    auto unchanged = run_dmasim(dir, {"diff", a, same, "--check"});
    EXPECT_EQ(unchanged.status, 0) << unchanged.out;
    EXPECT_NE(unchanged.out.find("(none)"), std::string::npos);
    EXPECT_EQ(run_dmasim(dir, {"diff", a, b, "--check"}).status, 1);
    // A threshold above every change flags nothing.
    EXPECT_EQ(run_dmasim(dir, {"diff", a, b, "--check", "--threshold", "1e6"}).status, 0);
}

TEST(SimDiffE2E, SweepFoldersListChangedKeysAndPointsInNumericOrderWithUnits) {
    TempDir dir;
    const std::string grid =
        "set:\n  workload.segment_bytes: 1024\n  dma.descriptor_prefetch: {}\n"
        "sweep:\n  workload.entries: [16, 4]\n";
    const std::string a = dir.path() + "/a", b = dir.path() + "/b";
    ASSERT_EQ(run_dmasim(dir, {"sweep", dir.write("a.yaml", fmt::format(grid, 8)), "--out", a,
                               "--no-plot", "-j", "2"})
                  .status,
              0);
    ASSERT_EQ(run_dmasim(dir, {"sweep", dir.write("b.yaml", fmt::format(grid, 1)), "--out", b,
                               "--no-plot", "-j", "2"})
                  .status,
              0);
    auto r = run_dmasim(dir, {"diff", a, b});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("2 points in both"), std::string::npos) << r.out;
    // The knob that differs, once for all points; swept keys match, so not listed.
    EXPECT_NE(line_of(r.out, "dma.descriptor_prefetch").find("8 descriptors -> 1 descriptor"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(line_of(r.out, "workload.entries"), "") << r.out;
    // 4 before 16 (as text "16" sorts first), whatever the sweep file's order.
    const auto four = r.out.find("workload.entries=4:"), sixteen = r.out.find("workload.entries=16:");
    ASSERT_NE(four, std::string::npos) << r.out;
    ASSERT_NE(sixteen, std::string::npos) << r.out;
    EXPECT_LT(four, sixteen) << r.out;
    // Flagged figures carry their unit: descriptor bytes are bytes.
    const std::string fetched = line_of(r.out.substr(four), "descriptor_bytes_fetched");
    EXPECT_EQ(fetched.substr(fetched.size() - 3), "  B") << fetched;
    // Where each point's cycles went, in a line of its own.
    const auto moved = r.out.find("  cycle account moved: ", four);
    ASSERT_NE(moved, std::string::npos) << r.out;
    EXPECT_LT(moved, r.out.find("workload.entries=", four + 1)) << r.out;
}

TEST(SimDiffE2E, ZeroInBothHasNoRatio) {
    TempDir dir;
    const std::string a = report_with(dir, "a.json", {});
    const std::string b = report_with(dir, "b.json", {"--set", "dma.descriptor_prefetch=1"});
    ASSERT_EQ(json::parse(read_file(a))["result"]["cpu_busy_cycles"], 0) << "default: no CPU cost";
    auto r = run_dmasim(dir, {"diff", a, b});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string line = line_of(r.out, "cpu_busy_cycles");
    EXPECT_NE(line.find("n/a 0/0"), std::string::npos) << line;
    EXPECT_EQ(line.substr(line.size() - 6), "cycles") << line;
}

/// `good` with `edit` applied, written to `name` in `dir`.
template <typename Edit>
std::string edited(const TempDir& dir, const std::string& good, const std::string& name,
                   Edit edit) {
    auto report = nlohmann::ordered_json::parse(read_file(good));
    edit(report);
    return dir.write(name, report.dump());
}

TEST(SimDiffE2E, MalformedReportsAreNamedErrorsNotCrashes) {
    TempDir dir;
    const std::string good = report_with(dir, "good.json", {});
    const std::vector<std::pair<std::string, std::string>> cases = {
        {dir.write("empty.json", "{}"), "top level: missing \"config\""},
        {dir.write("array.json", "[]"), "top level: expected an object, found an array"},
        {dir.write("null.json", "null"), "top level: expected an object, found null"},
        {edited(dir, good, "noresult.json", [](auto& r) { r.erase("result"); }),
         "top level: missing \"result\""},
        {edited(dir, good, "config.json", [](auto& r) { r["config"] = 1; }),
         "/config: expected an object, found 1"},
        {edited(dir, good, "integrity.json", [](auto& r) { r["result"]["integrity"] = 0; }),
         "/result/integrity: expected a string, found 0"},
    };
    for (const auto& [file, problem] : cases) {
        auto r = run_dmasim(dir, {"diff", good, file, "--check"});
        EXPECT_EQ(r.status, 2) << file << r.err;
        EXPECT_NE(r.err.find(file + ": " + problem), std::string::npos) << r.err;
    }
}

TEST(SimDiffE2E, NonNumericFiguresAreErrorsNotSkipped) {
    TempDir dir;
    const std::string good = report_with(dir, "good.json", {});
    const std::string text =
        edited(dir, good, "text.json", [](auto& r) { r["result"]["bytes"] = "abc"; });
    auto r = run_dmasim(dir, {"diff", good, text, "--check"});
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.err.find(text + ": /result/bytes: expected a number, found \"abc\""),
              std::string::npos)
        << r.err;
    const std::string null_stat = edited(dir, good, "null.json", [](auto& r) {
        r["statistics"]["dma.ch0"]["descriptor_wait_cycles"]["value"] = nullptr;
    });
    r = run_dmasim(dir, {"diff", null_stat, good, "--check"});
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.err.find(null_stat +
                         ": /statistics/dma.ch0/descriptor_wait_cycles/value: expected a number, "
                         "found null"),
              std::string::npos)
        << r.err;
}

TEST(SimDiffE2E, AReportAndAFolderAreAUsageError) {
    TempDir dir;
    const std::string a = report_with(dir, "a.json", {});
    auto r = run_dmasim(dir, {"diff", a, dir.path()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("two reports or two sweep folders"), std::string::npos) << r.err;
    EXPECT_EQ(run_dmasim(dir, {"diff", a, dir.path() + "/missing.json"}).status, 2);
}

}  // namespace
}  // namespace dmasim::sim
