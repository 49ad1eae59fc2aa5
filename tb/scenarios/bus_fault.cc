// bus_fault.cc - the configured list on every channel at once, with the
// bus error that fault.kind, fault.channel and fault.index inject. The
// faulted channel must stop with DESC_BUS (descriptor fetch), DATA_BUS
// (data burst) or TRANSLATION (a data page whose IOMMU mapping the driver
// revoked) and an interrupt, after exactly the data descriptors before
// a data or translation fault, leaving every byte outside what it moved unchanged; every
// other channel must finish and pass the scoreboard. Only the channels
// without the fault are measured; the faulted channel's outcome is in the
// scenario results fault.code (the error code it reported) and fault.held
// (1 if every check of it held).
#include <dmasim/driver/dmasim_dma.h>
#include <dmasim/tb/scenario.h>
#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace {

using dmasim::model::FaultKind;
using dmasim::model::FaultParams;
using dmasim::tb::ScenarioBench;
using dmasim::tb::Transfer;

// The error code the fault must stop its channel with.
unsigned expected_error(FaultKind kind) {
    switch (kind) {
        case FaultKind::data:
            return DMA_ERR_DATA_BUS;
        case FaultKind::translation:
            return DMA_ERR_TRANSLATION;
        case FaultKind::none:
        case FaultKind::descriptor:
            break;
    }
    return DMA_ERR_DESC_BUS;
}

void check_faulted(ScenarioBench& bench, const Transfer& t, const FaultParams& f) {
    // Data and translation faults both hit a data descriptor's first access.
    const bool data = f.kind != FaultKind::descriptor;
    const unsigned expected = expected_error(f.kind);
    const char* name = dmasim_error_name(expected);
    bool held = bench.expect((t.status() & DMA_STATUS_ERROR) && t.error() == expected, [&] {
        return fmt::format(
            "channel {}: status {:#x} has error {}, expected {} "
            "(fault.index = {} may lie past the transfer)",
            t.channel(), t.status(), dmasim_error_name(t.error()), dmasim_error_name(expected),
            f.index);
    });
    if (data)
        held &= bench.expect(t.descs_done() == f.index, [&] {
            return fmt::format(
                "channel {}: {} descriptors done before the data fault "
                "on descriptor {}",
                t.channel(), t.descs_done(), f.index);
        });
    held &= bench.check_untouched(t);
    bench.add_result("fault.code", t.error(), "error code",
                     fmt::format("channel {}: error code reported, expected {} ({})", t.channel(),
                                 expected, name));
    bench.add_result(
        "fault.held", held ? 1 : 0, "",
        fmt::format("1 if channel {} stopped with {}, an interrupt{} and every byte "
                    "outside what it moved unchanged",
                    t.channel(), name, data ? ", after the descriptors before the fault" : ""));
}

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Descriptor reads the walker makes for the whole list, which fault.index
// counts for fault.kind descriptor (DescriptorWalker::fetch and
// batch_slots): chained_pages in burst mode reads up to
// dma.descriptor_prefetch slots at once, never across a 4 KiB boundary,
// each chunk (page frames of its own) from its first slot; otherwise every
// slot is a read of its own.
uint64_t descriptor_reads(const dmasim::tb::SimConfig& config) {
    const dmasim::tb::WorkloadConfig& w = config.workload;
    const dmasim::model::DmaParams& dma = config.platform.dma;
    const dma_hw_format format = config.descriptor_format;
    const bool burst = dma.descriptor_fetch == dmasim::model::DescriptorFetch::burst &&
                       format == DMA_HW_FMT_CHAINED_PAGES;
    const uint64_t per_read = burst ? std::max(1u, dma.descriptor_prefetch) : 1;
    const dma_hw_layout layout = dmasim::model::layout_of(format, dma);
    const uint64_t per_page = PAGE_SIZE / dma_hw_layout_stride(&layout);
    const auto entries = static_cast<unsigned>(w.entries);
    const auto depth = static_cast<unsigned>(w.chain_depth);
    uint64_t reads = 0;
    for (unsigned i = 0; i < depth; ++i) {
        const uint64_t slots = dmasim_chunk_slots(format, entries, depth, i);
        reads +=
            slots / per_page * ceil_div(per_page, per_read) + ceil_div(slots % per_page, per_read);
    }
    return reads;
}

}  // namespace

// A fault the transfer never reaches would only show after the run, as a
// failed integrity check; these are refused up front instead.
// Its point is that memory outside the faulted transfer stays unchanged.
DMASIM_SCENARIO_CHECK(bus_fault, dmasim::tb::kChecksMemory) {
    const FaultParams& f = config.platform.dma.fault;
    const dmasim::tb::WorkloadConfig& w = config.workload;
    if (f.kind == FaultKind::none)
        return dmasim::tb::ScenarioRefusal{
            "bus_fault needs fault.kind descriptor, data or translation (it is none)",
            {"fault.kind", "workload.scenario"}};
    const bool data = f.kind != FaultKind::descriptor;
    const uint64_t reachable = data ? w.entries : descriptor_reads(config);
    if (f.index < reachable) return std::nullopt;
    if (data)
        return dmasim::tb::ScenarioRefusal{
            fmt::format("fault.index = {} lies past the list: it has {} data descriptors "
                        "(workload.entries), so fault.index must be below {}",
                        f.index, reachable, reachable),
            {"fault.index", "workload.entries", "workload.scenario"}};
    return dmasim::tb::ScenarioRefusal{
        fmt::format(
            "fault.index = {} lies past the list: the controller reads its descriptors "
            "in {} fetches (workload.entries = {}, workload.chain_depth = {}, "
            "dma.descriptor_format = {}, dma.descriptor_bytes = {}, "
            "dma.descriptor_fetch = {}, dma.descriptor_prefetch = {}), so fault.index "
            "must be below {}",
            f.index, reachable, w.entries, w.chain_depth,
            config.descriptor_format == DMA_HW_FMT_CHAINED_PAGES ? "chained_pages" : "linked_list",
            config.platform.dma.descriptor_bytes,
            config.platform.dma.descriptor_fetch == dmasim::model::DescriptorFetch::burst ? "burst"
                                                                                          : "word",
            config.platform.dma.descriptor_prefetch, reachable),
        {"fault.index", "workload.entries", "workload.chain_depth", "dma.descriptor_format",
         "dma.descriptor_bytes", "dma.descriptor_fetch", "dma.descriptor_prefetch",
         "workload.scenario"}};
}
// The configured list on every channel, all prepared before any starts.
DMASIM_SCENARIO_FOOTPRINT(bus_fault) {
    return std::vector(config.platform.dma.channels, config.workload);
}

DMASIM_SCENARIO(bus_fault) {
    const FaultParams& f = bench.config().platform.dma.fault;
    if (!bench.expect(f.kind != FaultKind::none && f.channel < bench.channels(), [&] {
            return fmt::format(
                "bus_fault needs fault.kind descriptor, data or translation and "
                "fault.channel below dma.channels ({})",
                bench.channels());
        }))
        return;
    std::vector<Transfer*> transfers;
    for (unsigned ch = 0; ch < bench.channels(); ++ch) {
        dmasim::tb::WorkloadConfig w = bench.config().workload;
        w.seed += ch;
        transfers.push_back(&bench.prepare(w, ch));
    }
    bench.exclude_from_measurement(*transfers[f.channel]);
    for (Transfer* t : transfers) bench.start(*t);
    for (Transfer* t : transfers) bench.wait(*t);
    for (Transfer* t : transfers) {
        if (t->channel() == f.channel)
            check_faulted(bench, *t, f);
        else
            bench.check(*t);
    }
}
