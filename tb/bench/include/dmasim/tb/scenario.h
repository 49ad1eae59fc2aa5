// scenario.h - the API a scenario is written against, and the registry
// that lets `workload.scenario` select one by name (docs/scenarios.md).
//
// A scenario runs in a SystemC thread once the platform is elaborated. It
// prepares transfers (scatter lists, buffers and descriptor chunks built by
// the driver), starts them on channels, waits for their interrupts and
// checks them. Everything it prepares is freed when it returns.
#pragma once

#include <dmasim/model/platform.h>
#include <dmasim/tb/run.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

struct dmasim_xfer;

namespace dmasim::tb {

class Testbench;
class MeasurementWindow;

/// What the CPU has spent on completions so far: the driver's interrupt
/// handler runs and polls that found measured work, and their cycles.
struct CpuTally {
    uint64_t interrupts = 0;
    uint64_t polls = 0;
    uint64_t busy_cycles = 0;
};

/// One prepared transfer on one channel. Owned by the ScenarioBench.
class Transfer {
public:
    unsigned channel() const { return channel_; }
    const WorkloadConfig& workload() const { return workload_; }
    /// The driver's view: lists, descriptor chunks, status after wait().
    dmasim_xfer& xfer() const { return *xfer_; }
    uint64_t bytes() const;       ///< payload bytes the descriptors describe
    uint64_t bytes_done() const;  ///< BYTES_DONE after wait()
    uint32_t descs_done() const;  ///< DESCS_DONE after wait()
    uint32_t status() const;      ///< channel STATUS after wait()
    unsigned error() const;       ///< enum dma_hw_error from status()
    bool finished() const { return finished_; }
    /// Its completion has been handled (interrupt or poll): wait() returns at once.
    bool completed() const { return completed_; }

private:
    friend class Testbench;
    friend class MeasurementWindow;
    Transfer(dmasim_xfer* x, unsigned channel, const WorkloadConfig& w, uint64_t pattern_base);

    dmasim_xfer* xfer_;
    unsigned channel_;
    WorkloadConfig workload_;
    uint64_t pattern_base_;  ///< where its source data starts in the pattern
    bool started_ = false;
    bool completed_ = false;  ///< the driver has seen its completion
    bool finished_ = false;
    bool measured_ = true;
    sc_core::sc_time completed_at_;  ///< when the driver's handling of it ended
    /// Its channel's counters at START: the transfer's own descriptors and
    /// chain links are what they gained by its completion.
    model::ChannelStats stats_at_start_;
    model::Platform::BusMark bus_at_completion_;  ///< marks completed_at_ (measured only)
    uint64_t descs_reaped_ = 0;         ///< completions the CPU has processed so far
    CpuTally cpu_at_completion_;        ///< the CPU's tally at completed_at_
    /// Device transfers: where the device's stream stood at START (bytes
    /// produced, or consumed and their digest). Unset when another transfer
    /// in the same direction overlapped, so the stream cannot be attributed.
    std::optional<uint64_t> device_pos_;
    uint64_t device_digest_ = 0;
};

/// What a scenario drives: the platform, the driver and the scoreboard.
class ScenarioBench {
public:
    virtual ~ScenarioBench() = default;

    virtual const SimConfig& config() const = 0;
    virtual model::Platform& platform() = 0;
    /// Channels the driver found on the controller.
    virtual unsigned channels() const = 0;

    /// Builds a transfer of workload `w` for `channel`: data buffers (source
    /// filled with seeded patterned data, destination with a fill byte),
    /// DMA mapping and descriptor chunks. If it does not fit in simulated
    /// memory, `w` is invalid or there is no such channel, it does not
    /// return: the run ends and run_simulation() throws ConfigError.
    virtual Transfer& prepare(const WorkloadConfig& w, unsigned channel = 0) = 0;
    /// submit(), which must find room: on a channel without a ring it
    /// programs the channel and writes START. With fault.kind translation on
    /// fault.channel it first revokes the IOMMU mapping of data descriptor
    /// fault.index's first page, as the model injects the other faults.
    virtual void start(Transfer& t) = 0;
    /// Sleeps until the transfer's completion is handled (interrupt or
    /// poll), with its status and counters read. A ring's requests are
    /// waited oldest first.
    virtual void wait(Transfer& t) = 0;
    /// Writes ABORT to the transfer's channel (it still completes via wait()).
    virtual void abort(Transfer& t) = 0;
    /// start() then wait().
    void run(Transfer& t);

