// params.h - the model's parameter structs, statistics and trace records:
// plain C++ with no SystemC, so configuration code (sim/, tb/'s SimConfig)
// builds and validates them without the simulation kernel.
//
// CONTRACT between model/ and tb/: the names below are used by the
// testbench. The model may add members; it must not rename these.
#pragma once

#include <dmasim/hw/dma_hw.h>
#include <dmasim/hw/iommu_hw.h>
#include <dmasim/model/stats.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dmasim::model {

enum class WritePolicy { cut_through, store_and_forward };
/// Write policy of device-to-memory (S2MM) writes: `same` as write_policy,
/// or its own (PG022's DataMover makes store-and-forward an S2MM option).
enum class StreamWritePolicy { same, cut_through, store_and_forward };
enum class DescriptorFetch { burst, word };
/// Where a linked_list descriptor keeps its next pointer: appended to the
/// slot's layout (24, 48, 80 B) or inside a 32/64-byte slot (AXI DMA's BDs).
enum class DescriptorNext { appended, in_slot };
/// Which data descriptors get a status write-back (values match dma_hw_writeback).
enum class StatusWriteback { per_descriptor, irq_only, last, none };

/// What the DMA engine's master port reaches host memory through.
enum class BusKind { axi, pcie };

/// A PCIe link between the DMA engine (an endpoint) and host memory
/// (docs/pcie.md): reads are non-posted (request, then completions), writes
/// posted; every TLP pays framing, sequence number, header and LCRC.
struct PcieParams {
    unsigned gen = 3;                              ///< 1..5: 2.5, 5, 8, 16, 32 GT/s per lane
    unsigned lanes = 8;                            ///< 1, 2, 4, 8, 16 or 32
    unsigned max_payload_bytes = 256;              ///< MPS: largest write or completion payload
    unsigned max_read_request_bytes = 512;         ///< MRRS: largest read request
    unsigned read_completion_boundary_bytes = 64;  ///< RCB: completions end on it (64 or 128)
    unsigned request_header_bytes = 16;            ///< MRd/MWr header: 16 (64-bit address) or 12
    unsigned completion_header_bytes = 12;         ///< CplD header
    unsigned framing_bytes = 2;                    ///< start and end framing per TLP
    unsigned sequence_bytes = 2;                   ///< data link layer sequence number
    unsigned lcrc_bytes = 4;                       ///< data link layer CRC
    /// request sent -> first completion ready to send, beyond serialisation
    /// and the memory's own read latency (root complex and link, both ways)
    unsigned read_latency_cycles = 500;
    unsigned tags = 32;  ///< read requests in flight
    /// share of link time taken by ACK and flow-control DLLPs and SKP
    /// ordered sets (pcie-bench's figure for Gen3 x8, MPS 256: 0.0814)
    double dllp_overhead = 0.0814;
};

struct BusParams {
    unsigned width_bytes = 16;                 ///< bytes per beat, power of two 1..128
    unsigned interconnect_latency_cycles = 0;  ///< added to every request through the interconnect
    unsigned mmio_latency_cycles = 10;         ///< cost of one CPU register access
    BusKind kind = BusKind::axi;               ///< axi: on-chip bus; pcie: through `pcie`
    PcieParams pcie;                           ///< used when kind is pcie
};

/// Slowest bandwidth_bytes_per_cycle accepted (0 = uncapped): below it a
/// burst's occupancy (beats x width / bandwidth) leaves the range cycles
/// are counted in.
constexpr double kMinBandwidthBytesPerCycle = 0.001;

struct MemoryParams {
    uint8_t* backing = nullptr;            ///< host bytes of simulated RAM (sglist's linear map)
    uint64_t size_bytes = 0;               ///< RAM occupies bus addresses [0, size_bytes)
    unsigned read_latency_cycles = 50;     ///< read accepted -> first data beat
    unsigned write_latency_cycles = 20;    ///< last write beat -> write response
    double bandwidth_bytes_per_cycle = 0;  ///< 0 = one beat per cycle per channel
};

/// translation is not injected by the model: the testbench's driver
/// revokes an IOMMU mapping (iommu.enabled), and the IOMMU faults on it.
enum class FaultKind { none, descriptor, data, translation };

/// A bus error injected on purpose, to test how errors are handled. The
/// count restarts at every START of the chosen channel.
struct FaultParams {
    FaultKind kind = FaultKind::none;  ///< none, or which access fails
    unsigned channel = 0;              ///< channel whose access fails
    /// descriptor: the index-th descriptor fetch (0 = the first) fails
    /// with DESC_BUS; data: the first data burst of the index-th data
    /// descriptor fails with DATA_BUS, before any of its bytes move
    uint64_t index = 0;
};

