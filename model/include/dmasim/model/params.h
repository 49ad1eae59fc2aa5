// params.h - the model's parameter structs and statistics records:
// plain C++ with no SystemC, so configuration code (sim/, tb/'s SimConfig)
// builds and validates them without the simulation kernel.
//
// CONTRACT between model/ and tb/: the names below are used by the
// testbench. The model may add members; it must not rename these.
#pragma once

#include <dmasim/hw/dma_hw.h>
#include <dmasim/hw/iommu_hw.h>
#include <dmasim/model/param_def.h>
#include <dmasim/model/param_rows.h>
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
/// burst: up to descriptor_prefetch slots per read; word: one bus word at a
/// time; speculative: one-descriptor reads of the slots that follow, before
/// the next pointer is known (iDMA's desc64 front end).
enum class DescriptorFetch { burst, word, speculative };
/// Where a linked_list descriptor keeps its next pointer: appended to the
/// slot's layout (24, 48, 80 B) or inside a 32/64-byte slot (AXI DMA's BDs).
enum class DescriptorNext { appended, in_slot };
/// How software hands a channel work: one START per list, which runs to
/// its END descriptor; or a START, then TAIL writes, each naming the last
/// descriptor of a ring to run to (AXI DMA's TAILDESC, NIC rings).
enum class Submission { start, tail_pointer };
/// Which master fetches descriptors and writes status back: the data port,
/// or a port of its own (AXI DMA's M_AXI_SG).
enum class DescriptorPort { shared, separate };
/// What the DMA engine's master port reaches host memory through.
enum class BusKind { axi, pcie };
/// The memory behind the bus: a fixed latency, or a DRAM (docs/memory.md).
enum class MemoryKind { fixed, dram };
/// Which address bits pick a DRAM burst's channel, bank and row.
enum class DramMapping { row_bank_column, bank_interleaved };
/// Whether a DRAM row stays open after an access.
enum class PagePolicy { open, closed };
/// translation is not injected by the model: the testbench's driver
/// revokes an IOMMU mapping (iommu.enabled), and the IOMMU faults on it.
enum class FaultKind { none, descriptor, data, translation };

/// How each enum parameter is spelled in a configuration.
inline constexpr Spelling<WritePolicy> kWritePolicies[] = {
    {"cut_through", WritePolicy::cut_through}, {"store_and_forward", WritePolicy::store_and_forward}};
inline constexpr Spelling<StreamWritePolicy> kStreamWritePolicies[] = {
    {"same", StreamWritePolicy::same},
    {"cut_through", StreamWritePolicy::cut_through},
    {"store_and_forward", StreamWritePolicy::store_and_forward}};
inline constexpr Spelling<DescriptorNext> kDescriptorNexts[] = {
    {"appended", DescriptorNext::appended}, {"in_slot", DescriptorNext::in_slot}};
inline constexpr Spelling<Submission> kSubmissions[] = {{"start", Submission::start},
                                                        {"tail_pointer", Submission::tail_pointer}};
inline constexpr Spelling<DescriptorPort> kDescriptorPorts[] = {
    {"shared", DescriptorPort::shared}, {"separate", DescriptorPort::separate}};
inline constexpr Spelling<DescriptorFetch> kDescriptorFetches[] = {
    {"burst", DescriptorFetch::burst},
    {"word", DescriptorFetch::word},
    {"speculative", DescriptorFetch::speculative}};
inline constexpr Spelling<BusKind> kBusKinds[] = {{"axi", BusKind::axi}, {"pcie", BusKind::pcie}};
inline constexpr Spelling<MemoryKind> kMemoryKinds[] = {{"fixed", MemoryKind::fixed},
                                                        {"dram", MemoryKind::dram}};
inline constexpr Spelling<DramMapping> kDramMappings[] = {
    {"row_bank_column", DramMapping::row_bank_column},
    {"bank_interleaved", DramMapping::bank_interleaved}};
inline constexpr Spelling<PagePolicy> kPagePolicies[] = {{"open", PagePolicy::open},
                                                         {"closed", PagePolicy::closed}};
inline constexpr Spelling<FaultKind> kFaultKinds[] = {{"none", FaultKind::none},
                                                      {"descriptor", FaultKind::descriptor},
                                                      {"data", FaultKind::data},
                                                      {"translation", FaultKind::translation}};
inline constexpr Spelling<dma_hw_writeback> kStatusWritebacks[] = {
    {"per_descriptor", DMA_HW_WB_PER_DESCRIPTOR},
    {"irq_only", DMA_HW_WB_IRQ_ONLY},
    {"last", DMA_HW_WB_LAST},
    {"none", DMA_HW_WB_NONE}};