    /// dma.submission tail_pointer: gives `channel` a descriptor ring of
    /// `slots` data slots, for requests in direction `dir` and the
    /// configured format, and starts the channel; requests then go in with
    /// submit() and complete in order (wait(), completed()).
    virtual void open_ring(unsigned slots, dma_hw_direction dir, unsigned channel = 0) = 0;
    /// Hands a prepared transfer to its channel: with a ring open, its
    /// descriptors at the ring's head, then TAIL (a transfer prepared
    /// while the ring is open has no descriptor chunks of its own);
    /// without one, START as start() does. False, with nothing done, if
    /// the ring has fewer free slots than the transfer has descriptors.
    virtual bool submit(Transfer& t) = 0;
    /// Stops the channel's ring once every request in it was wait()ed.
    virtual void close_ring(unsigned channel = 0) = 0;
    /// The oldest transfer submitted on `channel` and not yet wait()ed, or
    /// null: with START the one on the engine, with a ring its oldest request.
    virtual Transfer* oldest(unsigned channel = 0) = 0;

    /// Scoreboard: the channel stopped without error after every byte and
    /// every descriptor, every destination byte equals its source byte and
    /// no byte around the destination segments changed. Records the first
    /// mismatch as an integrity failure. Returns true if all matched. With
    /// workload.payload none only the status and counters are checked.
    virtual bool check(const Transfer& t) = 0;
    /// Like check(), but only that the source and the bytes around the
    /// destination segments are unchanged (for transfers that stopped
    /// early); for a transfer never started, that no destination byte changed.
    /// Always true with workload.payload none.
    virtual bool check_untouched(const Transfer& t) = 0;
    /// Records an integrity failure with `what` unless `ok`. Returns `ok`.
    virtual bool expect(bool ok, std::string_view what) = 0;
    /// As above, with the message built by `describe()` only when `ok` is
    /// false: a check made for every request formats nothing while it holds.
    template <class Describe,
              class = std::enable_if_t<std::is_invocable_r_v<std::string, Describe&>>>
    bool expect(bool ok, Describe&& describe) {
        return ok || expect(false, std::string_view(describe()));
    }

    /// Leaves a transfer out of the measured bytes and time window (e.g. a
    /// warm-up or an injected error). Every transfer counts by default.
    virtual void exclude_from_measurement(Transfer& t) = 0;
    /// Unmaps and frees a transfer now instead of at the end.
    virtual void release(Transfer& t) = 0;
    /// Lets simulated time pass.
    virtual void delay_cycles(uint64_t cycles) = 0;
    /// Simulated time now, in cycles of the platform clock.
    virtual uint64_t now_cycles() const = 0;
    /// Sleeps until cycle `until` (kNoDeadline: no limit) or the next
    /// completion the CPU handles, whichever comes first: a stream of
    /// requests waits for both at once.
    virtual void wait_for_completion_until(uint64_t until) = 0;
    static constexpr uint64_t kNoDeadline = UINT64_MAX;
    /// Changes the "requests queued" counter track of `channel` by `delta`
    /// now (drawn in --trace; a driver's ring or queue of requests).
    virtual void count_queued(int64_t delta, unsigned channel = 0) = 0;
    /// Simulated-memory size in bytes (bus addresses [0, size) are RAM).
    virtual uint64_t memory_bytes() const = 0;

