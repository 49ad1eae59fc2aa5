// config_docs_test.cc - the docs and --explain come from the key table.
#include "config_docs.h"

#include <dmasim/tb/validate.h>
#include <gtest/gtest.h>

#include "config_keys.h"
#include "statistics_catalog.h"
#include "support.h"

namespace dmasim::sim {
namespace {

TEST(SimConfigDocs, CheckedInMarkdownEqualsTheGeneratedText) {
    std::string checked_in = test::read_file(DMASIM_SOURCE_DIR "/docs/configuration.md");
    EXPECT_EQ(checked_in, config_markdown())
        << "docs/configuration.md is stale: regenerate it with `dmasim config --markdown "
           "> docs/configuration.md`";
}

TEST(SimConfigDocs, EveryRuleIsListedAndNamesOnlyRealKeys) {
    // The docs list each rule from the table its check runs, and an error
    // names the line of each key the rule involves, so every key must exist.
    const std::string markdown = config_markdown();
    for (const auto& rules : {model::rules(), tb::rules()})
        for (const model::ParamRule& rule : rules) {
            EXPECT_NE(markdown.find("- " + rule.requirement + ";\n"), std::string::npos)
                << rule.requirement;
            for (const std::string& key : rule.keys) {
                EXPECT_NE(find_key(key), nullptr) << key;
                EXPECT_NE(rule.requirement.find(key), std::string::npos)
                    << key << " is not in: " << rule.requirement;
            }
        }
}

TEST(SimConfigDocs, ExplainListsEveryKeyWithItsDefault) {
    std::string text = explain_text();
    for (const auto& key : config_keys()) {
        EXPECT_NE(text.find(key.name + "  ("), std::string::npos) << key.name;
        EXPECT_NE(text.find("default " + format_value(key.default_value()) + ";"),
                  std::string::npos)
            << key.name;
    }
}

TEST(SimStatisticsDocs, CheckedInMarkdownEqualsTheGeneratedText) {
    std::string checked_in = test::read_file(DMASIM_SOURCE_DIR "/docs/statistics.md");
    EXPECT_EQ(checked_in, statistics_markdown())
        << "docs/statistics.md is stale: regenerate it with `dmasim stats --markdown "
           "> docs/statistics.md`";
}

TEST(SimStatisticsCatalog, EveryKindOfColumnHasALabelWithItsUnit) {
    EXPECT_EQ(axis_label("throughput_gbps"), "Throughput (GB/s)");
    EXPECT_EQ(axis_label("workload.entries"), "Entries (segments)");
    EXPECT_EQ(axis_label("dma.ch0.descriptor_wait_cycles"),
              "Descriptor wait cycles, channel 0 (cycles)");
    EXPECT_EQ(axis_label("dma.ch12.descriptor_latency_p99_cycles"),
              "Descriptor latency p99 cycles, channel 12 (cycles)");
    EXPECT_EQ(axis_label("bus.read.busy_cycles"), "Busy cycles, the RAM read channel (cycles)");
    EXPECT_EQ(axis_label("phase.ch1.data"), "Data, channel 1 (% of cycles)");
    EXPECT_EQ(axis_label("no.such.column"), "no.such.column");
    EXPECT_FALSE(find_column("dma.chx.bytes"));
}

TEST(SimConfigKeys, DefaultsComeFromSimConfig) {
    tb::SimConfig defaults;
    EXPECT_EQ(std::get<uint64_t>(find_key("workload.entries")->default_value()),
              defaults.workload.entries);
    EXPECT_EQ(std::get<std::string>(find_key("dma.descriptor_format")->default_value()),
              "chained_pages");
}

TEST(SimConfigKeys, EveryDefaultIsAllowedByItsOwnKey) {
    for (const auto& key : config_keys())
        EXPECT_NO_THROW(parse_value(key, format_value(key.default_value()))) << key.name;
}

TEST(SimConfigKeys, NamesAreUnique) {
    for (const auto& key : config_keys()) EXPECT_EQ(find_key(key.name), &key) << key.name;
}

}  // namespace
}  // namespace dmasim::sim
