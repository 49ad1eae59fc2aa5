// scenario_keys_env.cc - tests of the key table see the scenario
// parameters too, as the dmasim binary does (scenario_keys.h).
#include <gtest/gtest.h>

#include "scenario_keys.h"

namespace {

struct ScenarioKeys : ::testing::Environment {
    void SetUp() override { ASSERT_TRUE(dmasim::sim::register_scenario_keys().empty()); }
};

const auto* const kScenarioKeys = ::testing::AddGlobalTestEnvironment(new ScenarioKeys);

}  // namespace
