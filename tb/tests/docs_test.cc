// docs_test.cc - the worked example printed in docs/scenarios.md is the
// file the tests build and run, so the tutorial cannot go stale.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The text between the ```cpp fence after `begin` and the closing fence.
std::string code_block_after(const std::string& doc, const std::string& begin) {
    const size_t marker = doc.find(begin);
    if (marker == std::string::npos) return {};
    const size_t open = doc.find("```cpp\n", marker);
    const size_t close = doc.find("```\n", open + 7);
    if (open == std::string::npos || close == std::string::npos) return {};
    return doc.substr(open + 7, close - open - 7);
}

// The file FOLDER/NAME is printed in the tutorial after its marker.
void expect_printed_in_tutorial(const std::string& name,
                                const std::string& folder = "tb/scenarios") {
    const std::string root = DMASIM_SOURCE_DIR;
    const std::string doc = slurp(root + "/docs/scenarios.md");
    const std::string file = slurp(root + "/" + folder + "/" + name);
    ASSERT_FALSE(file.empty()) << name;
    EXPECT_EQ(code_block_after(doc, "<!-- " + name + " begin -->"), file);
}

TEST(ScenarioTutorial, WorkedExampleIsTheShippedScenarioFile) {
    expect_printed_in_tutorial("example_two_lists.cc");
}

TEST(ScenarioTutorial, ParametersExampleIsTheShippedScenarioFile) {
    expect_printed_in_tutorial("example_repeat.cc");
}

TEST(ScenarioTutorial, OutOfTreeExampleIsTheShippedExampleProject) {
    expect_printed_in_tutorial("ping_pong.cc", "examples/out-of-tree-scenario");
    expect_printed_in_tutorial("ping_pong_test.cc", "examples/out-of-tree-scenario");
}

}  // namespace
