// scenario_keys_test.cc - scenario parameters are config keys like any
// other (typed, range-checked, did-you-mean, documented, settable), and a
// scenario name defined twice is caught with both files named.
#include <dmasim/tb/scenario.h>
#include <gtest/gtest.h>

#include "config_docs.h"
#include "config_loader.h"
#include "support.h"

namespace dmasim::sim {
namespace {

using test::TempDir;

std::string error_of(const std::vector<std::string>& sets) {
    try {
        load_config(std::vector<std::string>{}, sets);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "";
}

TEST(SimScenarioKeys, DeclaredParametersAreKeysWithTheirDefaults) {
    const KeyDef* iterations = find_key("scenario.example_repeat.iterations");
    ASSERT_NE(iterations, nullptr);
    EXPECT_EQ(iterations->type, KeyType::integer);
    EXPECT_EQ(iterations->unit, "transfers");
    EXPECT_EQ(std::get<uint64_t>(iterations->default_value()), 4u);
    EXPECT_EQ(describe_allowed(*iterations), "1 .. 1000");
}

TEST(SimScenarioKeys, NestedYamlAndSetReachTheScenario) {
    TempDir dir;
    const auto config =
        load_config(dir.write("c.yaml", "scenario:\n  example_repeat:\n    iterations: 7\n"),
                    {"scenario.example_repeat.gap_cycles=2us"});
    EXPECT_EQ(config.scenario_params.at("scenario.example_repeat.iterations"), 7);
    // 2 us at the default 1000 MHz is 2000 cycles.
    EXPECT_EQ(config.scenario_params.at("scenario.example_repeat.gap_cycles"), 2000);
}

TEST(SimScenarioKeys, OutOfRangeAndMisspeltParametersAreRejected) {
    EXPECT_NE(error_of({"scenario.example_repeat.iterations=0"}).find("out of range"),
              std::string::npos);
    EXPECT_NE(error_of({"scenario.example_repeat.iteration=3"})
                  .find("did you mean scenario.example_repeat.iterations?"),
              std::string::npos);
}

TEST(SimScenarioKeys, ParametersAreDocumentedAndExplained) {
    EXPECT_NE(config_markdown().find("| `scenario.example_repeat.gap_cycles` | integer | `0` | "
                                     "cycles |"),
              std::string::npos);
    EXPECT_NE(explain_text({"scenario.example_repeat"}).find("scenario.example_repeat.iterations"),
              std::string::npos);
}

void another_throughput(tb::ScenarioBench&) {}

TEST(SimScenarioKeys, ScenarioDefinedTwiceNamesBothFiles) {
    const tb::ScenarioRegistrar twice{"throughput", &another_throughput, "elsewhere/copy.cc"};
    const auto& errors = tb::ScenarioRegistry::instance().errors();
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("'throughput' is defined twice"), std::string::npos) << errors[0];
    EXPECT_NE(errors[0].find("tb/scenarios/throughput.cc"), std::string::npos) << errors[0];
    EXPECT_NE(errors[0].find("elsewhere/copy.cc"), std::string::npos) << errors[0];
}

}  // namespace
}  // namespace dmasim::sim
