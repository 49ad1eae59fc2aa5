// diff_e2e_test.cc - `dmasim diff` through the real binary: two reports,
// two sweep folders, --check for regression checks, and mismatched inputs.
#include <fmt/format.h>
#include <gtest/gtest.h>

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
    EXPECT_NE(line_of(r.out, "dma.ch0.descriptor_stall_cycles"), "") << r.out;
    EXPECT_EQ(line_of(r.out, "bytes").rfind("  ", 0), 0u) << r.out;
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

TEST(SimDiffE2E, SweepFoldersAreComparedPointByPoint) {
    TempDir dir;
    const std::string grid =
        "set:\n  workload.segment_bytes: 1024\n  dma.descriptor_prefetch: {}\n"
        "sweep:\n  workload.entries: [4, 8]\n";
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
    EXPECT_NE(r.out.find("workload.entries=4:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("workload.entries=8:"), std::string::npos) << r.out;
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
