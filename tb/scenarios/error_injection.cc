// error_injection.cc - one malformed transfer per error class. Each must
// stop its channel with its own error code and an interrupt, and leave
// every byte outside the transfer unchanged: the source, the bytes around
// the destination segments, and a canary transfer that never runs.
// Integrity passes only if every check held. Injected transfers are not
// measured; instead each error class adds two scenario results, NAME.code
// (the error code the channel reported; the expected one is in the
// description) and NAME.held (1 if every check of that class held).
#include <dmasim/driver/dmasim_dma.h>
#include <dmasim/tb/scenario.h>
#include <fmt/format.h>

#include <algorithm>
#include <type_traits>

namespace {

using dmasim::tb::ScenarioBench;
using dmasim::tb::Transfer;
using dmasim::tb::WorkloadConfig;

bool linked(const dmasim_xfer& x) { return x.spec.format == DMA_HW_FMT_LINKED_LIST; }

// The fields an injection edits, in every descriptor layout (dma_hw.h):
// compact slots hold 32-bit addresses and 16-bit flags. The next chunk's
// address is `src` of a chain slot, or `next` in a linked list.
enum class Field { src, next_link, length, flag_bits };

template <typename Desc>
auto& link_field(Desc* d) {
    if constexpr (std::is_same_v<Desc, dma_hw_desc> || std::is_same_v<Desc, dma_hw_desc16>)
        return d->src;
    else
        return d->next;
}

template <typename Desc>
void edit_as(void* slot, Field f, uint64_t value) {
    auto* d = static_cast<Desc*>(slot);
    using Addr = std::remove_reference_t<decltype(d->src)>;
    using Flags = decltype(d->flags);
    switch (f) {
        case Field::src:
            d->src = static_cast<Addr>(value);
            break;
        case Field::next_link:
            link_field(d) = static_cast<Addr>(value);
            break;
        case Field::length:
            d->length = static_cast<uint32_t>(value);
            break;
        case Field::flag_bits:
            d->flags = static_cast<Flags>(d->flags | value);
            break;
    }
}

// The 64-byte layouts start with the 32/48-byte ones; the 32-byte in-slot
// linked layout is its own.
void edit(dmasim_xfer& x, unsigned chunk, unsigned slot, Field f, uint64_t value) {
    void* p = dmasim_xfer_desc(&x, chunk, slot);
    const bool compact = x.spec.desc_bytes == DMA_HW_DESC16_SIZE;
    const dma_hw_layout layout = dmasim_desc_layout(&x.spec);
    if (dma_hw_layout_is_ll32(&layout))
        edit_as<dma_hw_ll_desc32>(p, f, value);
    else if (linked(x))
        compact ? edit_as<dma_hw_ll_desc24>(p, f, value) : edit_as<dma_hw_ll_desc>(p, f, value);
    else
        compact ? edit_as<dma_hw_desc16>(p, f, value) : edit_as<dma_hw_desc>(p, f, value);
}

// Edits the descriptor that links chunk `chunk` to the next one.
void edit_link(dmasim_xfer& x, unsigned chunk, uint64_t target) {
    const unsigned last = x.chunks[chunk].nr_desc;
    edit(x, chunk, linked(x) ? last - 1 : last, Field::next_link, target);
}

// Past the end of simulated RAM, so outside memory for any access.
uint64_t outside_memory(uint64_t memory_bytes) { return memory_bytes + 0x1000; }

uint64_t outside_memory(const ScenarioBench& bench) { return outside_memory(bench.memory_bytes()); }

// Flag bit 15 means nothing to the controller (and fits compact flags).
constexpr uint32_t kUnknownFlag = 0x8000u;
static_assert((kUnknownFlag & DMA_DESC_FLAGS_VALID) == 0);

uint64_t one_chunk(ScenarioBench&) { return 1; }

uint64_t two_chunks(ScenarioBench&) { return 2; }

// One more chain link than the walker follows.
uint64_t past_max_depth(ScenarioBench& bench) {
    return uint64_t{bench.platform().params().dma.max_chain_depth} + 2;
}

struct Case {
    const char* name;
    const char* result;  ///< name of its scenario results
    unsigned expected;
    uint64_t (*depth)(ScenarioBench& bench);  ///< chunks the list needs at least
    void (*inject)(ScenarioBench& bench, Transfer& t);
};

void zero_length(ScenarioBench&, Transfer& t) { edit(t.xfer(), 0, 0, Field::length, 0); }

void descriptor_outside(ScenarioBench& bench, Transfer& t) { t.xfer().head = outside_memory(bench); }

void data_outside(ScenarioBench& bench, Transfer& t) {
    edit(t.xfer(), 0, 0, Field::src, outside_memory(bench));
}

void chain_loop(ScenarioBench&, Transfer& t) {
    dmasim_xfer& x = t.xfer();
    edit_link(x, x.nr_chunks - 2, dmasim_xfer_desc_bus(&x, 0, 0));
}

void bad_flags(ScenarioBench&, Transfer& t) { edit(t.xfer(), 0, 0, Field::flag_bits, kUnknownFlag); }

void too_deep(ScenarioBench&, Transfer&) {
    // The list itself is the fault: it has more chunks than the walker allows.
}

const Case kCases[] = {
    {"zero length", "zero_length", DMA_ERR_ZERO_LENGTH, one_chunk, zero_length},
    {"descriptor address outside memory", "descriptor_address", DMA_ERR_DESC_ADDRESS, one_chunk,
     descriptor_outside},
    {"data address outside memory", "data_address", DMA_ERR_DATA_ADDRESS, one_chunk, data_outside},
    {"chain loop", "chain_loop", DMA_ERR_CHAIN_LOOP, two_chunks, chain_loop},
    {"bad flags", "bad_flags", DMA_ERR_BAD_DESCRIPTOR, one_chunk, bad_flags},
    {"chain deeper than dma.max_chain_depth", "too_deep", DMA_ERR_CHAIN_LOOP, past_max_depth,
     too_deep},
};

// The configured list, from memory to memory, with at least `depth`
// chunks (and entries enough to hold them).
WorkloadConfig workload_with_depth(WorkloadConfig w, uint64_t depth, uint64_t seed) {
    w.direction = DMA_HW_MEM_TO_MEM;
    w.chain_depth = std::max(w.chain_depth, depth);
    w.entries = std::max(w.entries, w.chain_depth);
    w.seed = seed;
    return w;
}

/// Checks one error class and reports what it checked as scenario results.
void expect_error(ScenarioBench& bench, const Transfer& t, const char* name, const char* result,
                  unsigned expected) {
    const bool code = bench.expect((t.status() & DMA_STATUS_ERROR) && t.error() == expected, [&] {
        return fmt::format("{}: channel status {:#x} has error {}, expected {}", name, t.status(),
                           dmasim_error_name(t.error()), dmasim_error_name(expected));
    });
    const bool untouched = bench.check_untouched(t);
    bench.add_result(fmt::format("{}.code", result), t.error(), "error code",
                     fmt::format("{}: error code reported, expected {} ({})", name, expected,
                                 dmasim_error_name(expected)));
    bench.add_result(fmt::format("{}.held", result), code && untouched ? 1 : 0, "",
                     fmt::format("{}: 1 if the channel stopped with {}, an interrupt and every "
                                 "byte outside the transfer unchanged",
                                 name, dmasim_error_name(expected)));
}

void run_case(ScenarioBench& bench, const Case& c, uint64_t seed) {
    Transfer& t = bench.prepare(workload_with_depth(bench.config().workload, c.depth(bench), seed));
    bench.exclude_from_measurement(t);
    c.inject(bench, t);
    bench.run(t);
    expect_error(bench, t, c.name, c.result, c.expected);
    bench.release(t);
}

void run_abort(ScenarioBench& bench, uint64_t seed) {
    Transfer& t = bench.prepare(workload_with_depth(bench.config().workload, 1, seed));
    bench.exclude_from_measurement(t);
    bench.start(t);
    bench.abort(t);
    bench.wait(t);
    expect_error(bench, t, "abort (the list must be long enough to still run)", "abort",
                 DMA_ERR_ABORTED);
    bench.release(t);
}

}  // namespace

