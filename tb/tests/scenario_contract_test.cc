// scenario_contract_test.cc - what the testbench promises a scenario of any
// name, shipped or out of tree: the traits it declares (not its name)
// decide which configs it may run, its declared parameters are checked
// when it registers, and what its body does wrong (throws anything, adds a
// result no report can hold, opens a ring it did not declare) ends the run
// with a dmasim error naming it. The scenarios below exist only in this
// test program; each case runs in a process of its own.
#include <dmasim/tb/scenario.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>

#include "support.h"

using namespace dmasim::tb;

namespace dmasim::tb {
namespace {

const ScenarioInfo &scenario(const char *name) {
  const ScenarioInfo *info = ScenarioRegistry::instance().find(name);
  EXPECT_NE(info, nullptr) << name;
  return *info;
}

bool names(const std::vector<std::string> &keys, const std::string &key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

SimConfig config_for(const char *name) {
  SimConfig c = test::small_config();
  c.workload.scenario = name;
  c.workload.chain_depth = 1;
  return c;
}

/// The message run_simulation() throws for `c`, as exception type E.
template <typename E> std::string error_of(const SimConfig &c) {
  try {
    run_simulation(c);
  } catch (const E &e) {
    return e.what();
  }
  ADD_FAILURE() << "run_simulation did not throw the expected exception type";
  return {};
}

// --- Row 6: declared parameters are checked when they register -----------

std::vector<std::string> errors_of(const ScenarioParam &p) {
  ScenarioRegistry registry;
  registry.add_param(p);
  return registry.errors();
}

TEST(ScenarioContract,
     AParamWhoseDefaultLiesOutsideItsRangeIsARegistrationError) {
  const auto errors = errors_of({"s", "p", true, 0, 1, 10, "", "a parameter"});
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(contains(errors[0], "scenario s: parameter scenario.s.p"))
      << errors[0];
  EXPECT_TRUE(contains(errors[0], "default of 0 outside its range 1 .. 10"))
      << errors[0];
}

TEST(ScenarioContract, AParamWithAnEmptyRangeIsARegistrationError) {
  const auto errors = errors_of({"s", "p", true, 5, 10, 1, "", "a parameter"});
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(contains(errors[0], "scenario.s.p")) << errors[0];
  EXPECT_TRUE(contains(errors[0], "empty range 10 .. 1")) << errors[0];
}

TEST(ScenarioContract, ParamRowsKeepEveryInvariantOfAConfigKey) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // A whole number with a fraction, below zero, or beyond what a double
  // holds exactly; any number that is NaN; a key with no description.
  for (const ScenarioParam &p : std::vector<ScenarioParam>{
           {"s", "p", true, 1.5, 0, 10, "", "a parameter"},
           {"s", "p", true, 0, -1, 10, "", "a parameter"},
           {"s", "p", true, 0, 0, 1e300, "", "a parameter"},
           {"s", "p", false, nan, 0, 1, "", "a parameter"},
           {"s", "p", false, 0, 0, 1, "", ""}}) {
    const auto errors = errors_of(p);
    EXPECT_EQ(errors.size(), 1u)
        << p.default_value << " in " << p.min << " .. " << p.max;
  }
  EXPECT_TRUE(errors_of({"s", "p", false, 0.5, 0, 1, "fraction", "a parameter"})
                  .empty());
}

TEST(ScenarioContract, ABadlyDeclaredParamRefusesEveryRun) {
  ScenarioRegistry::instance().add_param(
      {"s", "p", true, 0, 1, 10, "", "a parameter"});
  const std::string why = error_of<ConfigError>(config_for("throughput"));
  EXPECT_TRUE(contains(why, "scenario.s.p")) << why;
}

} // namespace
} // namespace dmasim::tb