    /// The value of this scenario's parameter `name` (declared with
    /// DMASIM_SCENARIO_PARAM; config key scenario.<scenario>.<name>).
    double param(std::string_view name) const;
    /// Adds a named figure to the report, results.csv and the summary.
    virtual void add_result(const std::string& name, double value, const std::string& unit,
                            const std::string& description) = 0;
};

using ScenarioRun = void (*)(ScenarioBench& bench);
/// Adjusts the platform before elaboration (e.g. turns on traffic).
using ScenarioSetup = void (*)(SimConfig& config);

/// Why a config cannot run a scenario, and the config keys that decide it
/// (so the error names the line that set them).
struct ScenarioRefusal {
    std::string why;
    std::vector<std::string> keys;
};
/// Refuses, before anything runs, a config the scenario could only fail on.
using ScenarioCheck = std::optional<ScenarioRefusal> (*)(const SimConfig& config);
/// What a scenario is, as far as shared rules care: bits declared with
/// DMASIM_SCENARIO_TRAITS (or with its check), which select the rules
/// scenario_refusal() applies before its own check.
enum ScenarioTrait : unsigned {
    /// Its checks are about memory contents, so workload.payload none
    /// would leave it nothing to check: the config is refused.
    kChecksMemory = 1u << 0,
    /// It breaks lists on purpose, so lists beyond dma.max_chain_depth or
    /// dma.max_descriptors are not refused up front.
    kInjectsErrors = 1u << 1,
    /// It keeps descriptor rings (ScenarioBench::open_ring, submit, close_ring)
    /// under dma.submission tail_pointer. Without it that submission mode
    /// is refused, and open_ring() stops the run.
    kKeepsRing = 1u << 2,
    /// It replays request traces: it reads workload.arrival trace and
    /// workload.trace, which must then come together. Without it a config
    /// that sets either is refused.
    kReplaysTraces = 1u << 3,
};
/// Traits declared on their own: DMASIM_SCENARIO_TRAITS(name, bits).
struct ScenarioTraits {
    unsigned bits;
};
/// The workloads a scenario holds prepared at once, at most; what the
/// host-memory estimate counts before anything is built.
using ScenarioFootprint = std::vector<WorkloadConfig> (*)(const SimConfig& config);

/// A parameter a scenario declares: config key scenario.<scenario>.<name>,
/// validated, documented and sweepable like every built-in key.
struct ScenarioParam {
    const char* scenario;
    const char* name;
    bool integer;  ///< whole numbers only (else any number in range)
    double default_value;
    double min, max;  ///< inclusive range
    const char* unit;
    const char* description;
    std::string key() const;  ///< "scenario.<scenario>.<name>"
};

struct ScenarioInfo {
    std::string name;
    ScenarioRun run = nullptr;
    ScenarioSetup setup = nullptr;
    ScenarioCheck check = nullptr;
    unsigned traits = 0;  ///< ScenarioTrait bits, from its traits and its check
    ScenarioFootprint footprint = nullptr;
    std::string file;  ///< source file of its DMASIM_SCENARIO
    std::vector<ScenarioParam> params;

    /// What it holds prepared at once: its footprint, or else the
    /// configured workload alone.
    std::vector<WorkloadConfig> lists(const SimConfig& config) const;
};

/// Why `config` cannot run `scenario`: the rules its traits select (the
/// walk-limit rule unless kInjectsErrors, no tail_pointer submission
/// unless kKeepsRing, no trace unless kReplaysTraces, ...), then its own
/// check, then whether the lists it holds at once fit the IOMMU's I/O
/// address space; or nullopt.
std::optional<ScenarioRefusal> scenario_refusal(const ScenarioInfo& scenario,
                                                const SimConfig& config);

/// Scenarios by name, filled by DMASIM_SCENARIO at static-initialisation time.
class ScenarioRegistry {
public:
    static ScenarioRegistry& instance();
    void add_run(std::string_view name, ScenarioRun run, const char* file);
    void add_setup(std::string_view name, ScenarioSetup setup);
    void add_check(std::string_view name, ScenarioCheck check, unsigned traits);
    void add_traits(std::string_view name, unsigned traits);
    void add_footprint(std::string_view name, ScenarioFootprint footprint);
    void add_param(const ScenarioParam& param);
    const ScenarioInfo* find(std::string_view name) const;
    std::vector<std::string> names() const;
    /// Every declared parameter, by scenario name then declaration order.
    std::vector<ScenarioParam> params() const;
    /// The parameter with config key `key`, or nullptr.
    const ScenarioParam* find_param(std::string_view key) const;
    /// Registration mistakes (a name defined in two files, a parameter
    /// declared twice or whose default lies outside its range, ...):
    /// dmasim refuses to start while there are any.
    const std::vector<std::string>& errors() const { return errors_; }

private:
    ScenarioInfo& entry(std::string_view name);
    std::vector<ScenarioInfo> scenarios_;
    std::vector<std::string> errors_;
};

struct ScenarioRegistrar {
    ScenarioRegistrar(const char* name, ScenarioRun run, const char* file) {
        ScenarioRegistry::instance().add_run(name, run, file);
    }
    explicit ScenarioRegistrar(const ScenarioParam& param) {
        ScenarioRegistry::instance().add_param(param);
    }
    ScenarioRegistrar(const char* name, ScenarioSetup setup) {
        ScenarioRegistry::instance().add_setup(name, setup);
    }
    ScenarioRegistrar(const char* name, ScenarioCheck check, unsigned traits) {
        ScenarioRegistry::instance().add_check(name, check, traits);
    }
    ScenarioRegistrar(const char* name, ScenarioFootprint footprint) {
        ScenarioRegistry::instance().add_footprint(name, footprint);
    }
    ScenarioRegistrar(const char* name, ScenarioTraits traits) {
        ScenarioRegistry::instance().add_traits(name, traits.bits);
    }
};

}  // namespace dmasim::tb

