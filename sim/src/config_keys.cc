// config_keys.cc - the table itself: one entry per key, bound to the
// SimConfig field it sets. Defaults are read from SimConfig, never repeated.
#include "config_keys.h"

#include <dmasim/tb/validate.h>

#include <limits>
#include <type_traits>
#include <utility>

namespace dmasim::sim {
namespace {

using tb::SimConfig;
constexpr uint64_t kMaxU32 = std::numeric_limits<uint32_t>::max();
constexpr uint64_t kMaxU64 = std::numeric_limits<uint64_t>::max();
constexpr uint64_t kMaxCycles = 1000000;  // any latency beyond this is a typo

KeyDef base_key(std::string name, KeyType type, std::string unit, std::string description) {
    KeyDef k;
    k.name = std::move(name);
    k.type = type;
    k.unit = std::move(unit);
    k.description = std::move(description);
    return k;
}

// `field` is a generic lambda returning a reference to the bound member of a
// (const or mutable) SimConfig, so one accessor serves both get and set.
template <typename Field>
KeyDef integer_key(std::string name, std::string unit, uint64_t lo, uint64_t hi,
                   std::string description, Field field, bool power_of_two = false) {
    KeyDef k = base_key(std::move(name), KeyType::integer, std::move(unit), std::move(description));
    k.int_min = lo;
    k.int_max = hi;
    k.power_of_two = power_of_two;
    k.get = [field](const SimConfig& c) { return Value{static_cast<uint64_t>(field(c))}; };
    k.set = [field](SimConfig& c, const Value& v) {
        using T = std::remove_reference_t<decltype(field(c))>;
        field(c) = static_cast<T>(std::get<uint64_t>(v));
    };
    return k;
}

/// An integer key whose range is declared by the layer that owns the field.
template <typename Field>
KeyDef integer_key(std::string name, std::string unit, model::IntRange range,
                   std::string description, Field field) {
    return integer_key(std::move(name), std::move(unit), range.min, range.max,
                       std::move(description), field, range.power_of_two);
}

template <typename Field>
KeyDef real_key(std::string name, std::string unit, double lo, double hi, std::string description,
                Field field) {
    KeyDef k = base_key(std::move(name), KeyType::real, std::move(unit), std::move(description));
    k.real_min = lo;
    k.real_max = hi;
    k.get = [field](const SimConfig& c) { return Value{static_cast<double>(field(c))}; };
    k.set = [field](SimConfig& c, const Value& v) { field(c) = std::get<double>(v); };
    return k;
}

/// A real key whose range is declared by the layer that owns the field.
template <typename Field>
KeyDef real_key(std::string name, std::string unit, model::RealRange range, std::string description,
                Field field) {
    return real_key(std::move(name), std::move(unit), range.min, range.max, std::move(description),
                    field);
}

template <typename Field>
KeyDef bool_key(std::string name, std::string description, Field field) {
    KeyDef k = base_key(std::move(name), KeyType::boolean, "", std::move(description));
    k.get = [field](const SimConfig& c) { return Value{static_cast<bool>(field(c))}; };
    k.set = [field](SimConfig& c, const Value& v) { field(c) = std::get<bool>(v); };
    return k;
}

template <typename Field>
KeyDef text_key(std::string name, std::string description, Field field) {
    KeyDef k = base_key(std::move(name), KeyType::text, "", std::move(description));
    k.get = [field](const SimConfig& c) { return Value{field(c)}; };
    k.set = [field](SimConfig& c, const Value& v) { field(c) = std::get<std::string>(v); };
    return k;
}

/// A key whose YAML spellings map one to one onto the values of enum E.
template <typename E, typename Field>
KeyDef choice_key(std::string name, std::string description,
                  std::vector<std::pair<std::string, E>> spellings, Field field) {
    KeyDef k = base_key(std::move(name), KeyType::choice, "", std::move(description));
    for (const auto& [text, value] : spellings) k.choices.push_back(text);
    k.get = [field, spellings](const SimConfig& c) {
        for (const auto& [text, value] : spellings)
            if (value == field(c)) return Value{text};
        return Value{std::string("?")};
    };
    k.set = [field, spellings](SimConfig& c, const Value& v) {
        for (const auto& [text, value] : spellings)
            if (text == std::get<std::string>(v)) field(c) = value;
    };
    return k;
}

using model::BusKind;
using model::DescriptorFetch;
using model::DescriptorNext;
using model::FaultKind;
using model::StatusWriteback;
using model::StreamWritePolicy;
using model::WritePolicy;
using tb::Payload;
using tb::Placement;

std::vector<KeyDef> build_table() {
    std::vector<KeyDef> t;
    t.push_back(real_key(
        "clock_mhz", "MHz", 1, 100000,
        "Clock of the DMA engine, bus and memory (one cycle = 1000/clock_mhz ns)",
        [](auto& c) -> auto& { return c.platform.clock_mhz; }));

    t.push_back(integer_key(
        "bus.width_bytes", "bytes", model::limits::bus_width_bytes, "Data bytes per bus beat",
        [](auto& c) -> auto& { return c.platform.bus.width_bytes; }));
    t.push_back(integer_key(
        "bus.interconnect_latency_cycles", "cycles", 0, kMaxCycles,
        "Latency the interconnect adds to every request",
        [](auto& c) -> auto& { return c.platform.bus.interconnect_latency_cycles; }));
    t.push_back(integer_key(
        "bus.mmio_latency_cycles", "cycles", 0, kMaxCycles, "Cost of one CPU register access",
        [](auto& c) -> auto& { return c.platform.bus.mmio_latency_cycles; }));
    t.push_back(choice_key<BusKind>(
        "bus.kind",
        "axi: an on-chip bus straight to RAM; pcie: a PCIe link (pcie.* keys) to host RAM, "
        "reads non-posted, writes posted (docs/pcie.md)",
        {{"axi", BusKind::axi}, {"pcie", BusKind::pcie}},
        [](auto& c) -> auto& { return c.platform.bus.kind; }));
    t.push_back(integer_key(
        "pcie.gen", "", model::limits::pcie_gen,
        "PCIe generation: 2.5, 5 GT/s per lane (8b/10b), 8, 16, 32 GT/s (128b/130b)",
        [](auto& c) -> auto& { return c.platform.bus.pcie.gen; }));
    t.push_back(integer_key(
        "pcie.lanes", "lanes", model::limits::pcie_lanes, "Link width",
        [](auto& c) -> auto& { return c.platform.bus.pcie.lanes; }));
    t.push_back(integer_key(
        "pcie.max_payload_bytes", "bytes", model::limits::pcie_request_bytes,
        "Max payload size (MPS): largest posted-write or completion payload",
        [](auto& c) -> auto& { return c.platform.bus.pcie.max_payload_bytes; }));
    t.push_back(integer_key(
        "pcie.max_read_request_bytes", "bytes", model::limits::pcie_request_bytes,
        "Max read request size (MRRS): reads are split into requests this large",
        [](auto& c) -> auto& { return c.platform.bus.pcie.max_read_request_bytes; }));
    t.push_back(integer_key(
        "pcie.read_completion_boundary_bytes", "bytes",
        model::limits::pcie_read_completion_boundary_bytes,
        "Read completion boundary (RCB): completions end on it, all but the last",
        [](auto& c) -> auto& { return c.platform.bus.pcie.read_completion_boundary_bytes; }));
    t.push_back(integer_key(
        "pcie.request_header_bytes", "bytes", model::limits::pcie_header_bytes,
        "Read and write request header: 16 (64-bit addresses) or 12 (32-bit)",
        [](auto& c) -> auto& { return c.platform.bus.pcie.request_header_bytes; }));
    t.push_back(integer_key(
        "pcie.completion_header_bytes", "bytes", model::limits::pcie_header_bytes,
        "Completion header",
        [](auto& c) -> auto& { return c.platform.bus.pcie.completion_header_bytes; }));
    t.push_back(integer_key(
        "pcie.framing_bytes", "bytes", 0, 8, "Physical-layer framing per TLP",
        [](auto& c) -> auto& { return c.platform.bus.pcie.framing_bytes; }));
    t.push_back(integer_key(
        "pcie.sequence_bytes", "bytes", 0, 8, "Data-link sequence number per TLP",
        [](auto& c) -> auto& { return c.platform.bus.pcie.sequence_bytes; }));
    t.push_back(integer_key(
        "pcie.lcrc_bytes", "bytes", 0, 8, "Data-link CRC per TLP",
        [](auto& c) -> auto& { return c.platform.bus.pcie.lcrc_bytes; }));
    t.push_back(integer_key(
        "pcie.read_latency_cycles", "cycles", 0, kMaxCycles,
        "Non-posted round trip through root complex and link, beyond serialisation and "
        "memory.read_latency_cycles (descriptor fetches and data reads)",
        [](auto& c) -> auto& { return c.platform.bus.pcie.read_latency_cycles; }));
    t.push_back(integer_key(
        "pcie.tags", "requests", model::limits::pcie_tags, "Read requests in flight (tags)",
        [](auto& c) -> auto& { return c.platform.bus.pcie.tags; }));
    t.push_back(real_key(
        "pcie.dllp_overhead", "fraction", model::limits::pcie_dllp_overhead,
        "Share of link time for ACK and flow-control DLLPs and SKP ordered sets (0.0814: "
        "pcie-bench's Gen3 x8, MPS 256)",
        [](auto& c) -> auto& { return c.platform.bus.pcie.dllp_overhead; }));

    t.push_back(integer_key(
        "memory.size_mib", "MiB", 1, 65536,
        "Simulated RAM size (sparse: only touched pages cost host memory)",
        [](auto& c) -> auto& { return c.memory_size_mib; }));
    t.push_back(choice_key<Placement>(
        "memory.placement",
        "Physical placement of buffer pages: contiguous, or scattered at random (seeded)",
        {{"contiguous", Placement::contiguous}, {"scattered", Placement::scattered}},
        [](auto& c) -> auto& { return c.placement; }));
    t.push_back(integer_key(
        "memory.read_latency_cycles", "cycles", 0, kMaxCycles,
        "Read request accepted to first data beat",
        [](auto& c) -> auto& { return c.platform.memory.read_latency_cycles; }));
    t.push_back(integer_key(
        "memory.write_latency_cycles", "cycles", 0, kMaxCycles, "Last write beat to write response",
        [](auto& c) -> auto& { return c.platform.memory.write_latency_cycles; }));
    t.push_back(real_key(
        "memory.bandwidth_bytes_per_cycle", "bytes/cycle",
        model::limits::memory_bandwidth_bytes_per_cycle,
        "Memory bandwidth per channel; 0 = one bus beat per cycle",
        [](auto& c) -> auto& { return c.platform.memory.bandwidth_bytes_per_cycle; }));

    t.push_back(integer_key(
        "dma.channels", "channels", model::limits::channels,
        "DMA channels in the controller (throughput uses channel 0; multi_channel all)",
        [](auto& c) -> auto& { return c.platform.dma.channels; }));
    t.push_back(choice_key<dma_hw_format>(
        "dma.descriptor_format",
        "Hardware descriptor layout: chunks joined by chain descriptors, or a linked list",
        {{"chained_pages", DMA_HW_FMT_CHAINED_PAGES}, {"linked_list", DMA_HW_FMT_LINKED_LIST}},
        [](auto& c) -> auto& { return c.descriptor_format; }));
    t.push_back(integer_key(
        "dma.max_burst_beats", "beats", model::limits::max_burst_beats,
        "Longest data burst (bursts never cross a 4 KiB boundary)",
        [](auto& c) -> auto& { return c.platform.dma.max_burst_beats; }));
    t.push_back(integer_key(
        "dma.max_outstanding_reads", "bursts", model::limits::max_outstanding,
        "Read bursts in flight per channel",
        [](auto& c) -> auto& { return c.platform.dma.max_outstanding_reads; }));
    t.push_back(integer_key(
        "dma.max_outstanding_writes", "bursts", model::limits::max_outstanding,
        "Write bursts in flight per channel",
        [](auto& c) -> auto& { return c.platform.dma.max_outstanding_writes; }));
    t.push_back(integer_key(
        "dma.descriptor_prefetch", "descriptors", model::limits::descriptor_prefetch,
        "Descriptors fetched per descriptor read",
        [](auto& c) -> auto& { return c.platform.dma.descriptor_prefetch; }));
    t.push_back(choice_key<DescriptorFetch>(
        "dma.descriptor_fetch", "Descriptor reads as one burst, or one bus word at a time",
        {{"burst", DescriptorFetch::burst}, {"word", DescriptorFetch::word}},
        [](auto& c) -> auto& { return c.platform.dma.descriptor_fetch; }));
    t.push_back(integer_key(
        "dma.buffer_bytes", "bytes", 1, 1u << 24, "Read-to-write data buffer per channel",
        [](auto& c) -> auto& { return c.platform.dma.buffer_bytes; }));
    t.push_back(choice_key<WritePolicy>(
        "dma.write_policy",
        "Writes start as read data arrives, or only once a whole segment is buffered",
        {{"cut_through", WritePolicy::cut_through},
         {"store_and_forward", WritePolicy::store_and_forward}},
        [](auto& c) -> auto& { return c.platform.dma.write_policy; }));
    t.push_back(choice_key<StreamWritePolicy>(
        "dma.stream_write_policy",
        "Write policy of device-to-memory (S2MM) writes: the same as dma.write_policy, or "
        "their own (PG022 Table 1: store-and-forward is an S2MM option)",
        {{"same", StreamWritePolicy::same},
         {"cut_through", StreamWritePolicy::cut_through},
         {"store_and_forward", StreamWritePolicy::store_and_forward}},
        [](auto& c) -> auto& { return c.platform.dma.stream_write_policy; }));
    t.push_back(integer_key(
        "dma.stream_write_latency_cycles", "cycles", 0, kMaxCycles,
        "Device-to-memory (S2MM) writes: cycles from the write policy letting a write go to "
        "its issue, a pipeline stage paid once per stream (PG021 Table 1: tvalid to awvalid "
        "39 = 1 + 38)",
        [](auto& c) -> auto& { return c.platform.dma.stream_write_latency_cycles; }));
    t.push_back(bool_key(
        "dma.descriptor_overlap", "Next descriptor may start before the previous one completes",
        [](auto& c) -> auto& { return c.platform.dma.descriptor_overlap; }));
    t.push_back(integer_key(
        "dma.descriptor_setup_cycles", "cycles", 0, kMaxCycles, "Decode cost per data descriptor",
        [](auto& c) -> auto& { return c.platform.dma.descriptor_setup_cycles; }));
    t.push_back(integer_key(
        "dma.chain_link_cycles", "cycles", 0, kMaxCycles, "Decode cost per chain descriptor",
        [](auto& c) -> auto& { return c.platform.dma.chain_link_cycles; }));
    t.push_back(integer_key(
        "dma.max_chain_depth", "links", 1, kMaxU32,
        "Chain links per transfer before the engine reports CHAIN_LOOP",
        [](auto& c) -> auto& { return c.platform.dma.max_chain_depth; }));
    t.push_back(integer_key(
        "dma.max_descriptors", "descriptors", 1, kMaxU32,
        "Descriptors per transfer before the engine reports CHAIN_LOOP",
        [](auto& c) -> auto& { return c.platform.dma.max_descriptors; }));
    t.push_back(integer_key(
        "dma.irq_latency_cycles", "cycles", 0, kMaxCycles, "Completion to interrupt line raised",
        [](auto& c) -> auto& { return c.platform.dma.irq_latency_cycles; }));
    t.push_back(integer_key(
        "dma.irq_coalesce_count", "completions", model::limits::irq_coalesce_count,
        "Interrupt threshold (AXI DMA IRQThreshold, PG021): completions of descriptors "
        "flagged DMA_DESC_IRQ per interrupt; 1 = one each. The stop interrupt reports any "
        "pending",
        [](auto& c) -> auto& { return c.platform.dma.irq_coalesce_count; }));
    t.push_back(integer_key(
        "dma.irq_coalesce_timeout_cycles", "cycles", 0, kMaxCycles,
        "Interrupt delay (AXI DMA IRQDelay, PG021): an interrupt is raised this long after the "
        "latest completion if the threshold was not reached; 0 = no timer",
        [](auto& c) -> auto& { return c.platform.dma.irq_coalesce_timeout_cycles; }));
    t.push_back(integer_key(
        "cpu.irq_handler_cycles", "cycles", 0, kMaxCycles,
        "CPU time per interrupt the driver handles (entry, register accesses, exit), in "
        "cycles of clock_mhz",
        [](auto& c) -> auto& { return c.cpu.irq_handler_cycles; }));
    t.push_back(integer_key(
        "cpu.per_descriptor_cycles", "cycles", 0, kMaxCycles,
        "CPU time per completed descriptor the handler reaps, in cycles of clock_mhz",
        [](auto& c) -> auto& { return c.cpu.per_descriptor_cycles; }));
    t.push_back(choice_key<StatusWriteback>(
        "dma.status_writeback",
        "Which data descriptors get a status write-back: every one, only those raising an "
        "interrupt, only the last (END), or none (completion only in the channel registers)",
        {{"per_descriptor", StatusWriteback::per_descriptor},
         {"irq_only", StatusWriteback::irq_only},
         {"last", StatusWriteback::last},
         {"none", StatusWriteback::none}},
        [](auto& c) -> auto& { return c.platform.dma.status_writeback; }));
    t.push_back(integer_key(
        "dma.descriptor_bytes", "bytes", model::limits::descriptor_bytes,
        "Descriptor slot size: 16 (compact, 32-bit addresses), 32 or "
        "64 (32 ignored padding bytes); linked_list adds its next pointer (24, 48, 80)",
        [](auto& c) -> auto& { return c.platform.dma.descriptor_bytes; }));
    t.push_back(choice_key<DescriptorNext>(
        "dma.descriptor_next",
        "linked_list: next pointer appended to the slot's layout (24, 48, 80 B) or inside a 32 "
        "or 64-byte slot, as AXI DMA's and CDMA's 32-byte BDs (PG021, PG034)",
        {{"appended", DescriptorNext::appended}, {"in_slot", DescriptorNext::in_slot}},
        [](auto& c) -> auto& { return c.platform.dma.descriptor_next; }));
    t.push_back(integer_key(
        "dma.descriptor_app_words", "words", model::limits::descriptor_app_words,
        "32-bit APP words read with every descriptor after its fields (AXI DMA's APP0..APP4 "
        "with the control/status stream, PG021), and written back with the status in "
        "dev_to_mem (S2MM); with any, descriptors sit 0x40-aligned",
        [](auto& c) -> auto& { return c.platform.dma.descriptor_app_words; }));
    t.push_back(integer_key(
        "dma.read_refill_bytes", "bytes", 0, 1u << 24,
        "Reads wait until this much buffer space is free, then fill it; "
        "0 = one burst, each read waits only for its own space",
        [](auto& c) -> auto& { return c.platform.dma.read_refill_bytes; }));
    t.push_back(integer_key(
        "dma.start_latency_cycles", "cycles", 0, kMaxCycles,
        "START register write to the first descriptor fetch",
        [](auto& c) -> auto& { return c.platform.dma.start_latency_cycles; }));

    t.push_back(bool_key(
        "iommu.enabled",
        "Put an IOMMU between the DMA engine and memory: the driver maps every buffer and "
        "descriptor chunk through page tables in simulated RAM and the engine issues IOVAs, "
        "translated by an IOTLB (docs/timing-model.md)",
        [](auto& c) -> auto& { return c.platform.iommu.enabled; }));
    t.push_back(integer_key(
        "iommu.iotlb_entries", "entries", model::limits::iotlb_entries, "Translations the IOTLB caches",
        [](auto& c) -> auto& { return c.platform.iommu.iotlb_entries; }));
    t.push_back(integer_key(
        "iommu.iotlb_ways", "entries", model::limits::iotlb_ways,
        "IOTLB associativity (entries per set); iommu.iotlb_entries = fully associative",
        [](auto& c) -> auto& { return c.platform.iommu.iotlb_ways; }));
    t.push_back(integer_key(
        "iommu.page_size", "bytes", model::limits::iommu_page_bytes,
        "Largest page the driver maps: 4KiB, or 2MiB (a 2 MiB leaf wherever a buffer is "
        "2 MiB aligned and contiguous, as Linux's iommu_map)",
        [](auto& c) -> auto& { return c.platform.iommu.page_bytes; }));
    t.push_back(integer_key(
        "iommu.walk_levels", "levels", model::limits::iommu_walk_levels,
        "Page-table levels: an IOTLB miss reads this many dependent entries (IOVA of "
        "12 + 9 x levels bits)",
        [](auto& c) -> auto& { return c.platform.iommu.walk_levels; }));
    t.push_back(integer_key(
        "iommu.walk_cache_entries", "entries", model::limits::iommu_walk_cache_entries,
        "Cached level-2 entries: a miss that hits them reads only the leaf; 0 = no walk cache",
        [](auto& c) -> auto& { return c.platform.iommu.walk_cache_entries; }));
    t.push_back(integer_key(
        "iommu.iotlb_hit_cycles", "cycles", model::limits::iommu_iotlb_hit_cycles,
        "Cost of a translation that hits the IOTLB, added to every translated access",
        [](auto& c) -> auto& { return c.platform.iommu.iotlb_hit_cycles; }));

    t.push_back(real_key(
        "device.rate_bytes_per_cycle", "bytes/cycle", 0.001, 4096,
        "Stream port rate (dev_to_mem and mem_to_dev)",
        [](auto& c) -> auto& { return c.platform.device.rate_bytes_per_cycle; }));

    t.push_back(real_key(
        "traffic.bytes_per_cycle", "bytes/cycle", 0, 4096,
        "Background bus master's demand; 0 = no background traffic",
        [](auto& c) -> auto& { return c.platform.traffic.bytes_per_cycle; }));
    t.push_back(real_key(
        "traffic.read_fraction", "", 0, 1, "Share of background bursts that are reads",
        [](auto& c) -> auto& { return c.platform.traffic.read_fraction; }));
    t.push_back(integer_key(
        "traffic.burst_beats", "beats", 1, 256, "Background burst length",
        [](auto& c) -> auto& { return c.platform.traffic.burst_beats; }));
    t.push_back(integer_key(
        "traffic.seed", "", 0, kMaxU64, "Seed of the background master",
        [](auto& c) -> auto& { return c.platform.traffic.seed; }));

    t.push_back(text_key(
        "workload.scenario", "Testbench scenario, compiled into tb/ (docs/scenarios.md lists them)",
        [](auto& c) -> auto& { return c.workload.scenario; }));
    t.push_back(choice_key<dma_hw_direction>(
        "workload.direction",
        "mem_to_dev: the list is the source; dev_to_mem: the destination; mem_to_mem: the "
        "source, copied to a second buffer with the same segment lengths",
        {{"mem_to_mem", DMA_HW_MEM_TO_MEM},
         {"dev_to_mem", DMA_HW_DEV_TO_MEM},
         {"mem_to_dev", DMA_HW_MEM_TO_DEV}},
        [](auto& c) -> auto& { return c.workload.direction; }));
    t.push_back(integer_key(
        "workload.entries", "segments", tb::limits::entries,
        "Scatter list length (data descriptors per transfer)",
        [](auto& c) -> auto& { return c.workload.entries; }));
    t.push_back(integer_key(
        "workload.segment_bytes", "bytes", tb::limits::segment_bytes,
        "Segment size (fixed), or the mean size (lognormal)",
        [](auto& c) -> auto& { return c.workload.segment_bytes; }));
    t.push_back(choice_key<dmasim_seg_dist>(
        "workload.segment_distribution", "How segment sizes are drawn",
        {{"fixed", DMASIM_SEG_FIXED},
         {"uniform", DMASIM_SEG_UNIFORM},
         {"lognormal", DMASIM_SEG_LOGNORMAL}},
        [](auto& c) -> auto& { return c.workload.distribution; }));
    t.push_back(integer_key(
        "workload.segment_bytes_min", "bytes", tb::limits::segment_bytes,
        "uniform: smallest segment; lognormal: smaller draws are raised to it",
        [](auto& c) -> auto& { return c.workload.segment_bytes_min; }));
    t.push_back(integer_key(
        "workload.segment_bytes_max", "bytes", tb::limits::segment_bytes,
        "uniform: largest segment; lognormal: larger draws are clamped to it",
        [](auto& c) -> auto& { return c.workload.segment_bytes_max; }));
    t.push_back(real_key(
        "workload.lognormal_sigma", "", tb::limits::lognormal_sigma, "lognormal: sigma of ln(size)",
        [](auto& c) -> auto& { return c.workload.lognormal_sigma; }));
    t.push_back(integer_key(
        "workload.offset", "bytes", tb::limits::offset,
        "In-page offset at which each segment starts",
        [](auto& c) -> auto& { return c.workload.offset; }));
    t.push_back(integer_key(
        "workload.chain_depth", "chunks", tb::limits::chain_depth,
        "Descriptor chunks the list is split over",
        [](auto& c) -> auto& { return c.workload.chain_depth; }));
    t.push_back(integer_key(
        "workload.seed", "", 0, kMaxU64, "Seed for page placement, segment sizes and payload",
        [](auto& c) -> auto& { return c.workload.seed; }));
    t.push_back(choice_key<Payload>(
        "workload.payload",
        "checked: patterned data moved and compared byte for byte; none: timing only, buffers "
        "never touched or copied (same cycles; integrity reports not_checked)",
        {{"checked", Payload::checked}, {"none", Payload::none}},
        [](auto& c) -> auto& { return c.workload.payload; }));
    t.push_back(choice_key<dmasim_buf_layout>(
        "workload.buffers",
        "pages: each segment in page frames of its own; packed: segments back to back in page "
        "fragments (32 KiB blocks placed by memory.placement)",
        {{"pages", DMASIM_BUF_PAGES}, {"packed", DMASIM_BUF_PACKED}},
        [](auto& c) -> auto& { return c.workload.buffers; }));
    t.push_back(bool_key(
        "workload.irq_per_descriptor",
        "Every data descriptor asks for an interrupt (DMA_DESC_IRQ), coalesced by "
        "dma.irq_coalesce_*; false: one interrupt when the channel stops",
        [](auto& c) -> auto& { return c.workload.irq_per_descriptor; }));
    t.push_back(bool_key(
        "workload.deburst",
        "Every data descriptor carries DMA_DESC_DEBURST (flags bit 7, iDMA's reduce_len): the "
        "engine moves it in one-beat bursts",
        [](auto& c) -> auto& { return c.workload.deburst; }));

    t.push_back(choice_key<FaultKind>(
        "fault.kind",
        "Inject a bus error (error-handling tests): none, on a descriptor fetch (DESC_BUS), "
        "on a data burst (DATA_BUS), or translation: the driver revokes the IOMMU mapping of "
        "a data descriptor's first page before START (TRANSLATION; needs iommu.enabled)",
        {{"none", FaultKind::none},
         {"descriptor", FaultKind::descriptor},
         {"data", FaultKind::data},
         {"translation", FaultKind::translation}},
        [](auto& c) -> auto& { return c.platform.dma.fault.kind; }));
    t.push_back(integer_key(
        "fault.channel", "channel", 0, DMA_MAX_CHANNELS - 1, "Channel whose access fails",
        [](auto& c) -> auto& { return c.platform.dma.fault.channel; }));
    t.push_back(integer_key(
        "fault.index", "", 0, kMaxU64,
        "Which access fails, counted from each START (0 = the first): descriptor = that "
        "descriptor fetch; data = the first data burst of that data descriptor; translation "
        "= that data descriptor's first page",
        [](auto& c) -> auto& { return c.platform.dma.fault.index; }));
    return t;
}

}  // namespace

std::vector<KeyDef>& mutable_table() {
    static std::vector<KeyDef> table = build_table();
    return table;
}

const std::vector<KeyDef>& config_keys() { return mutable_table(); }

void add_config_keys(std::vector<KeyDef> keys) {
    for (auto& key : keys) mutable_table().push_back(std::move(key));
}

const KeyDef* find_key(std::string_view name) {
    for (const auto& key : config_keys())
        if (key.name == name) return &key;
    return nullptr;
}

}  // namespace dmasim::sim
