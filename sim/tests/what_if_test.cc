// what_if_test.cc - the what-if column of the parameter tables: every
// advised row steps a value of its own kind, and a step stays in the
// row's range and is no step when it would change nothing.
#include "what_if.h"

#include <gtest/gtest.h>

namespace dmasim::sim {
namespace {

using Step = model::WhatIf::Step;

const KeyDef& key(const char* name) {
    const KeyDef* k = find_key(name);
    EXPECT_NE(k, nullptr) << name;
    return *k;
}

TEST(WhatIf, EveryAdvisedRowStepsAValueOfItsOwnKind) {
    for (const KeyDef& k : config_keys()) {
        if (k.what_if.step == Step::doubled || k.what_if.step == Step::halved) {
            EXPECT_TRUE(k.type == KeyType::integer || k.type == KeyType::real) << k.name;
        }
        if (k.what_if.step == Step::set_to) {
            EXPECT_NO_THROW(parse_value(k, k.what_if.value)) << k.name;
        }
    }
}

TEST(WhatIf, DoublingStopsAtTheTopOfTheRange) {
    const KeyDef& reads = key("dma.max_outstanding_reads");  // 1 .. 256
    EXPECT_EQ(what_if_value(reads, Value{uint64_t{16}}), Value{uint64_t{32}});
    EXPECT_EQ(what_if_value(reads, Value{uint64_t{200}}), Value{uint64_t{256}});
    EXPECT_EQ(what_if_value(reads, Value{uint64_t{256}}), std::nullopt);
}

TEST(WhatIf, HalvingStopsAtTheBottomOfTheRange) {
    const KeyDef& slot = key("dma.descriptor_bytes");  // 16, 32 or 64
    EXPECT_EQ(what_if_value(slot, Value{uint64_t{64}}), Value{uint64_t{32}});
    EXPECT_EQ(what_if_value(slot, Value{uint64_t{16}}), std::nullopt);
    const KeyDef& latency = key("memory.read_latency_cycles");
    EXPECT_EQ(what_if_value(latency, Value{uint64_t{1}}), Value{uint64_t{0}});
}

TEST(WhatIf, ZeroIsAModeNotASizeSoItIsNotScaled) {
    // dma.descriptor_queue 0 fetches on demand; memory bandwidth 0 is one beat a cycle.
    EXPECT_EQ(what_if_value(key("dma.descriptor_queue"), Value{uint64_t{0}}), std::nullopt);
    EXPECT_EQ(what_if_value(key("memory.bandwidth_bytes_per_cycle"), Value{0.0}), std::nullopt);
    EXPECT_EQ(what_if_value(key("memory.bandwidth_bytes_per_cycle"), Value{3.0}), Value{6.0});
}

TEST(WhatIf, SetToTheValueAlreadyThereIsNoStep) {
    const KeyDef& overlap = key("dma.data_overlap");
    EXPECT_EQ(what_if_value(overlap, Value{false}), Value{true});
    EXPECT_EQ(what_if_value(overlap, Value{true}), std::nullopt);
}

TEST(WhatIf, TheWorkloadItselfIsNotAdvised) {
    EXPECT_EQ(what_if_value(key("workload.entries"), Value{uint64_t{256}}), std::nullopt);
    EXPECT_EQ(what_if_value(key("clock_mhz"), Value{1000.0}), std::nullopt);
}

TEST(WhatIf, KnobsAreGroupedByWhoCanChangeThem) {
    EXPECT_EQ(key("dma.descriptor_prefetch").what_if.group, model::KnobGroup::engine);
    EXPECT_EQ(key("bus.width_bytes").what_if.group, model::KnobGroup::platform);
    EXPECT_EQ(key("memory.read_latency_cycles").what_if.group, model::KnobGroup::platform);
    EXPECT_EQ(key("cpu.irq_handler_cycles").what_if.group, model::KnobGroup::driver);
}

}  // namespace
}  // namespace dmasim::sim