struct DmaParams {
    unsigned channels = 1;                 ///< independent channels, 1..16
    unsigned max_burst_beats = 16;         ///< longest data burst; bursts never cross 4 KiB
    unsigned max_outstanding_reads = 16;   ///< data reads in flight per channel
    unsigned max_outstanding_writes = 16;  ///< data writes in flight per channel
    unsigned descriptor_prefetch = 8;      ///< descriptors fetched per descriptor read
    /// burst: up to descriptor_prefetch slots per read; word: one descriptor
    /// at a time, as single-beat reads
    DescriptorFetch descriptor_fetch = DescriptorFetch::burst;
    unsigned buffer_bytes = 8192;  ///< read-to-write buffer per channel, >= 2 maximal bursts
    /// cut_through: a write may start once its first data beat has arrived;
    /// store_and_forward: once its read bursts have completed
    WritePolicy write_policy = WritePolicy::cut_through;
    /// dev_to_mem writes: their own policy, or `same` as write_policy
    StreamWritePolicy stream_write_policy = StreamWritePolicy::same;
    /// dev_to_mem writes: cycles from the policy letting a write go to its
    /// issue (the S2MM path's own pipeline, PG021 Table 1's 39 clocks)
    unsigned stream_write_latency_cycles = 0;
    bool descriptor_overlap = true;        ///< next descriptor may start before previous completes
    unsigned descriptor_setup_cycles = 2;  ///< decode cost per data descriptor
    unsigned chain_link_cycles = 4;        ///< decode cost per chain descriptor
    unsigned max_chain_depth = 4096;       ///< chain links per transfer before CHAIN_LOOP
    uint64_t max_descriptors = 1u << 24;   ///< descriptors per transfer before CHAIN_LOOP
    unsigned irq_latency_cycles = 5;       ///< completion -> interrupt line raised
    /// Interrupt coalescing, as AXI DMA's IRQThreshold and IRQDelay (PG021):
    /// completions of DMA_DESC_IRQ descriptors raise one interrupt per this
    /// many; 1 = one each (no coalescing)
    unsigned irq_coalesce_count = 1;
    /// cycles after the latest uncounted completion at which a delay
    /// interrupt raises what is pending; 0 = no timer (only with count 1)
    uint64_t irq_coalesce_timeout_cycles = 0;
    /// per_descriptor: every data descriptor; irq_only: those with
    /// DMA_DESC_IRQ; last: the END descriptor; none: no write-back at all
    StatusWriteback status_writeback = StatusWriteback::per_descriptor;
    /// chained_pages slot size, 16 (compact, 32-bit addresses), 32 or 64;
    /// a linked_list descriptor adds its next pointer (24, 48 or 80)
    unsigned descriptor_bytes = 32;
    /// linked_list: next pointer appended to the slot (24, 48, 80 B) or
    /// inside a 32 or 64-byte slot
    DescriptorNext descriptor_next = DescriptorNext::appended;
    /// 32-bit APP words read with every descriptor after its fields
    /// (PG021's APP0..4), written back with the status in dev_to_mem;
    /// with any, descriptors sit 0x40-aligned
    unsigned descriptor_app_words = 0;
    /// a read burst waits until this much buffer space is free, then reads
    /// fill it; 0 = one burst (each read waits only for its own space)
    unsigned read_refill_bytes = 0;
    unsigned start_latency_cycles = 0;  ///< START written -> first descriptor fetch issued
    FaultParams fault;                  ///< injected bus error (none by default)
    /// true: bursts move their bytes through DMI; false: timing only (the
    /// walker still reads descriptors and writes status back), for runs
    /// whose payload nobody checks
    bool move_payload = true;
};

/// The layout of descriptors in format `f` on a controller built with
/// `dma` (what CAPS reports to the driver).
inline dma_hw_layout layout_of(dma_hw_format f, const DmaParams& dma = {}) {
    return {f, dma.descriptor_bytes, dma.descriptor_next == DescriptorNext::in_slot ? 1 : 0,
            dma.descriptor_app_words};
}

struct DeviceParams {
    double rate_bytes_per_cycle = 16;  ///< stream port rate, both directions
};

