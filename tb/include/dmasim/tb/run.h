// run.h - one simulation run as the command line sees it: a fully
// resolved configuration in, measured results out.
//
// CONTRACT between tb/ and sim/: sim/ fills SimConfig from YAML and
// --set (every config key of docs/configuration.md maps to one field
// here), calls run_simulation once per process, and writes reports from
// RunResult. tb/ may add fields; it must not rename these.
#pragma once

#include <dmasim/driver/segments.h>
#include <dmasim/hw/dma_hw.h>
#include <dmasim/model/cycle_account.h>
#include <dmasim/model/params.h>

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace dmasim::tb {

enum class Placement { contiguous, scattered };
/// checked: patterned sources, bytes moved and compared; none: timing only
/// (buffers are allocated but never written, read or copied).
enum class Payload { checked, none };

struct WorkloadConfig {
    std::string scenario = "throughput";
    dma_hw_direction direction = DMA_HW_MEM_TO_MEM;
    uint64_t entries = 256;         ///< scatter list length
    uint64_t segment_bytes = 4096;  ///< fixed size, or the mean of a distribution
    dmasim_seg_dist distribution = DMASIM_SEG_FIXED;
    uint64_t segment_bytes_min = 1;     ///< uniform: lower bound
    uint64_t segment_bytes_max = 8192;  ///< uniform: upper bound
    double lognormal_sigma = 1.0;       ///< lognormal: sigma of ln(size)
    uint64_t offset = 0;                ///< in-page offset of each segment
    uint64_t chain_depth = 1;           ///< descriptor chunks the list spans
    uint64_t seed = 1;
    Payload payload = Payload::checked;
    /// pages: each segment in page frames of its own; packed: back to back
    /// in page fragments.
    dmasim_buf_layout buffers = DMASIM_BUF_PAGES;
    /// Every data descriptor carries DMA_DESC_IRQ, so each completion is an
    /// interrupt event (coalesced by dma.irq_coalesce_*) the driver reaps.
    bool irq_per_descriptor = false;
    /// Every data descriptor carries DMA_DESC_DEBURST: the engine moves it
    /// in one-beat bursts (iDMA's reduce_len).
    bool deburst = false;
};

/// What the driver's completion handling costs the CPU, in cycles of
/// clock_mhz (spent after the handler's register accesses).
struct CpuConfig {
    uint64_t irq_handler_cycles = 0;     ///< per interrupt handled
    uint64_t per_descriptor_cycles = 0;  ///< per completed descriptor reaped
};

struct SimConfig {
    model::PlatformParams platform;  ///< memory.backing is set by tb, not sim
    dma_hw_format descriptor_format = DMA_HW_FMT_CHAINED_PAGES;
    uint64_t memory_size_mib = 1024;
    Placement placement = Placement::scattered;
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

/// Where optional outputs go (empty = not written) and how long a run may last.
struct RunOptions {
    std::string trace_path;         ///< Chrome trace-event JSON (Perfetto)
    std::string vcd_path;           ///< SystemC VCD of busy/interrupt signals
    uint64_t trace_from_cycle = 0;  ///< trace only [from, to)
    uint64_t trace_to_cycle = UINT64_MAX;
    uint64_t trace_max_bytes = 256ull << 20;  ///< the trace stops growing here
    /// The simulation stops here with an error if the scenario has not finished.
    uint64_t max_sim_cycles = kDefaultMaxSimCycles;
};

/// A figure a scenario adds to the report, CSV and summary (Bench::add_result).
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

/// Elaborates the platform, runs the configured scenario to completion and
/// measures it. Call at most once per process (SystemC elaborates once).
/// Throws ConfigError for runs that cannot be set up.
RunResult run_simulation(const SimConfig& config, const RunOptions& options = {});

/// Host bytes a run of `config` needs, the estimate run_simulation()
/// checks before it starts (docs/timing-model.md), so a caller that runs
/// several at once (`dmasim sweep -j N`) can add them up.
uint64_t host_bytes_needed(const SimConfig& config);

/// Bytes the host can still give a process (MemAvailable, lowered by a
/// cgroup v2 memory.max); none if neither can be read.
std::optional<uint64_t> host_bytes_available();

}  // namespace dmasim::tb
