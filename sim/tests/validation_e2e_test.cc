// validation_e2e_test.cc - dmasim against an engine's RTL-measured points
// (configs/validation/, docs/validation.md): `dmasim fit` with no key to
// fit scores the engine's profile (configs/engines/) at every committed
// point, so no point gets a setting of its own, and prints the per-point
// table. Issue 37's bounds: median |relative error| <= 2 %, max <= 10 %.
#include <gtest/gtest.h>

#include <iostream>
#include <regex>
#include <string>

#include "e2e_support.h"

namespace dmasim::sim {
namespace {

using test::run_dmasim;
using test::TempDir;

constexpr double kMedianBound = 2.0, kMaxBound = 10.0;  // percent

void expect_within_bounds(const std::string& engine) {
    TempDir dir;
    const std::string root = DMASIM_SOURCE_DIR;
    const auto r = run_dmasim(dir, {"fit", root + "/configs/engines/" + engine + ".yaml",
                                    "--points", root + "/configs/validation/" + engine + ".csv",
                                    "-o", dir.path() + "/scored.yaml", "-j", "2"});
    std::cout << r.out;
    ASSERT_EQ(r.status, 0) << r.err;
    std::smatch m;
    const std::regex spread(R"(median \|relative error\| ([0-9.]+) %, max ([0-9.]+) %)");
    ASSERT_TRUE(std::regex_search(r.out, m, spread)) << "no error summary in the fit's output";
    EXPECT_LE(std::stod(m[1]), kMedianBound) << engine;
    EXPECT_LE(std::stod(m[2]), kMaxBound) << engine;
}

TEST(Validation, AxisgdmaMatchesItsRtlPoints) { expect_within_bounds("axisgdma"); }

TEST(Validation, IdmaDesc64MatchesItsRtlPoints) { expect_within_bounds("idma-desc64"); }

}  // namespace
}  // namespace dmasim::sim