struct TrafficParams {
    double bytes_per_cycle = 0;  ///< background master's demand; 0 = absent
    double read_fraction = 0.5;  ///< share of its bursts that are reads
    unsigned burst_beats = 16;   ///< beats per background burst
    uint64_t seed = 1;           ///< addresses and read/write choice
};

/// An IOMMU between the DMA master and memory (docs/timing-model.md): with
/// it, every address the controller issues is an IOVA, translated through
/// an IOTLB; a miss walks the page tables in simulated memory
/// (dmasim/hw/iommu_hw.h) with dependent reads on the RAM read channel.
struct IommuParams {
    bool enabled = false;             ///< false: bus addresses are physical (no IOMMU)
    unsigned iotlb_entries = 64;      ///< translations cached
    unsigned iotlb_ways = 4;          ///< entries per set; iotlb_entries = fully associative
    uint64_t page_bytes = 4096;       ///< largest leaf: 4 KiB, or 2 MiB where both sides align
    unsigned walk_levels = 4;         ///< page-table levels, 2..5 (IOVA of 12 + 9 x levels bits)
    unsigned walk_cache_entries = 0;  ///< cached level-2 entries (skip to the leaf read); 0 = none
    unsigned iotlb_hit_cycles = 1;    ///< added to every translated access
};

struct PlatformParams {
    double clock_mhz = 1000;
    /// How far (cycles) the DMA engine and traffic master may run ahead of
    /// SystemC time before synchronising; larger is faster, smaller lets
    /// software see progress counters closer to real time.
    uint64_t quantum_cycles = 1000;
    BusParams bus;
    MemoryParams memory;
    DmaParams dma;
    DeviceParams device;
    TrafficParams traffic;
    IommuParams iommu;
};

/// A named counter in the model's statistics (value in the given unit).
struct Counter {
    std::string name;
    double value;
    std::string unit;
};
/// Counters of one component ("dma.ch0", "bus.read", "memory", ...).
struct StatGroup {
    std::string name;
    std::vector<Counter> counters;
};

/// Where a traced activity happens: a stage of one channel, or a shared
/// resource (then the channel number is 0 and means nothing).
enum class TraceTrack : uint8_t {
    fetch,          ///< descriptor fetch bursts
    decode,         ///< descriptor decode and chain links
    read,           ///< data read bursts
    write,          ///< data write bursts
    writeback,      ///< status write-backs
    irq,            ///< interrupts raised
    ram_read,       ///< RAM read channel: data beats
    ram_write,      ///< RAM write channel: data beats
    device_source,  ///< device stream port, device to memory
    device_sink,    ///< device stream port, memory to device
    background,     ///< background traffic master's bursts
};
/// Per-channel levels a trace can plot over time (changed by deltas).
enum class TraceCounter : uint8_t {
    reads_in_flight,
    writes_in_flight,
    buffer_bytes,     ///< bytes read and not yet written out
    descriptor_fifo,  ///< decoded descriptors waiting for the data mover
    bytes_moved,      ///< payload bytes whose writes completed
};
/// What a traced activity touched; kUnset fields are left out of the trace.
struct TraceArgs {
    static constexpr uint64_t kUnset = ~uint64_t(0);
    uint64_t address = kUnset;
    uint64_t bytes = kUnset;
    uint64_t beats = kUnset;
    uint64_t descriptor = kUnset;       ///< data descriptor index since START
    uint64_t chunk = kUnset;            ///< descriptor chunk (chain links followed before it)
    uint64_t slots = kUnset;            ///< fetch: descriptor slots read
    uint64_t over_prefetched = kUnset;  ///< fetch: slots read past an END or CHAIN slot
};

/// Receives the model's activity, in cycles of the platform clock. Calls
/// arrive in planning order, not time order. The model makes no call (and
/// builds no arguments) while no sink is attached.
class TraceSink {
public:
    virtual ~TraceSink() = default;
    /// Activity during [from, to) on `track` (of `channel`, for channel tracks).
    virtual void slice(TraceTrack track, unsigned channel, const char* what, uint64_t from,
                       uint64_t to, const TraceArgs& args) = 0;
    virtual void instant(TraceTrack track, unsigned channel, const char* what, uint64_t at) = 0;
    /// `counter` of `channel` changes by `delta` at cycle `at`.
    virtual void counter(TraceCounter counter, unsigned channel, uint64_t at, int64_t delta) = 0;
};

/// Inclusive range of an integer parameter; with power_of_two, only 2^k.
struct IntRange {
    uint64_t min, max;
    bool power_of_two = false;
};
/// Inclusive range of a real parameter.
struct RealRange {
    double min, max;
};

