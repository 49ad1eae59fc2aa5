// strict_input_test.cc - what the loaders refuse (issue 14, rows 1, 13-15,
// 18): YAML aliases that loop or explode, duplicates, extra documents, a
// directory as the file, unknown keys holding empty maps, and the one
// number grammar shared by config files, --set and sweep values. Each of
// these once crashed, hung or was silently accepted; ctest runs the cases
// with a timeout (sim/tests/CMakeLists.txt), so a hang fails too.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "config_loader.h"
#include "number_grammar.h"
#include "strict_yaml.h"
#include "suggest.h"
#include "support.h"
#include "sweep_spec.h"

namespace dmasim::sim {
namespace {

using test::TempDir;

/// The ConfigError loading `yaml` as cfg.yaml (plus --set values) gives,
/// from the file name on; "" if it loads.
std::string config_error(const std::string& yaml, const std::vector<std::string>& sets = {}) {
    TempDir dir;
    try {
        load_config(dir.write("cfg.yaml", yaml), sets);
    } catch (const ConfigError& e) {
        const std::string message = e.what();
        const size_t at = message.find("cfg.yaml");
        return message.substr(at == std::string::npos ? 0 : at);
    }
    return "";
}

/// The same for a sweep file (sweep.yaml) over an empty base config,
/// resolved as `dmasim sweep` does.
std::string sweep_error(const std::string& yaml, uint64_t max_points = kDefaultMaxPoints) {
    TempDir dir;
    dir.write("base.yaml", "");
    try {
        expand_sweep(
            load_sweep(dir.write("sweep.yaml", yaml), dir.path() + "/base.yaml", max_points));
    } catch (const ConfigError& e) {
        const std::string message = e.what();
        const size_t at = message.find("sweep.yaml");
        return message.substr(at == std::string::npos ? 0 : at);
    }
    return "";
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(SimStrictYaml, AliasInsideItsOwnAnchorIsACycle) {
    // Row 1: yaml-cpp builds a cyclic node graph here; walking it recursed
    // until the stack overflowed (SIGSEGV).
    const std::string e = config_error("a: &a {b: *a}\n");
    EXPECT_TRUE(has(e, "cfg.yaml:1: this alias refers to the anchor that contains it")) << e;
    EXPECT_TRUE(has(config_error("workload: &w\n  entries: *w\n"), "cycle"));
}

TEST(SimStrictYaml, CycleReachedThroughASweepIsRefused) {
    EXPECT_TRUE(has(sweep_error("set: &s {workload: *s}\nsweep:\n  workload.entries: [1]\n"),
                    "sweep.yaml:1: this alias refers to the anchor that contains it"));
    TempDir dir;
    dir.write("loop.yaml", "a: &a [*a]\n");
    try {
        expand_sweep(load_sweep(
            dir.write("s.yaml", "base: loop.yaml\nsweep:\n  workload.entries: [1]\n"), ""));
        ADD_FAILURE() << "a base config with an alias cycle was accepted";
    } catch (const ConfigError& e) {
        EXPECT_TRUE(has(e.what(), "loop.yaml:1:")) << e.what();
    }
}

TEST(SimStrictYaml, AliasBombIsStoppedAtTheBudget) {
    // Row 14: maps of ten aliases, ten levels deep, expand to 10^10 empty
    // maps; walking them (no scalar, so no error) never ended.
    std::string yaml = "a0: &a0 {}\n";
    for (int i = 1; i <= 10; ++i) {
        yaml += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " {";
        for (int k = 0; k < 10; ++k)
            yaml += (k ? ", x" : "x") + std::to_string(k) + ": *a" + std::to_string(i - 1);
        yaml += "}\n";
    }
    const std::string e = config_error(yaml);
    // Level k holds 1 + 10 x (key + level k-1) nodes: 1, 21, 221, 2221.
    // Aliases add 10 x 1 + 10 x 21 + 10 x 221 = 2430 nodes on lines 2-4,
    // then 10 x 2221 on line 5 (a4), past the budget of 10^4.
    EXPECT_TRUE(has(e, "cfg.yaml:5: aliases expand to more than 10000 nodes")) << e;
}

TEST(SimStrictYaml, ModestAliasesStillWork) {
    TempDir dir;
    const auto c = load_config(dir.write("cfg.yaml",
                                         "workload:\n  entries: &n 64\n  chain_depth: 2\nmemory:\n"
                                         "  size_mib: *n\n"),
                               {});
    EXPECT_EQ(c.workload.entries, 64u);
    EXPECT_EQ(c.memory_size_mib, 64u);
}

TEST(SimStrictYaml, HugeFileIsRefusedBeforeItIsBuilt) {
    // A flat list of 10^6 + 1 values: yaml-cpp would spend hundreds of
    // bytes per node before any check saw the list.
    std::string yaml = "sweep:\n  workload.seed: [0";
    for (uint64_t i = 0; i < kMaxYamlNodes; ++i) yaml += ",0";
    yaml += "]\n";
    EXPECT_TRUE(has(sweep_error(yaml), "sweep.yaml: more than 1000000 YAML nodes"));
}

TEST(SimStrictYaml, NestingPastTheLimitIsRefusedAtItsLine) {
    // Issue 28, row 6's class: each nested list was a frame of the parser's
    // recursion (and of the loader's walk over maps).
    const size_t levels = 100000;
    EXPECT_TRUE(
        has(config_error("workload: " + std::string(levels, '[') + std::string(levels, ']') + "\n"),
            fmt::format("cfg.yaml:1: lists and maps nested more than {} deep", kMaxYamlDepth)));
    // Maps one line each: the map that passes the limit starts on line
    // kMaxYamlDepth + 1 (line 1 is the top-level map's first key).
    std::string maps;
    for (size_t level = 0; level <= kMaxYamlDepth; ++level)
        maps += std::string(2 * level, ' ') + "a:\n";
    const std::string e = config_error(maps + std::string(2 * (kMaxYamlDepth + 1), ' ') + "b: 1\n");
    EXPECT_TRUE(has(e, fmt::format("cfg.yaml:{}: lists and maps nested more than {} deep",
                                   kMaxYamlDepth + 1, kMaxYamlDepth)))
        << e;
}

TEST(SimStrictYaml, ValueLongerThanTheLimitIsRefusedAtItsLineAndQuotedShort) {
    // Issue 28, row 18: a 60 MB workload.scenario took 36 s to reach
    // "unknown scenario", whose message then quoted all of it.
    const std::string e =
        config_error("workload:\n  scenario: " + std::string(kMaxTextBytes + 1, 'x') + "\n");
    EXPECT_TRUE(
        has(e, fmt::format("cfg.yaml:2: '{}... ({} bytes)' is longer than {} bytes",
                           std::string(kMaxQuotedChars, 'x'), kMaxTextBytes + 1, kMaxTextBytes)))
        << e;
    EXPECT_EQ(config_error("workload:\n  scenario: " + std::string(kMaxTextBytes, 'x') + "\n"),
              "");  // the limit itself loads (the scenario check comes later)
}

TEST(SimStrictYaml, LongValueFromSetIsRefusedNamingTheKey) {
    const std::string value(kMaxTextBytes + 1, 'y');
    const std::string e = config_error("", {"workload.scenario=" + value});
    EXPECT_TRUE(has(e, fmt::format("workload.scenario = '{}... ({} bytes)': longer than {} bytes",
                                   std::string(kMaxQuotedChars, 'y'), value.size(), kMaxTextBytes)))
        << e;
    // The --set argument that names it is quoted short too.
    EXPECT_LT(e.size(), 4 * kMaxQuotedChars + 200) << e;
}

TEST(SimStrictYaml, MessagesQuoteAnExcerptOfLongInput) {
    EXPECT_EQ(excerpt("entries"), "entries");
    EXPECT_EQ(excerpt(std::string(kMaxQuotedChars, 'a')), std::string(kMaxQuotedChars, 'a'));
    EXPECT_EQ(excerpt(std::string(1000, 'a')),
              std::string(kMaxQuotedChars, 'a') + "... (1000 bytes)");
    // A cut never splits a UTF-8 character: the two-byte 'é' at the limit goes whole.
    std::string accents = std::string(kMaxQuotedChars - 1, 'a') + "\xc3\xa9" + "bbb";
    EXPECT_EQ(excerpt(accents), std::string(kMaxQuotedChars - 1, 'a') + "... (" +
                                    std::to_string(accents.size()) + " bytes)");
}

TEST(SimStrictYaml, SuggestionForAHugeWordIsNotQuadratic) {
    // 16 Mi characters against every key: an edit-distance table per key
    // was about 10^11 steps (this case's ctest timeout fails a hang); no
    // key is within a third of its length, so there is no suggestion.
    std::vector<std::string> names;
    for (const auto& key : config_keys()) names.push_back(key.name);
    EXPECT_EQ(closest_match(std::string(16u << 20, 'q'), names), std::nullopt);
}

TEST(SimStrictYaml, MergeKeyIsRefusedByName) {
    // Issue 28: "<<: *d" gave "unknown key 'workload.<<'".
    const std::string e = config_error("x: &d {entries: 4}\nworkload:\n  <<: *d\n");
    EXPECT_TRUE(has(e, "cfg.yaml:3: merge keys ('<<') are not supported")) << e;
    EXPECT_TRUE(has(sweep_error("sweep:\n  <<: {workload.entries: [1]}\n"),
                    "sweep.yaml:2: merge keys ('<<') are not supported"));
}

TEST(SimStrictYaml, DirectoryAsConfigIsNamed) {
    // Row 15: this was "basic_filebuf::underflow ... Is a directory", exit 1.
    TempDir dir;
    try {
        load_config(dir.path(), {});
        ADD_FAILURE() << "a directory was accepted as a config";
    } catch (const ConfigError& e) {
        EXPECT_EQ(std::string(e.what()), dir.path() + ": is a directory, not a config file");
    }
}

TEST(SimStrictYaml, DuplicateKeysAndSectionsNameBothLines) {
    EXPECT_TRUE(has(config_error("workload:\n  entries: 4\n  entries: 8\n"),
                    "cfg.yaml:3: duplicate key 'entries': also at line 2"));
    EXPECT_TRUE(has(config_error("dma:\n  channels: 2\nworkload: {}\ndma:\n  channels: 4\n"),
                    "cfg.yaml:4: duplicate key 'dma': also at line 1"));
    // The same key spelled nested and dotted.
    EXPECT_TRUE(has(config_error("workload:\n  entries: 4\nworkload.entries: 8\n"),
                    "cfg.yaml:3: workload.entries is set twice: also at line 2"));
    EXPECT_TRUE(has(sweep_error("sweep:\n  workload.entries: [1]\nsweep:\n  dma.channels: [1]\n"),
                    "sweep.yaml:3: duplicate key 'sweep': also at line 1"));
}

TEST(SimStrictYaml, SecondDocumentIsAnError) {
    const std::string e = config_error("workload:\n  entries: 4\n---\nworkload:\n  entries: 8\n");
    EXPECT_TRUE(has(e,
                    "cfg.yaml:3: a second YAML document starts here (the first starts at "
                    "line 1)"))
        << e;
}

TEST(SimStrictYaml, UnknownKeyHoldingAnEmptyMapIsAnError) {
    // Row 13: nothing under it was applied, so nothing was checked.
    EXPECT_TRUE(has(config_error("dmaa: {}\n"), "cfg.yaml:1: unknown key 'dmaa'"));
    EXPECT_TRUE(has(config_error("workload: {entires: {}}\n"),
                    "unknown key 'workload.entires', did you mean workload.entries?"));
    EXPECT_EQ(config_error("workload: {}\n"), "");  // a known section may be empty
}

TEST(SimNumberGrammar, IntegersOfTheCoreSchema) {
    // Decimal, 0x hex and 0o octal, optionally signed.
    EXPECT_EQ(parse_number("16").magnitude, 16u);
    EXPECT_EQ(parse_number("+16").magnitude, 16u);
    EXPECT_EQ(parse_number("0x1F").magnitude, 31u);
    EXPECT_EQ(parse_number("0o17").magnitude, 15u);
    EXPECT_EQ(parse_number("0").magnitude, 0u);
    EXPECT_TRUE(parse_number("-3").negative);
    EXPECT_EQ(parse_number("18446744073709551615").magnitude, UINT64_MAX);
    // One past 2^64 - 1 is still an integer, too large for any key.
    EXPECT_FALSE(parse_number("18446744073709551616").magnitude.has_value());
    EXPECT_TRUE(parse_number("18446744073709551616").integral);
}

TEST(SimNumberGrammar, FloatsOfTheCoreSchema) {
    EXPECT_FALSE(parse_number("1.5").integral);
    EXPECT_DOUBLE_EQ(parse_number("1.5").value, 1.5);
    EXPECT_DOUBLE_EQ(parse_number(".5").value, 0.5);
    EXPECT_DOUBLE_EQ(parse_number("5.").value, 5.0);
    EXPECT_DOUBLE_EQ(parse_number("-2.5e-3").value, -0.0025);
    EXPECT_DOUBLE_EQ(parse_number("1E3").value, 1000.0);
    EXPECT_TRUE(std::isinf(parse_number(".inf").value));
    EXPECT_TRUE(std::isnan(parse_number(".nan").value));
}

TEST(SimNumberGrammar, EverythingElseIsRefused) {
    for (const char* text :
         {"",  " 1", "1 ",  "1abc",  "16xyz", "0x",  "0xg",      "0o8",   "1_000", "1e",  "e3",
          ".", "-",  "++1", "0b101", "inf",   "nan", "Infinity", "1.2.3", "0x1p3", "--1", "1e+"}) {
        EXPECT_THROW(parse_number(text), std::invalid_argument) << "'" << text << "'";
    }
}

TEST(SimNumberGrammar, LeadingZeroIsRefusedAsAmbiguous) {
    // Row 18: `017` was read as 17; YAML 1.1 reads it as octal 15.
    for (const char* text : {"017", "-017", "00", "007.5"})
        EXPECT_THROW(parse_number(text), std::invalid_argument) << text;
    EXPECT_TRUE(has(config_error("workload:\n  entries: 017\n"),
                    "cfg.yaml:2: workload.entries = '017': leading zero"));
}

TEST(SimNumberGrammar, EveryNumericKeyTakesTheSameForms) {
    // Row 18: hex worked for real keys (strtod) but not for integer keys.
    TempDir dir;
    const auto c = load_config(dir.write("cfg.yaml", "workload:\n  entries: 0x40\n"),
                               {"memory.size_mib=0o1000", "traffic.bytes_per_cycle=0x10"});
    EXPECT_EQ(c.workload.entries, 64u);
    EXPECT_EQ(c.memory_size_mib, 512u);
    EXPECT_DOUBLE_EQ(c.platform.traffic.bytes_per_cycle, 16.0);
    EXPECT_TRUE(has(config_error("", {"traffic.read_fraction=0.5x"}), "not a number"));
    EXPECT_TRUE(has(config_error("", {"traffic.read_fraction=.nan"}), "not a finite number"));
    EXPECT_TRUE(has(config_error("", {"workload.entries=1e3"}), "not a whole number"));
}

TEST(SimSweepValues, TrailingJunkIsRefusedEverywhere) {
    // Row 18: std::stod read '1abc' as 1 and '16xyz' as 16.
    EXPECT_TRUE(has(sweep_error("sweep:\n  workload.entries: {pow2: ['1abc', '16xyz']}\n"),
                    "sweep.yaml:2: pow2: '1abc': not a number"));
    EXPECT_TRUE(has(sweep_error("sweep:\n  workload.entries: {range: [1, 8, '2x']}\n"),
                    "range: '2x': not a number"));
    EXPECT_TRUE(has(sweep_error("sweep:\n  workload.entries: [4, '8x']\n"),
                    "sweep.yaml:2: workload.entries = '8x': not a number"));
}

TEST(SimSweepValues, FractionalRangeOfAnIntegerKeyIsRefused) {
    // Row 18: {range: [1, 2, 0.5]} gave 1, 2, 2, 2 after rounding each value.
    EXPECT_TRUE(has(sweep_error("sweep:\n  workload.entries: {range: [1, 2, 0.5]}\n"),
                    "range of an integer key takes whole numbers"));
    EXPECT_TRUE(has(sweep_error("sweep:\n  workload.entries: {range: [1.5, 4, 1]}\n"),
                    "range of an integer key takes whole numbers"));
    // Real keys keep fractional steps.
    EXPECT_EQ(sweep_error("sweep:\n  traffic.read_fraction: {range: [0, 1, 0.25]}\n"), "");
}

TEST(SimSweepPoints, PointCountCannotOverflowAndIsCapped) {
    // Row 10: four axes of 65,536 values made 2^64 points, counted as 0.
    const std::string axis = ": {range: [1, 65536, 1]}\n";
    const std::string e = sweep_error("sweep:\n  workload.seed" + axis + "  traffic.seed" + axis +
                                      "  workload.entries" + axis + "  dma.max_chain_depth" + axis);
    // 65,536 values fit under the default cap of 100,000; a second axis
    // may then have at most 100,000 / 65,536 = 1 value.
    EXPECT_TRUE(has(e, "sweep.yaml:3: more than 1 values")) << e;
    EXPECT_TRUE(has(e, "--max-points")) << e;
    EXPECT_TRUE(
        has(sweep_error("sweep:\n  workload.entries: [1, 2, 3]\n", 2), "more than 2 values"));
    // Every value form counts: pow2 [1, 65536] has 17 values (found by
    // scripts/config-mutate, which saw 17 points run under --max-points 4).
    EXPECT_TRUE(has(sweep_error("sweep:\n  workload.entries: {pow2: [1, 65536]}\n", 4),
                    "more than 4 values"));
    EXPECT_TRUE(has(sweep_error("sweep:\n  workload.entries: {range: [1, 5, 1]}\n", 4),
                    "more than 4 values"));
    EXPECT_EQ(sweep_error("sweep:\n  workload.entries: [1, 2]\n  dma.channels: [1, 2]\n", 4), "");
}

TEST(SimSweepPoints, HugeAxisFailsBeforeItIsBuilt) {
    // Three axes of 10^6 values reached 5.3 GB before; the range is counted
    // before any value is made, so this fails at once.
    const std::string e =
        sweep_error("sweep:\n  workload.seed: {range: [0, 18446744073709551615, 1]}\n");
    EXPECT_TRUE(has(e, "more than 100000 values")) << e;
}

TEST(SimSweepPoints, CheckFailingOnUnsweptKeysFailsTheSweep) {
    // Row 16 (sweep side): a cross-key check that involves no swept key
    // fails every point alike, so the sweep is refused up front.
    const std::string e = sweep_error(
        "set:\n  workload.entries: 2\n  workload.chain_depth: 4\n"
        "sweep:\n  dma.channels: [1, 2]\n");
    EXPECT_TRUE(has(e, "workload.chain_depth = 4 must be at most workload.entries = 2")) << e;
    // ... while one that involves a swept key only skips its points.
    TempDir dir;
    dir.write("base.yaml", "");
    const auto points = expand_sweep(load_sweep(
        dir.write("s.yaml",
                  "set:\n  workload.entries: 2\nsweep:\n  workload.chain_depth: [1, 4]\n"),
        dir.path() + "/base.yaml"));
    ASSERT_EQ(points.size(), 2u);
    EXPECT_TRUE(points[0].skipped.empty());
    EXPECT_TRUE(has(points[1].skipped, "must be at most workload.entries"));
}

TEST(SimSweepPoints, ExtraCheckSeesEveryPoint) {
    TempDir dir;
    dir.write("base.yaml", "");
    const auto spec = load_sweep(
        dir.write("s.yaml", "set:\n  workload.scenario: nope\nsweep:\n  dma.channels: [1, 2]\n"),
        dir.path() + "/base.yaml");
    const PointCheck refuse_nope = [](const ConfigBuilder& b) {
        if (b.config().workload.scenario == "nope")
            throw ConfigError(b.origin({"workload.scenario"}), "unknown scenario",
                              {"workload.scenario"});
    };
    try {
        expand_sweep(spec, refuse_nope);
        ADD_FAILURE() << "a check failing on a key set under set: only skipped points";
    } catch (const ConfigError& e) {
        EXPECT_TRUE(has(e.what(), "s.yaml:2: unknown scenario")) << e.what();
    }
}

}  // namespace
}  // namespace dmasim::sim
