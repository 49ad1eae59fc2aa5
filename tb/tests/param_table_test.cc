// The testbench's parameter table: every key once, the model's rows lifted
// into SimConfig, sections in documentation order, and its own ranges
// checked by tb::validate() as the command line checks them.
#include <dmasim/tb/validate.h>
#include <gtest/gtest.h>

#include <set>

namespace dmasim::tb {
namespace {

TEST(TbParamTable, HoldsEveryModelRowAndItsOwnOnceEach) {
    std::set<std::string> keys;
    for (const auto& row : param_table()) EXPECT_TRUE(keys.insert(row.key).second) << row.key;
    EXPECT_EQ(keys.size(), model::param_table().size() + testbench_rows().size());
    for (const auto& row : model::param_table()) EXPECT_TRUE(keys.count(row.key)) << row.key;
}

// A model row lifted into SimConfig writes the platform's field.
TEST(TbParamTable, LiftedRowsWriteThePlatform) {
    for (const auto& row : param_table()) {
        if (row.key != "dma.max_burst_beats") continue;
        SimConfig c;
        row.set(c, model::ParamValue{uint64_t{64}});
        EXPECT_EQ(c.platform.dma.max_burst_beats, 64u);
        return;
    }
    FAIL() << "dma.max_burst_beats is not in the table";
}

// Keys of one section stay together, so docs/configuration.md has one
// table per section.
TEST(TbParamTable, SectionsAreContiguous) {
    std::set<std::string> closed;
    std::string current;
    for (const auto& row : param_table()) {
        const std::string section = row.key.substr(0, row.key.find('.'));
        if (section == current) continue;
        EXPECT_FALSE(closed.count(section)) << section << " appears twice, at " << row.key;
        closed.insert(current);
        current = section;
    }
}

// cpu.* and memory.size_mib had their ranges only in the command line's
// key table.
TEST(TbParamTable, ValidateChecksTheTestbenchsOwnRanges) {
    SimConfig c;
    c.cpu.irq_handler_cycles = 2000000;
    c.memory_size_mib = 0;
    std::set<std::string> messages;
    for (const auto& p : validate(c)) messages.insert(p.message);
    EXPECT_TRUE(messages.count("cpu.irq_handler_cycles = 2000000 is outside 0 .. 1000000"));
    EXPECT_TRUE(messages.count("memory.size_mib = 0 is outside 1 .. 65536"));
}

}  // namespace
}  // namespace dmasim::tb
