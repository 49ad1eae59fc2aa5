// config_loader_test.cc - YAML and --set into SimConfig: types, ranges,
// cross-key checks and the messages users see.
#include "config_loader.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "config_docs.h"
#include "report.h"
#include "support.h"

namespace dmasim::sim {
namespace {

using test::TempDir;

/// Loads `yaml` (written to a temp file named cfg.yaml) plus --set values.
tb::SimConfig load_text(const TempDir& dir, const std::string& yaml,
                        const std::vector<std::string>& sets = {}) {
    return load_config(dir.write("cfg.yaml", yaml), sets);
}

/// The message of the ConfigError loading `yaml` throws ("" if none).
std::string error_of(const std::string& yaml, const std::vector<std::string>& sets = {}) {
    TempDir dir;
    try {
        load_text(dir, yaml, sets);
    } catch (const ConfigError& e) {
        std::string message = e.what();
        // Tests match on the file's base name; the temp dir differs per run.
        return message.substr(
            message.find("cfg.yaml") == std::string::npos ? 0 : message.find("cfg.yaml"));
    }
    return "";
}

TEST(SimConfigLoader, EmptyFileKeepsEveryDefault) {
    TempDir dir;
    EXPECT_EQ(config_to_json(load_text(dir, "")), config_to_json(tb::SimConfig{}));
}

TEST(SimConfigLoader, NestedAndFlatKeysSetTheSameField) {
    TempDir dir;
    auto nested = load_text(dir, "dma:\n  max_outstanding_reads: 4\n");
    auto flat = load_text(dir, "dma.max_outstanding_reads: 4\n");
    EXPECT_EQ(nested.platform.dma.max_outstanding_reads, 4u);
    EXPECT_EQ(flat.platform.dma.max_outstanding_reads, 4u);
}

// dma.descriptor_overlap became dma.data_overlap (model::kRenamedKeys):
// configs written for the old name still set the field, from a file, a
// --set and a sweep alike (find_key resolves it).
TEST(SimConfigLoader, OldNameOfARenamedKeyStillSetsIt) {
    TempDir dir;
    EXPECT_FALSE(load_text(dir, "dma:\n  descriptor_overlap: false\n").platform.dma.data_overlap);
    EXPECT_FALSE(load_text(dir, "", {"dma.descriptor_overlap=false"}).platform.dma.data_overlap);
    ASSERT_NE(find_key("dma.descriptor_overlap"), nullptr);
    EXPECT_EQ(find_key("dma.descriptor_overlap")->name, "dma.data_overlap");
}

TEST(SimConfigLoader, OldAndNewNameInOneFileAreOneKeySetTwice) {
    EXPECT_EQ(error_of("dma:\n  data_overlap: true\n  descriptor_overlap: false\n"),
              "cfg.yaml:3: dma.descriptor_overlap is set twice: also at line 2 "
              "(dma.descriptor_overlap is the old name of dma.data_overlap)");
}

TEST(SimConfigLoader, ChoiceBoolAndRealKeysAreParsed) {
    TempDir dir;
    auto c = load_text(dir,
                       "dma:\n  descriptor_format: linked_list\n  data_overlap: false\n"
                       "clock_mhz: 1562.5\nworkload:\n  direction: dev_to_mem\n");
    EXPECT_EQ(c.descriptor_format, DMA_HW_FMT_LINKED_LIST);
    EXPECT_FALSE(c.platform.dma.data_overlap);
    EXPECT_DOUBLE_EQ(c.platform.clock_mhz, 1562.5);  // 640 ps
    EXPECT_EQ(c.workload.direction, DMA_HW_DEV_TO_MEM);
}

TEST(SimConfigLoader, UnknownKeyNamesFileLineAndClosestKey) {
    std::string e = error_of("workload:\n  entries: 8\ndma:\n  max_outstanding_read: 4\n");
    EXPECT_NE(e.find("cfg.yaml:4:"), std::string::npos) << e;
    EXPECT_NE(e.find("did you mean dma.max_outstanding_reads?"), std::string::npos) << e;
}

TEST(SimConfigLoader, KeyUnderWrongSectionSuggestsItsHome) {
    std::string e = error_of("max_burst_beats: 8\n");
    EXPECT_NE(e.find("did you mean dma.max_burst_beats?"), std::string::npos) << e;
}

TEST(SimConfigLoader, OutOfRangeValueNamesKeyValueAndRange) {
    std::string e = error_of("clock_mhz: 800\ndma:\n  max_burst_beats: 1000\n");
    EXPECT_NE(e.find("cfg.yaml:3:"), std::string::npos) << e;
    EXPECT_NE(e.find("dma.max_burst_beats = '1000'"), std::string::npos) << e;
    EXPECT_NE(e.find("1 .. 256"), std::string::npos) << e;
}

TEST(SimConfigLoader, WrongTypeIsRejected) {
    EXPECT_NE(error_of("workload:\n  entries: many\n").find("not a number"), std::string::npos);
    EXPECT_NE(error_of("workload:\n  entries: 2.5\n").find("not a whole number"),
              std::string::npos);
    EXPECT_NE(error_of("workload:\n  entries: -3\n").find("out of range"), std::string::npos);
    EXPECT_NE(error_of("dma:\n  data_overlap: maybe\n").find("not a boolean"),
              std::string::npos);
    EXPECT_NE(error_of("workload:\n  entries: [1, 2]\n").find("needs a single value"),
              std::string::npos);
}

TEST(SimConfigLoader, OnlyYaml12BooleansAreAccepted) {
    // Issue 28: YAML 1.1's yes/on/No were accepted, against the YAML 1.2
    // rule numbers follow (docs/configuration.md, "Numbers").
    TempDir dir;
    EXPECT_TRUE(load_text(dir, "dma.data_overlap: True\n").platform.dma.data_overlap);
    EXPECT_FALSE(load_text(dir, "dma.data_overlap: FALSE\n").platform.dma.data_overlap);
    for (const char* yes : {"yes", "on", "Y"})
        EXPECT_NE(error_of(std::string("dma.data_overlap: ") + yes + "\n")
                      .find(fmt::format("cfg.yaml:1: dma.data_overlap = '{}': a YAML 1.1 "
                                        "boolean: write true",
                                        yes)),
                  std::string::npos)
            << yes;
    EXPECT_NE(error_of("", {"dma.data_overlap=No"}).find("write false"), std::string::npos);
    EXPECT_NE(error_of("dma.data_overlap: maybe\n").find("write true or false"),
              std::string::npos);
}

TEST(SimConfigLoader, MisspeltChoiceSuggestsTheValue) {
    std::string e = error_of("dma:\n  descriptor_format: chained_page\n");
    EXPECT_NE(e.find("did you mean chained_pages?"), std::string::npos) << e;
    EXPECT_NE(e.find("chained_pages, linked_list"), std::string::npos) << e;
}

TEST(SimConfigLoader, BusWidthMustBeAPowerOfTwo) {
    EXPECT_NE(error_of("bus:\n  width_bytes: 24\n").find("not a power of two"), std::string::npos);
}

TEST(SimConfigLoader, MalformedYamlReportsFileAndLine) {
    // Line 3 opens a flow sequence that is never closed.
    std::string e = error_of("clock_mhz: 800\ndma:\n  channels: [1, 2\n  max_burst_beats: 4\n");
    EXPECT_EQ(e.rfind("cfg.yaml:", 0), 0u) << e;
    EXPECT_NE(e.find("YAML syntax error"), std::string::npos) << e;
    int line = std::stoi(e.substr(std::string("cfg.yaml:").size()));
    EXPECT_GE(line, 3) << e;
}

// Validation, not the run, refuses a list the IOMMU's two levels cannot
// map ([2 MiB, 1 GiB) of IOVA for 1.25 GiB), naming the keys.
TEST(SimConfigLoader, ListBeyondTheIoAddressSpaceIsRefusedNamingWalkLevels) {
    const std::string e =
        error_of("", {"iommu.enabled=true", "iommu.walk_levels=2", "memory.size_mib=2048",
                      "workload.direction=dev_to_mem", "workload.entries=320",
                      "workload.segment_bytes=4MiB", "workload.chain_depth=1"});
    EXPECT_NE(e.find("iommu.walk_levels"), std::string::npos) << e;
    EXPECT_NE(e.find("I/O virtual address space"), std::string::npos) << e;
    EXPECT_EQ(error_of("", {"iommu.enabled=true", "iommu.walk_levels=3", "memory.size_mib=2048",
                            "workload.direction=dev_to_mem", "workload.entries=320",
                            "workload.segment_bytes=4MiB", "workload.chain_depth=1"}),
              "");
}

TEST(SimConfigLoader, MissingFileIsAConfigError) {
    EXPECT_THROW(load_config("/nonexistent/dmasim.yaml", {}), ConfigError);
}

TEST(SimConfigLoader, SetOverridesAValueFromTheFile) {
    TempDir dir;
    auto c = load_text(dir, "workload:\n  entries: 64\n", {"workload.entries=128"});
    EXPECT_EQ(c.workload.entries, 128u);
}

TEST(SimConfigLoader, SetErrorsNameTheAssignment) {
    std::string e = error_of("", {"dma.channels=99"});
    EXPECT_NE(e.find("--set dma.channels=99"), std::string::npos) << e;
    EXPECT_NE(e.find("1 .. 16"), std::string::npos) << e;
    EXPECT_NE(error_of("", {"dma.channels"}).find("expected KEY=VALUE"), std::string::npos);
    EXPECT_NE(error_of("", {"dma.chanels=2"}).find("did you mean dma.channels?"),
              std::string::npos);
}

TEST(SimConfigLoader, SectionGivenAValueIsExplained) {
    EXPECT_NE(error_of("dma: 4\n").find("'dma' is a section"), std::string::npos);
}

TEST(SimConfigValidate, ChainDepthMayEqualEntries) {
    TempDir dir;
    auto c = load_text(dir, "workload:\n  entries: 8\n  chain_depth: 8\n");
    EXPECT_EQ(c.workload.chain_depth, 8u);
}

TEST(SimConfigValidate, ChainDepthAboveEntriesIsRejectedAtItsLine) {
    std::string e = error_of("workload:\n  entries: 8\n  chain_depth: 9\n");
    EXPECT_NE(e.find("cfg.yaml:3:"), std::string::npos) << e;
    EXPECT_NE(e.find("workload.chain_depth = 9 must be at most workload.entries = 8"),
              std::string::npos)
        << e;
}

TEST(SimConfigValidate, ChainDepthZeroIsOutOfRange) {
    EXPECT_NE(error_of("workload:\n  chain_depth: 0\n").find("out of range"), std::string::npos);
}

TEST(SimConfigValidate, OffsetMustStayInsideThePage) {
    EXPECT_NE(error_of("workload:\n  offset: 4096\n").find("0 .. 4095"), std::string::npos);
}

TEST(SimConfigValidate, UniformBoundsMustBeOrderedOnlyWhenUniform) {
    const std::string bounds = "  segment_bytes_min: 900\n  segment_bytes_max: 100\n";
    EXPECT_NE(error_of("workload:\n  segment_distribution: uniform\n" + bounds)
                  .find("segment_bytes_min = 900 must be at most"),
              std::string::npos);
    EXPECT_EQ(error_of("workload:\n  segment_distribution: fixed\n" + bounds), "");
}

TEST(SimConfigValidate, BufferMustHoldTwoBursts) {
    // 16 beats x 16 bytes = 256 bytes per burst; the model needs two.
    std::string yaml = "bus: {width_bytes: 16}\ndma: {max_burst_beats: 16, buffer_bytes: ";
    EXPECT_NE(error_of(yaml + "511}\n").find("must hold two bursts of 256 bytes"),
              std::string::npos);
    EXPECT_EQ(error_of(yaml + "512}\n"), "");
}

TEST(SimConfigValidate, FaultChannelMustExist) {
    const std::string yaml = "dma: {channels: 2}\nfault: {kind: data, channel: ";
    EXPECT_NE(error_of(yaml + "2}\n").find("fault.channel = 2 names no channel"),
              std::string::npos);
    EXPECT_EQ(error_of(yaml + "1}\n"), "");
}

TEST(SimConfigValidate, BuffersMustFitInMemory) {
    // 4 MiB is 1024 pages. mem_to_mem needs two buffers of one page per
    // entry, and the one descriptor chunk (chain_depth 1) takes a
    // power-of-two block of pages: 510 x 32 B = 16320 B is 4 pages, so
    // 2 x 510 + 4 = 1024 pages fit; 511 entries need 2 x 511 + 4 = 1026.
    std::string yaml =
        "memory: {size_mib: 4}\nworkload: {direction: mem_to_mem, "
        "segment_bytes: 4096, entries: ";
    EXPECT_EQ(error_of(yaml + "510}\n"), "");
    EXPECT_NE(error_of(yaml + "511}\n").find("raise memory.size_mib"), std::string::npos);
}

TEST(SimConfigValidate, CrossKeyErrorsPointAtTheKeyTheUserWrote) {
    // Only segment_bytes is set: 256 default entries x 2 buffers x 4 pages
    // of 16 KiB, plus a descriptor chunk of 256 x 32 B = 2 pages, is 2050
    // pages, just over 8 MiB (rounded up: 9) and no fit for 4 MiB; the
    // error names the --set.
    std::string e = error_of("memory.size_mib: 4\n", {"workload.segment_bytes=16384"});
    EXPECT_NE(e.find("--set workload.segment_bytes=16384:"), std::string::npos) << e;
    EXPECT_NE(e.find("need 9 MiB"), std::string::npos) << e;
}

TEST(SimConfigValidate, CrossKeyErrorNamesTheSetThatBrokeItNotTheFile) {
    // Issue 28: the file sets entries and segment_bytes (lines 1, 2), which
    // fit in the default memory; --set memory.size_mib=1 breaks the rule,
    // and the error pointed at the file's segment_bytes line instead.
    std::string e =
        error_of("workload.entries: 256\nworkload.segment_bytes: 4096\n", {"memory.size_mib=1"});
    EXPECT_EQ(e.rfind("--set memory.size_mib=1: ", 0), 0u) << e;
    // Within one file, the line set last (entries, line 2) is named.
    e = error_of("memory.size_mib: 1\nworkload.entries: 512\n");
    EXPECT_EQ(e.rfind("cfg.yaml:2: ", 0), 0u) << e;
}

TEST(SimConfigLoader, ShippedConfigsLoad) {
    for (const char* name : {"default.yaml", "simple-serial-engine.yaml"})
        EXPECT_NO_THROW(load_config(std::string(DMASIM_SOURCE_DIR "/configs/") + name, {})) << name;
}

TEST(SimResolvedYaml, LoadsBackToTheSameConfig) {
    TempDir dir;
    auto original = load_text(dir,
                              "workload: {scenario: \"odd: name\", entries: 77, chain_depth: 7}\n"
                              "clock_mhz: 312.5\ndma: {descriptor_fetch: word}\n");
    auto reloaded = load_config(dir.write("resolved.yaml", resolved_yaml(original)), {});
    EXPECT_EQ(config_to_json(reloaded), config_to_json(original));
}

}  // namespace
}  // namespace dmasim::sim
