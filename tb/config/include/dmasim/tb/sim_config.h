// sim_config.h - one simulation run as the command line sees it: a fully
// resolved configuration in, measured results out (run_simulation() in
// run.h runs one).
//
// CONTRACT between tb/ and sim/: sim/ fills SimConfig from YAML and
// --set (every config key of docs/configuration.md maps to one field
// here), calls run_simulation once per process, and writes reports from
// RunResult. tb/ may add fields; it must not rename these.
#pragma once

#include <dmasim/hw/dma_hw.h>
#include <dmasim/model/cycle_account.h>
#include <dmasim/model/params.h>
#include <dmasim/tb/workload_rows.h>
#include <dmasim/workload/segments.h>
#include <sglist/mm.h>

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace dmasim::tb {

/// checked: patterned sources, bytes moved and compared; none: timing only
/// (buffers are allocated but never written, read or copied).
enum class Payload { checked, none };

/// How each enum parameter of the testbench is spelled in a configuration.
inline constexpr model::Spelling<sim_mem_placement> kPlacements[] = {
    {"contiguous", SIM_MEM_CONTIGUOUS}, {"scattered", SIM_MEM_SCATTERED}};
inline constexpr model::Spelling<Payload> kPayloads[] = {{"checked", Payload::checked},
                                                         {"none", Payload::none}};
inline constexpr model::Spelling<dma_hw_format> kDescriptorFormats[] = {
    {"chained_pages", DMA_HW_FMT_CHAINED_PAGES}, {"linked_list", DMA_HW_FMT_LINKED_LIST}};
inline constexpr model::Spelling<dma_hw_direction> kDirections[] = {
    {"mem_to_mem", DMA_HW_MEM_TO_MEM},
    {"dev_to_mem", DMA_HW_DEV_TO_MEM},
    {"mem_to_dev", DMA_HW_MEM_TO_DEV}};
/// `d` as a configuration spells it ("?" for a value with no spelling).
inline const char* direction_name(dma_hw_direction d) {
    for (const auto& spelling : kDirections)
        if (spelling.value == d) return spelling.text;
    return "?";
}
inline constexpr model::Spelling<dmasim_seg_dist> kSegmentDistributions[] = {
    {"fixed", DMASIM_SEG_FIXED},
    {"uniform", DMASIM_SEG_UNIFORM},
    {"lognormal", DMASIM_SEG_LOGNORMAL}};
/// How the requests scenario's requests arrive (docs/scenarios.md).
enum class Arrival { closed, periodic, poisson, trace };
inline constexpr model::Spelling<Arrival> kArrivals[] = {{"closed", Arrival::closed},
                                                         {"periodic", Arrival::periodic},
                                                         {"poisson", Arrival::poisson},
                                                         {"trace", Arrival::trace}};
/// What a request that finds the submission ring full does.
enum class RingFull { wait, drop };
inline constexpr model::Spelling<RingFull> kRingFull[] = {{"wait", RingFull::wait},
                                                          {"drop", RingFull::drop}};
/// How the driver learns that the engine completed work.
enum class Completion { interrupt, polling };
inline constexpr model::Spelling<Completion> kCompletions[] = {{"interrupt", Completion::interrupt},
                                                               {"polling", Completion::polling}};
inline constexpr model::Spelling<dmasim_buf_layout> kBufferLayouts[] = {
    {"pages", DMASIM_BUF_PAGES}, {"packed", DMASIM_BUF_PACKED}};

/// sglist's PAGE_SIZE: a segment's in-page offset is below it.
inline constexpr uint64_t kPageBytes = 4096;

struct WorkloadConfig {
    DMASIM_WORKLOAD_PARAMS(DMASIM_PARAM_FIELD)
    /// distribution DMASIM_SEG_LIST (a replayed request, never a config's):
    /// each segment's length and in-page offset, `entries` of each.
    std::vector<uint32_t> lengths, offsets;
};

/// What the driver's completion handling costs the CPU, in cycles of
/// clock_mhz (spent after the handler's register accesses).
struct CpuConfig {
    DMASIM_CPU_PARAMS(DMASIM_PARAM_FIELD)
};

struct SimConfig {
    model::PlatformParams platform;  ///< memory.backing is set by tb, not sim
    DMASIM_SIM_PARAMS(DMASIM_PARAM_FIELD)
    WorkloadConfig workload;
    CpuConfig cpu;
    /// Values of scenario parameters by key ("scenario.NAME.PARAM"); a
    /// parameter not here has its declared default (scenario.h).
    std::map<std::string, double> scenario_params;
};

/// Simulated cycles a run may last unless told otherwise: 1 s at 1 GHz,
/// 16 GB through a 16-byte bus; at most about two minutes of wall time
/// (docs/timing-model.md, "Cost").
constexpr uint64_t kDefaultMaxSimCycles = 1'000'000'000;

/// A figure a scenario adds to the report, CSV and summary (ScenarioBench::add_result).
struct ScenarioResult {
    std::string name;  ///< e.g. "zero_length.held"
    double value = 0;
    std::string unit;
    std::string description;
};

/// A distribution of per-item figures (e.g. per-descriptor latency).
struct Histogram {
    std::string name;  ///< e.g. "dma.ch0.descriptor_latency_cycles"
    std::string unit;
    uint64_t count = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
    struct Bucket {
        uint64_t from, to, count;  ///< [from, to): powers of two
    };
    std::vector<Bucket> buckets;  ///< non-empty buckets, ascending
};

struct RunResult {
    uint64_t bytes = 0;
    uint64_t descriptors = 0;
    uint64_t chain_links = 0;
    uint64_t cycles = 0;
    double sim_time_ns = 0;
    double throughput_gbps = 0;
    double bytes_per_cycle = 0;
    uint64_t descriptor_bytes_fetched = 0;
    double bus_utilization = 0;
    uint64_t interrupts = 0;           ///< interrupts the CPU handled in the window
    double interrupts_per_second = 0;  ///< interrupts / simulated seconds
    uint64_t polls = 0;                ///< polls the driver made in the window
    uint64_t cpu_busy_cycles = 0;      ///< CPU cycles spent completing descriptors
    double cpu_utilization = 0;        ///< cpu_busy_cycles / cycles
    /// The window's cycles by cause; they add up to `cycles` (cycle_account.h).
    model::CycleAccount account{};
    bool integrity = false;
    bool payload_checked = true;                ///< false for payload none: no byte was compared
    std::optional<uint64_t> first_bad_address;  ///< set when integrity fails
    std::string failure;                        ///< why integrity failed, for the user
    std::vector<model::StatGroup> statistics;   ///< per channel, per resource, per phase
    std::vector<Histogram> histograms;          ///< descriptor latency per channel
    uint64_t leaked_pages = 0;  ///< page frames still allocated after teardown (a leak if > 0)
    /// Trace or VCD files that could not be finished after the run (the
    /// result itself is intact; `dmasim run` prints it and exits 1).
    std::vector<std::string> output_errors;
    std::vector<ScenarioResult> scenario_results;  ///< in the order the scenario added them
    std::string trace_note;                        ///< why the trace is incomplete, if it is
};

/// The configuration cannot be run (e.g. the list does not fit in memory):
/// the command exits with status 2 and writes no report.
struct ConfigError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace dmasim::tb
