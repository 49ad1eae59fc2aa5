// scenario_keys_env.cc - tests of the key table see the scenario
// parameters too, as the dmasim binary does (scenario_keys.h).
//
// Scenarios declare their parameters beside their SystemC code, so these
// tests link the testbench, and with it libsystemc, whose main() refers to
// sc_main; gtest's main() is the one linked, so this one is never called.
#include <gtest/gtest.h>

#include "scenario_keys.h"

extern "C" int sc_main(int, char**) { return 1; }

namespace {

struct ScenarioKeys : ::testing::Environment {
    void SetUp() override { ASSERT_TRUE(dmasim::sim::register_scenario_keys().empty()); }
};

const auto* const kScenarioKeys = ::testing::AddGlobalTestEnvironment(new ScenarioKeys);

}  // namespace