// The "chain deeper than dma.max_chain_depth" case builds a list of
// max_chain_depth + 2 chunks (at least one entry, so one page of source and
// one of destination, each); one that cannot fit simulated memory is
// refused before anything runs, naming the key that makes it that long.
// Its checks are about memory, and it breaks lists on purpose (traits).
DMASIM_SCENARIO_CHECK(error_injection, dmasim::tb::kChecksMemory | dmasim::tb::kInjectsErrors) {
    // Its address cases expect the bus to see physical addresses.
    if (config.platform.iommu.enabled)
        return dmasim::tb::ScenarioRefusal{
            "error_injection writes physical addresses outside memory into descriptors; behind "
            "an IOMMU they would be IOVAs that fault with TRANSLATION instead: set "
            "iommu.enabled = false (bus_fault with fault.kind = translation tests the IOMMU)",
            {"iommu.enabled", "workload.scenario"}};
    // Compact descriptors hold 32-bit data addresses: with RAM up to 4 GiB
    // no address outside it fits, and a cut one would land inside RAM.
    if (config.platform.dma.descriptor_bytes == DMA_HW_DESC16_SIZE &&
        outside_memory(config.memory_size_mib << 20) > UINT32_MAX)
        return dmasim::tb::ScenarioRefusal{
            fmt::format("error_injection writes a data address outside memory into a descriptor, "
                        "but dma.descriptor_bytes = 16 holds 32-bit addresses and memory.size_mib "
                        "= {} leaves none of them outside RAM: use memory.size_mib <= {} or "
                        "dma.descriptor_bytes = 32 or 64",
                        config.memory_size_mib, (UINT32_MAX - outside_memory(0)) >> 20),
            {"dma.descriptor_bytes", "memory.size_mib", "workload.scenario"}};
    const uint64_t chunks = uint64_t{config.platform.dma.max_chain_depth} + 2;
    const uint64_t entries = std::max(config.workload.entries, chunks);
    const uint64_t pages_needed = 2 * entries;
    const uint64_t pages = config.memory_size_mib * ((1u << 20) / PAGE_SIZE);
    if (pages_needed <= pages) return std::nullopt;
    return dmasim::tb::ScenarioRefusal{
        fmt::format("error_injection overruns the walker with a list of dma.max_chain_depth + 2 "
                    "= {} chunks, which needs at least {} MiB of pages but memory.size_mib is "
                    "{}: lower dma.max_chain_depth or raise memory.size_mib",
                    chunks, (pages_needed * PAGE_SIZE + (1u << 20) - 1) >> 20,
                    config.memory_size_mib),
        {"dma.max_chain_depth", "memory.size_mib", "workload.scenario"}};
}

// The canary, and one case at a time: the deepest is the longest list.
DMASIM_SCENARIO_FOOTPRINT(error_injection) {
    const WorkloadConfig& w = config.workload;
    const uint64_t deepest = uint64_t{config.platform.dma.max_chain_depth} + 2;
    return {workload_with_depth(w, 1, w.seed), workload_with_depth(w, deepest, w.seed)};
}

DMASIM_SCENARIO(error_injection) {
    const uint64_t seed = bench.config().workload.seed;
    Transfer& canary = bench.prepare(workload_with_depth(bench.config().workload, 1, seed + 1000));
    bench.exclude_from_measurement(canary);
    for (const Case& c : kCases) run_case(bench, c, seed + (&c - kCases));
    run_abort(bench, seed + 100);
    bench.check_untouched(canary);
}