/// A key renamed after it shipped: configurations, sweeps and --set may
/// still use the old name (docs/configuration.md lists them).
struct RenamedKey {
    const char* old_name;
    const char* name;
};
inline constexpr RenamedKey kRenamedKeys[] = {
    // The split of fetch-ahead (dma.descriptor_queue) from data overlap.
    {"dma.descriptor_overlap", "dma.data_overlap"},
};

/// dma.descriptor_queue meaning "no limit of its own" (the prefetch window's).
inline constexpr unsigned kUnboundedQueue = 256;

/// Any latency beyond this many cycles is a typo.
inline constexpr uint64_t kMaxCycles = 1000000;
/// The range of a latency or cost in cycles. The soak draws up to 1,000,
/// so a point's simulated time, and the polls and background bursts over
/// it, stay short.
inline const IntRange kCycles = IntRange{0, kMaxCycles}.soaked(0, 1000);

/// A PCIe link between the DMA engine (an endpoint) and host memory
/// (docs/pcie.md): reads are non-posted (request, then completions), writes
/// posted; every TLP pays framing, sequence number, header and LCRC.
struct PcieParams {
    DMASIM_PCIE_PARAMS(DMASIM_PARAM_FIELD)
};

struct BusParams {
    DMASIM_BUS_PARAMS(DMASIM_PARAM_FIELD)
    PcieParams pcie;  ///< used when kind is pcie
};

/// Slowest bandwidth_bytes_per_cycle accepted (0 = uncapped): below it a
/// burst's occupancy (beats x width / bandwidth) leaves the range cycles
/// are counted in.
constexpr double kMinBandwidthBytesPerCycle = 0.001;

struct MemoryParams {
    uint8_t* backing = nullptr;  ///< host bytes of simulated RAM (sglist's linear map)
    uint64_t size_bytes = 0;     ///< RAM occupies bus addresses [0, size_bytes)
    DMASIM_MEMORY_PARAMS(DMASIM_PARAM_FIELD)
};

/// A bus error injected on purpose, to test how errors are handled. The
/// count restarts at every START of the chosen channel.
struct FaultParams {
    DMASIM_FAULT_PARAMS(DMASIM_PARAM_FIELD)
};

struct DmaParams {
    DMASIM_DMA_PARAMS(DMASIM_PARAM_FIELD)
    FaultParams fault;  ///< injected bus error (none by default)
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
    DMASIM_DEVICE_PARAMS(DMASIM_PARAM_FIELD)
};

struct TrafficParams {
    DMASIM_TRAFFIC_PARAMS(DMASIM_PARAM_FIELD)
};

/// An IOMMU between the DMA master and memory (docs/timing-model.md): with
/// it, every address the controller issues is an IOVA, translated through
/// an IOTLB; a miss walks the page tables in simulated memory
/// (dmasim/hw/iommu_hw.h) with dependent reads on the RAM read channel.
struct IommuParams {
    DMASIM_IOMMU_PARAMS(DMASIM_PARAM_FIELD)
};

struct PlatformParams {
    DMASIM_PLATFORM_PARAMS(DMASIM_PARAM_FIELD)
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

/// The model's parameters as a table, one row per parameter of
/// param_rows.h, in documentation order: validate() checks each row's
/// range, and sim/ makes its config keys of them.
const std::vector<ParamDef<PlatformParams>>& param_table();

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

/// The problems of the rows of `rows` that `keep` selects whose value in
/// `config` is outside the row's range, in the rows' order.
template <class Config, class Keep>
std::vector<ParamProblem> range_problems(const std::vector<ParamDef<Config>>& rows,
                                         const Config& config, Keep keep) {
    std::vector<ParamProblem> problems;
    for (const ParamDef<Config>& row : rows) {
        if (!keep(row)) continue;
        std::optional<ParamProblem> problem;
        if (row.kind == ParamKind::integer)
            problem = range_problem(row.key, std::get<uint64_t>(row.get(config)), row.int_range);
        else if (row.kind == ParamKind::real)
            problem = range_problem(row.key, std::get<double>(row.get(config)), row.real_range);
        if (problem) problems.push_back(std::move(*problem));
    }
    return problems;
}

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

/// Every rule the model places on the platform's parameters: each row's
/// range in param_table(), then rules(). Empty when the values are usable; sim/ reports
/// them with the file and line of the keys.
std::vector<ParamProblem> validate(const PlatformParams& params);
/// validate() of a platform with this controller, bus and IOMMU (the other
/// parameters at their defaults, which break no rule): the DMA controller
/// refuses to elaborate with any.
std::vector<ParamProblem> validate(const DmaParams& dma, const BusParams& bus,
                                   const IommuParams& iommu = {});
/// The rules validate() checks beyond each row's range.
std::vector<ParamRule> rules();

/// Cycles the memory's read and write data channels were booked before a
/// cycle (every master: DMA, CPU, background traffic).
struct BusBusy {
    uint64_t read = 0;
    uint64_t write = 0;
};

}  // namespace dmasim::model