/// The range of each parameter that has one, declared once: validate()
/// checks them, and sim/'s key table parses and documents values with them.
namespace limits {
inline constexpr IntRange bus_width_bytes{1, 128, true};
inline constexpr IntRange channels{1, DMA_MAX_CHANNELS};
inline constexpr IntRange max_burst_beats{1, 256};
inline constexpr IntRange max_outstanding{1, 256};  ///< reads, and writes
inline constexpr IntRange descriptor_prefetch{1, 128};
inline constexpr IntRange descriptor_bytes{16, 64, true};
inline constexpr IntRange descriptor_app_words{0, DMA_HW_MAX_APP_WORDS};
inline constexpr IntRange irq_coalesce_count{1, 255};
inline constexpr IntRange pcie_gen{1, 5};
inline constexpr IntRange pcie_lanes{1, 32, true};
inline constexpr IntRange pcie_request_bytes{128, 4096, true};  ///< MPS and MRRS
inline constexpr IntRange pcie_read_completion_boundary_bytes{64, 128, true};
inline constexpr IntRange pcie_header_bytes{12, 16};  ///< request headers: 12 or 16 only
inline constexpr IntRange pcie_tags{1, 1024};
inline constexpr RealRange pcie_dllp_overhead{0, 0.5};
/// 0 (uncapped), or at least kMinBandwidthBytesPerCycle
inline constexpr RealRange memory_bandwidth_bytes_per_cycle{0, 4096};
inline constexpr IntRange iotlb_entries{1, 65536};
inline constexpr IntRange iotlb_ways{1, 65536};
inline constexpr IntRange iommu_page_bytes{4096, 2097152, true};  ///< 4 KiB or 2 MiB only
inline constexpr IntRange iommu_walk_levels{IOMMU_MIN_LEVELS, IOMMU_MAX_LEVELS};
inline constexpr IntRange iommu_walk_cache_entries{0, 4096};
inline constexpr IntRange iommu_iotlb_hit_cycles{0, 1000};
}  // namespace limits

/// A rule a set of parameter values breaks: every key involved (spelled as
/// in docs/configuration.md) and a message naming the values and what is
/// allowed.
struct ParamProblem {
    std::vector<std::string> keys;
    std::string message;
};

/// The problem of `key` = `value` when the value is outside `range`.
std::optional<ParamProblem> range_problem(const std::string& key, uint64_t value,
                                          const IntRange& range);
std::optional<ParamProblem> range_problem(const std::string& key, double value,
                                          const RealRange& range);

/// A rule beyond each key's own range, declared once with the keys it
/// involves and what it asks: validate() checks it, and
/// docs/configuration.md lists it (`dmasim config --markdown`).
struct ParamRule {
    std::vector<std::string> keys;
    std::string requirement;  ///< Markdown, e.g. "`a` must be at most `b`"
};

/// A ParamRule with its check: `broken` returns the message naming the
/// values when `params` break the rule, else an empty string.
template <typename Params>
struct CheckedRule {
    ParamRule rule;
    std::string (*broken)(const Params& params);
};

/// The problems of `params` against `rules`, in the rules' order.
template <typename Params>
std::vector<ParamProblem> check_rules(const std::vector<CheckedRule<Params>>& rules,
                                      const Params& params) {
    std::vector<ParamProblem> problems;
    for (const CheckedRule<Params>& r : rules)
        if (std::string message = r.broken(params); !message.empty())
            problems.push_back({r.rule.keys, std::move(message)});
    return problems;
}

/// Every rule the model places on the platform's parameters: the ranges in
/// `limits`, then rules(). Empty when the values are usable; sim/ reports
/// them with the file and line of the keys.
std::vector<ParamProblem> validate(const PlatformParams& params);
/// validate() of a platform with this controller, bus and IOMMU (the other
/// parameters at their defaults, which break no rule): the DMA controller
/// refuses to elaborate with any.
std::vector<ParamProblem> validate(const DmaParams& dma, const BusParams& bus,
                                   const IommuParams& iommu = {});
/// The rules validate() checks beyond the ranges in `limits`.
std::vector<ParamRule> rules();

/// Cycles the memory's read and write data channels were booked before a
/// cycle (every master: DMA, CPU, background traffic).
struct BusBusy {
    uint64_t read = 0;
    uint64_t write = 0;
};

}  // namespace dmasim::model