/// Defines and registers a scenario: DMASIM_SCENARIO(name) { ... bench ... }
#define DMASIM_SCENARIO(name)                                                \
    static void dmasim_scenario_run_##name(::dmasim::tb::ScenarioBench& bench);      \
    static const ::dmasim::tb::ScenarioRegistrar dmasim_scenario_reg_##name{ \
        #name, &dmasim_scenario_run_##name, __FILE__};                       \
    static void dmasim_scenario_run_##name(::dmasim::tb::ScenarioBench& bench)

/// Optional: adjusts the configuration before elaboration:
/// DMASIM_SCENARIO_SETUP(name) { ... config ... }
#define DMASIM_SCENARIO_SETUP(name)                                                \
    static void dmasim_scenario_setup_##name(::dmasim::tb::SimConfig& config);     \
    static const ::dmasim::tb::ScenarioRegistrar dmasim_scenario_setup_reg_##name{ \
        #name, &dmasim_scenario_setup_##name};                                     \
    static void dmasim_scenario_setup_##name(::dmasim::tb::SimConfig& config)

/// Optional: what the scenario is (ScenarioTrait bits), which selects the
/// shared rules a config must satisfy to run it:
/// DMASIM_SCENARIO_TRAITS(name, dmasim::tb::kKeepsRing);
#define DMASIM_SCENARIO_TRAITS(name, traits)                                         \
    static const ::dmasim::tb::ScenarioRegistrar dmasim_scenario_traits_reg_##name { \
#name, ::dmasim::tb::ScenarioTraits { static_cast<unsigned>(traits) }        \
    }

/// Optional: what a config must satisfy to run the scenario: `traits`
/// (ScenarioTrait bits, or 0) pick shared rules, and the body returns a
/// ScenarioRefusal or std::nullopt:
/// DMASIM_SCENARIO_CHECK(name, dmasim::tb::kChecksMemory) { ... config ... }
#define DMASIM_SCENARIO_CHECK(name, traits)                                           \
    static std::optional<::dmasim::tb::ScenarioRefusal> dmasim_scenario_check_##name( \
        const ::dmasim::tb::SimConfig& config);                                       \
    static const ::dmasim::tb::ScenarioRegistrar dmasim_scenario_check_reg_##name{    \
        #name, &dmasim_scenario_check_##name, static_cast<unsigned>(traits)};         \
    static std::optional<::dmasim::tb::ScenarioRefusal> dmasim_scenario_check_##name( \
        const ::dmasim::tb::SimConfig& config)

/// Optional, for a scenario that holds more than the configured list at
/// once: the workloads it prepares before releasing any (default: the
/// configured one). DMASIM_SCENARIO_FOOTPRINT(name) { ... config ... }
#define DMASIM_SCENARIO_FOOTPRINT(name)                                                \
    static std::vector<::dmasim::tb::WorkloadConfig> dmasim_scenario_footprint_##name( \
        const ::dmasim::tb::SimConfig& config);                                        \
    static const ::dmasim::tb::ScenarioRegistrar dmasim_scenario_footprint_reg_##name{ \
        #name, &dmasim_scenario_footprint_##name};                                     \
    static std::vector<::dmasim::tb::WorkloadConfig> dmasim_scenario_footprint_##name( \
        const ::dmasim::tb::SimConfig& config)

/// Declares a numeric parameter of scenario `scn`, read with
/// bench.param("name"): DMASIM_SCENARIO_PARAM(scn, name, integer, default,
/// min, max, "unit", "description"); `integer` is true for whole numbers.
#define DMASIM_SCENARIO_PARAM(scn, pname, integer, def, lo, hi, unit, description)            \
    static const ::dmasim::tb::ScenarioRegistrar dmasim_scenario_param_##scn##_##pname {      \
        ::dmasim::tb::ScenarioParam { #scn, #pname, integer, def, lo, hi, unit, description } \
    }
