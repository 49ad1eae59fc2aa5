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
#include <vector>

struct dmasim_xfer;

namespace dmasim::tb {

class Testbench;

/// One prepared transfer on one channel. Owned by the Bench.
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

private:
    friend class Testbench;
    Transfer(dmasim_xfer* x, unsigned channel, const WorkloadConfig& w, uint64_t pattern_base);

    dmasim_xfer* xfer_;
    unsigned channel_;
    WorkloadConfig workload_;
    uint64_t pattern_base_;  ///< where its source data starts in the pattern
    bool started_ = false;
    bool interrupted_ = false;  ///< its completion interrupt has been seen
    bool finished_ = false;
    bool measured_ = true;
    sc_core::sc_time interrupt_at_;
    /// Its channel's counters at START: the transfer's own descriptors and
    /// chain links are what they gained by its completion.
    model::ChannelStats stats_at_start_;
    model::BusBusy bus_at_interrupt_;  ///< bus busy cycles before its interrupt
    /// Device transfers: where the device's stream stood at START (bytes
    /// produced, or consumed and their digest). Unset when another transfer
    /// in the same direction overlapped, so the stream cannot be attributed.
    std::optional<uint64_t> device_pos_;
    uint64_t device_digest_ = 0;
};

/// What a scenario drives: the platform, the driver and the scoreboard.
class Bench {
public:
    virtual ~Bench() = default;

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
    /// Programs the channel and writes START.
    virtual void start(Transfer& t) = 0;
    /// Sleeps until the transfer's interrupt, then reads status and counters.
    virtual void wait(Transfer& t) = 0;
    /// Writes ABORT to the transfer's channel (it still completes via wait()).
    virtual void abort(Transfer& t) = 0;
    /// start() then wait().
    void run(Transfer& t);

    /// Scoreboard: the channel stopped without error after every byte and
    /// every descriptor, every destination byte equals its source byte and
    /// no byte around the destination segments changed. Records the first
    /// mismatch as an integrity failure. Returns true if all matched.
    virtual bool check(const Transfer& t) = 0;
    /// Like check(), but only that the source and the bytes around the
    /// destination segments are unchanged (for transfers that stopped
    /// early); for a transfer never started, that no destination byte changed.
    virtual bool check_untouched(const Transfer& t) = 0;
    /// Records an integrity failure with `what` unless `ok`. Returns `ok`.
    virtual bool expect(bool ok, std::string_view what) = 0;

    /// Leaves a transfer out of the measured bytes and time window (e.g. a
    /// warm-up or an injected error). Every transfer counts by default.
    virtual void exclude_from_measurement(Transfer& t) = 0;
    /// Unmaps and frees a transfer now instead of at the end.
    virtual void release(Transfer& t) = 0;
    /// Lets simulated time pass.
    virtual void delay_cycles(uint64_t cycles) = 0;
    /// Simulated-memory size in bytes (bus addresses [0, size) are RAM).
    virtual uint64_t memory_bytes() const = 0;
};

using ScenarioRun = void (*)(Bench& bench);
/// Adjusts the platform before elaboration (e.g. turns on traffic).
using ScenarioSetup = void (*)(SimConfig& config);

struct ScenarioInfo {
    std::string name;
    ScenarioRun run = nullptr;
    ScenarioSetup setup = nullptr;
};

/// Scenarios by name, filled by DMASIM_SCENARIO at static-initialisation time.
class ScenarioRegistry {
public:
    static ScenarioRegistry& instance();
    void add_run(std::string_view name, ScenarioRun run);
    void add_setup(std::string_view name, ScenarioSetup setup);
    const ScenarioInfo* find(std::string_view name) const;
    std::vector<std::string> names() const;

private:
    ScenarioInfo& entry(std::string_view name);
    std::vector<ScenarioInfo> scenarios_;
};

struct ScenarioRegistrar {
    ScenarioRegistrar(const char* name, ScenarioRun run) {
        ScenarioRegistry::instance().add_run(name, run);
    }
    ScenarioRegistrar(const char* name, ScenarioSetup setup) {
        ScenarioRegistry::instance().add_setup(name, setup);
    }
};

}  // namespace dmasim::tb

/// Defines and registers a scenario: DMASIM_SCENARIO(name) { ... bench ... }
#define DMASIM_SCENARIO(name)                                                \
    static void dmasim_scenario_run_##name(::dmasim::tb::Bench& bench);      \
    static const ::dmasim::tb::ScenarioRegistrar dmasim_scenario_reg_##name{ \
        #name, &dmasim_scenario_run_##name};                                 \
    static void dmasim_scenario_run_##name(::dmasim::tb::Bench& bench)

/// Optional: adjusts the configuration before elaboration:
/// DMASIM_SCENARIO_SETUP(name) { ... config ... }
#define DMASIM_SCENARIO_SETUP(name)                                                \
    static void dmasim_scenario_setup_##name(::dmasim::tb::SimConfig& config);     \
    static const ::dmasim::tb::ScenarioRegistrar dmasim_scenario_setup_reg_##name{ \
        #name, &dmasim_scenario_setup_##name};                                     \
    static void dmasim_scenario_setup_##name(::dmasim::tb::SimConfig& config)
