// The model's parameter table (param_rows.h): every row reads and writes
// its own field, its default lies in its range, and an embedder that calls
// model::validate() gets the range problems the command line prints.
#include <dmasim/model/params.h>
#include <gtest/gtest.h>

#include <set>

namespace dmasim::model {
namespace {

using Row = ParamDef<PlatformParams>;

TEST(ModelParamTable, KeysAreUnique) {
    std::set<std::string> seen;
    for (const Row& row : param_table()) EXPECT_TRUE(seen.insert(row.key).second) << row.key;
    EXPECT_GT(seen.size(), 50u);
}

TEST(ModelParamTable, EveryDefaultLiesInItsRowsRange) {
    const PlatformParams defaults;
    const auto problems = range_problems(param_table(), defaults, [](const Row&) { return true; });
    for (const ParamProblem& p : problems) ADD_FAILURE() << p.message;
    for (const Row& row : param_table()) {
        if (row.kind != ParamKind::choice) continue;
        EXPECT_NE(std::get<std::string>(row.get(defaults)), "?") << row.key;
    }
}

/// A value of `row` other than its default, within its range.
ParamValue other_value(const Row& row, const ParamValue& now) {
    switch (row.kind) {
        case ParamKind::integer: {
            const uint64_t v = std::get<uint64_t>(now);
            return ParamValue{v == row.int_range.max ? row.int_range.min : row.int_range.max};
        }
        case ParamKind::real: {
            const double v = std::get<double>(now);
            return ParamValue{v == row.real_range.max ? row.real_range.min : row.real_range.max};
        }
        case ParamKind::boolean:
            return ParamValue{!std::get<bool>(now)};
        case ParamKind::choice:
            return ParamValue{row.choices.front() == std::get<std::string>(now) ? row.choices.back()
                                                                               : row.choices.front()};
        case ParamKind::text:
            break;
    }
    return now;
}

// A row bound to the wrong member (a copy-pasted path) would change another
// row's value, or not its own.
TEST(ModelParamTable, EachRowWritesItsOwnFieldAndNoOther) {
    for (const Row& row : param_table()) {
        PlatformParams p;
        const ParamValue before = row.get(p);
        const ParamValue wanted = other_value(row, before);
        ASSERT_NE(wanted, before) << row.key;
        row.set(p, wanted);
        EXPECT_EQ(row.get(p), wanted) << row.key;
        const PlatformParams untouched;
        for (const Row& other : param_table()) {
            if (other.key == row.key) continue;
            EXPECT_EQ(other.get(p), other.get(untouched)) << row.key << " changed " << other.key;
        }
    }
}

// dma.buffer_bytes had its range only in the command line's key table: a
// program embedding the controller got no check at all.
TEST(ModelParamTable, EmbedderGetsTheRangeProblemTheCommandLinePrints) {
    PlatformParams p;
    p.dma.buffer_bytes = 0;
    p.memory.read_latency_cycles = 2000000;
    const auto problems = validate(p);
    auto has = [&](const std::string& message) {
        for (const ParamProblem& q : problems)
            if (q.message == message) return true;
        return false;
    };
    EXPECT_TRUE(has("dma.buffer_bytes = 0 is outside 1 .. 16777216"));
    EXPECT_TRUE(has("memory.read_latency_cycles = 2000000 is outside 0 .. 1000000"));
}

}  // namespace
}  // namespace dmasim::model
