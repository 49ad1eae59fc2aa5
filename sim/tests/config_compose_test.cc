// config_compose_test.cc - configs that compose: files layered left to
// right, base: chains (and their cycles), unit strings, and the renderings
// of the key table for tools (explain filters, JSON Schema, completion).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "config_docs.h"
#include "config_error_of.h"
#include "config_loader.h"
#include "config_schema.h"
#include "shell_completion.h"
#include "support.h"

namespace dmasim::sim {
namespace {

using test::error_of;
using test::TempDir;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(SimConfigCompose, LaterFilesOverrideEarlierOnesAndSetsOverrideFiles) {
    TempDir dir;
    const auto a = dir.write("a.yaml", "workload:\n  entries: 16\n  chain_depth: 2\n");
    const auto b = dir.write("b.yaml", "workload.entries: 32\ndma.channels: 2\n");
    const auto c = load_config({a, b}, {"dma.channels=3"});
    EXPECT_EQ(c.workload.entries, 32u);      // b over a
    EXPECT_EQ(c.workload.chain_depth, 2u);   // only a sets it
    EXPECT_EQ(c.platform.dma.channels, 3u);  // --set over b
}

TEST(SimConfigCompose, BaseIsReadFirstRelativeToTheIncludingFile) {
    TempDir dir;
    std::filesystem::create_directories(dir.path() + "/engines");
    dir.write("engines/root.yaml", "workload.entries: 64\nworkload.chain_depth: 4\n");
    dir.write("engines/mid.yaml", "base: root.yaml\nworkload.entries: 8\n");
    const auto top = dir.write("top.yaml", "base: engines/mid.yaml\nworkload.chain_depth: 8\n");
    const auto c = load_config(top, {});
    EXPECT_EQ(c.workload.entries, 8u);      // mid over root
    EXPECT_EQ(c.workload.chain_depth, 8u);  // top over root
}

TEST(SimConfigCompose, BaseCycleNamesTheLineAndTheChain) {
    TempDir dir;
    dir.write("x.yaml", "base: y.yaml\n");
    dir.write("y.yaml", "dma.channels: 2\nbase: x.yaml\n");
    const auto message = error_of([&] { load_config(dir.path() + "/x.yaml", {}); });
    EXPECT_TRUE(contains(message, "y.yaml:2:")) << message;
    EXPECT_TRUE(contains(message, "cycle")) << message;
    EXPECT_TRUE(contains(message, "x.yaml -> ")) << message;
}

TEST(SimConfigCompose, SelfBaseIsACycle) {
    TempDir dir;
    const auto self = dir.write("self.yaml", "base: self.yaml\n");
    EXPECT_TRUE(contains(error_of([&] { load_config(self, {}); }), "cycle"));
}

/// Writes c0.yaml .. c{files-1}.yaml, each naming the next as its base:,
/// the last setting workload.entries; returns the first.
std::string write_base_chain(const TempDir& dir, size_t files) {
    for (size_t i = 0; i + 1 < files; ++i)
        dir.write(fmt::format("c{}.yaml", i), fmt::format("base: c{}.yaml\n", i + 1));
    dir.write(fmt::format("c{}.yaml", files - 1), "workload.entries: 8\n");
    return dir.path() + "/c0.yaml";
}

TEST(SimConfigCompose, BaseChainOfTheMaximumLengthLoads) {
    TempDir dir;
    EXPECT_EQ(load_config(write_base_chain(dir, kMaxBaseDepth), {}).workload.entries, 8u);
}

TEST(SimConfigCompose, BaseChainPastTheLimitNamesTheFileThatHitItAndTheLimit) {
    TempDir dir;
    const auto message =
        error_of([&] { load_config(write_base_chain(dir, kMaxBaseDepth + 1), {}); });
    // File kMaxBaseDepth of the chain (c{kMaxBaseDepth - 1}) names one more.
    EXPECT_TRUE(contains(message, fmt::format("c{}.yaml:1:", kMaxBaseDepth - 1))) << message;
    EXPECT_TRUE(contains(message, fmt::format("longer than {} files", kMaxBaseDepth))) << message;
}

TEST(SimConfigCompose, MissingBaseNamesTheFileAndLine) {
    TempDir dir;
    const auto top = dir.write("top.yaml", "dma.channels: 2\nbase: nope.yaml\n");
    const auto message = error_of([&] { load_config(top, {}); });
    EXPECT_TRUE(contains(message, "top.yaml:2:")) << message;
    EXPECT_TRUE(contains(message, "nope.yaml not found")) << message;
}

// A name the system refuses (longer than a file name may be) is the
// config's error at its line, not a filesystem exception (config_fuzz).
TEST(SimConfigCompose, BaseNameTooLongForTheSystemNamesTheFileAndLine) {
    TempDir dir;
    const auto top =
        dir.write("top.yaml", "dma.channels: 2\nbase: " + std::string(300, 'a') + "\n");
    const auto message = error_of([&] { load_config(top, {}); });
    EXPECT_TRUE(contains(message, "top.yaml:2:")) << message;
    EXPECT_TRUE(contains(message, "cannot be read: File name too long")) << message;
}

TEST(SimConfigUnits, SizesAreStoredInTheKeysUnit) {
    const auto c = load_config(std::vector<std::string>{},
                               {"workload.segment_bytes=4KiB", "dma.buffer_bytes=2MiB",
                                "memory.size_mib=2GiB", "workload.segment_bytes_max=1.5 KiB"});
    EXPECT_EQ(c.workload.segment_bytes, 4u * 1024);
    EXPECT_EQ(c.platform.dma.buffer_bytes, 2u * 1024 * 1024);
    EXPECT_EQ(c.memory_size_mib, 2u * 1024);  // 2 GiB in MiB
    EXPECT_EQ(c.workload.segment_bytes_max, 1536u);
}

TEST(SimConfigUnits, FrequenciesAreStoredInMHz) {
    EXPECT_EQ(load_config(std::vector<std::string>{}, {"clock_mhz=1GHz"}).platform.clock_mhz,
              1000.0);
    EXPECT_EQ(load_config(std::vector<std::string>{}, {"clock_mhz=250MHz"}).platform.clock_mhz,
              250.0);
}

TEST(SimConfigUnits, TimesOnCycleKeysUseTheFinalClock) {
    // 10 ns at 1 GHz (the default) is 10 cycles; at 500 MHz, set later, 5.
    EXPECT_EQ(load_config(std::vector<std::string>{}, {"memory.read_latency_cycles=10ns"})
                  .platform.memory.read_latency_cycles,
              10u);
    EXPECT_EQ(load_config(std::vector<std::string>{},
                          {"memory.read_latency_cycles=10ns", "clock_mhz=500MHz"})
                  .platform.memory.read_latency_cycles,
              5u);
}

TEST(SimConfigUnits, TimeNotWholeAtAnEarlierClockIsJudgedAtTheFinalOne) {
    // 0.5 ns is half a cycle at the default 1 GHz, one cycle at 2 GHz set after it.
    EXPECT_EQ(load_config(std::vector<std::string>{},
                          {"memory.read_latency_cycles=0.5ns", "clock_mhz=2GHz"})
                  .platform.memory.read_latency_cycles,
              1u);
}

TEST(SimConfigUnits, ResolvedConfigHoldsTheCanonicalNumber) {
    const auto yaml = resolved_yaml(load_config(
        std::vector<std::string>{}, {"workload.segment_bytes=4KiB", "clock_mhz=2.5GHz"}));
    EXPECT_TRUE(contains(yaml, "workload.segment_bytes: 4096\n")) << yaml;
    EXPECT_TRUE(contains(yaml, "clock_mhz: 2500\n")) << yaml;
}

TEST(SimConfigUnits, WrongKindOfUnitNamesKeyValueAndWhatItTakes) {
    const auto message =
        error_of([] { load_config(std::vector<std::string>{}, {"workload.segment_bytes=1GHz"}); });
    EXPECT_TRUE(contains(message, "workload.segment_bytes = '1GHz'")) << message;
    EXPECT_TRUE(contains(message, "takes a size (in bytes)")) << message;
}

TEST(SimConfigUnits, FractionOfTheKeysUnitIsRejected) {
    // 3 ns at 250 MHz (4 ns per cycle) is 0.75 cycles.
    const auto message = error_of([] {
        load_config(std::vector<std::string>{},
                    {"clock_mhz=250MHz", "memory.write_latency_cycles=3ns"});
    });
    EXPECT_TRUE(contains(message, "0.75 cycles")) << message;
    EXPECT_TRUE(contains(
        error_of([] { load_config(std::vector<std::string>{}, {"workload.segment_bytes=0.5B"}); }),
        "not a whole number of bytes"));
}

TEST(SimConfigUnits, FractionTooSmallForADoubleToSeeIsStillRejected) {
    // Issue 28: 1000000000.4 B was rounded to 10^9 bytes (the check allowed
    // a relative 1e-9); whole is now judged in exact decimal arithmetic.
    const auto message = error_of(
        [] { load_config(std::vector<std::string>{}, {"memory.size_mib=1000000000.4B"}); });
    EXPECT_TRUE(contains(message, "memory.size_mib = '1000000000.4B'")) << message;
    EXPECT_TRUE(contains(message, "not a whole number of MiB")) << message;
    EXPECT_TRUE(contains(error_of([] {
                             load_config(std::vector<std::string>{},
                                         {"workload.segment_bytes=4096.0000000001B"});
                         }),
                         "workload.segment_bytes = '4096.0000000001B'"));
}

TEST(SimConfigUnits, DecimalFractionsThatAreWholeInTheKeysUnitAreExact) {
    // 1.5 KiB = 1536 B; 2^-10 KiB = 1 B; 4 x 2^20 B is 4 MiB, 0.5 MiB in a
    // MiB key is not whole.
    const auto c = load_config(std::vector<std::string>{},
                               {"workload.segment_bytes=1.5KiB", "workload.offset=0.0009765625KiB",
                                "memory.size_mib=4194304B"});
    EXPECT_EQ(c.workload.segment_bytes, 1536u);
    EXPECT_EQ(c.workload.offset, 1u);
    EXPECT_EQ(c.memory_size_mib, 4u);
    EXPECT_TRUE(contains(
        error_of([] { load_config(std::vector<std::string>{}, {"memory.size_mib=0.5MiB"}); }),
        "not a whole number of MiB"));
}

TEST(SimConfigUnits, UnitValueOutOfRangeIsReported) {
    // workload.offset allows 0 .. 4095; 4 KiB is 4096.
    const auto message =
        error_of([] { load_config(std::vector<std::string>{}, {"workload.offset=4KiB"}); });
    EXPECT_TRUE(contains(message, "out of range")) << message;
}

TEST(SimConfigExplain, NamesFilterToKeysAndSections) {
    const auto text = explain_text({"dma.channels", "fault"});
    EXPECT_EQ(text.rfind("dma.channels  (", 0), 0u) << text;
    EXPECT_TRUE(contains(text, "fault.kind")) << text;
    EXPECT_TRUE(contains(text, "fault.index")) << text;
    EXPECT_FALSE(contains(text, "dma.max_burst_beats")) << text;
    EXPECT_FALSE(contains(text, "workload.entries")) << text;
}

TEST(SimConfigExplain, UnknownNameGetsADidYouMean) {
    const auto message = error_of([] { explain_text({"dma.chanels"}); });
    EXPECT_TRUE(contains(message, "did you mean dma.channels?")) << message;
}

TEST(SimConfigSchema, EveryKeyIsDescribedNestedAndFlat) {
    const auto schema = nlohmann::json::parse(config_schema());
    const auto& top = schema["properties"];
    for (const auto& key : config_keys()) {
        EXPECT_TRUE(top.contains(key.name)) << key.name;  // flat (or top-level) form
        // Nested form: one object per dotted component.
        const nlohmann::json* node = &schema;
        size_t from = 0;
        for (size_t dot = key.name.find('.'); dot != std::string::npos;
             from = dot + 1, dot = key.name.find('.', from)) {
            node = &(*node)["properties"][key.name.substr(from, dot - from)];
            ASSERT_TRUE(node->is_object()) << key.name;
        }
        EXPECT_TRUE((*node)["properties"].contains(key.name.substr(from))) << key.name;
    }
    EXPECT_FALSE(schema["additionalProperties"].get<bool>());
    EXPECT_TRUE(top.contains("base"));
}

TEST(SimConfigSchema, KeysCarryRangeDefaultAndChoices) {
    const auto schema = nlohmann::json::parse(config_schema());
    const auto& dma = schema["properties"]["dma"]["properties"];
    EXPECT_EQ(dma["max_burst_beats"]["minimum"], 1);
    EXPECT_EQ(dma["max_burst_beats"]["maximum"], 256);
    EXPECT_EQ(dma["descriptor_format"]["enum"],
              nlohmann::json::array({"chained_pages", "linked_list"}));
    EXPECT_EQ(dma["max_burst_beats"]["default"],
              std::get<uint64_t>(find_key("dma.max_burst_beats")->default_value()));
    // A size key also takes a unit string.
    const auto& any = schema["properties"]["workload"]["properties"]["segment_bytes"]["anyOf"];
    ASSERT_EQ(any.size(), 2u);
    EXPECT_EQ(any[1]["type"], "string");
}

TEST(SimCompletion, BashScriptListsEveryKeyAndChoiceValues) {
    const auto script = bash_completion();
    for (const auto& key : config_keys()) EXPECT_TRUE(contains(script, key.name)) << key.name;
    EXPECT_TRUE(contains(script, "dma.descriptor_format) values=\"chained_pages linked_list\""))
        << script;
    EXPECT_TRUE(contains(script, "complete -o filenames -F _dmasim dmasim"));
}

}  // namespace
}  // namespace dmasim::sim
