// shipped_sweeps_test.cc - every sweep under configs/sweeps/ loads and has
// points to run; some sweep scenario parameters, so this links the
// scenarios (sim_scenario_config_tests).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "sweep_spec.h"

namespace dmasim::sim {
namespace {

TEST(SimShippedSweeps, EveryStandardSweepLoadsAndHasRunnablePoints) {
    const std::filesystem::path dir = DMASIM_SOURCE_DIR "/configs/sweeps";
    size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        ++files;
        auto spec = load_sweep(entry.path().string(), DMASIM_SOURCE_DIR "/configs/default.yaml");
        auto points = expand_sweep(spec);
        size_t runnable = std::count_if(points.begin(), points.end(),
                                        [](const SweepPoint& p) { return p.skipped.empty(); });
        EXPECT_GT(runnable, 0u) << entry.path();
    }
    EXPECT_GE(files, 5u);
}

}  // namespace
}  // namespace dmasim::sim
