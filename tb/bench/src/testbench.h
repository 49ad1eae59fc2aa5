// testbench.h - the ScenarioBench a scenario runs against: owns the CPU, the
// driver instance, the scoreboard and the transfers, runs the scenario in
// a SystemC thread, and wires the pieces a transfer goes through: its
// channel's submission port (submission_port.h), the completion path
// (completion_path.h) and the measurement window (measurement_window.h).
#pragma once

#include <dmasim/driver/dmasim_dma.h>
#include <dmasim/tb/scenario.h>

#include <exception>
#include <memory>
#include <optional>
#include <systemc>
#include <vector>

#include "cpu.h"
#include "measure.h"
#include "measurement_window.h"
#include "scoreboard.h"

namespace dmasim::tb {

class Testbench : public sc_core::sc_module, public ScenarioBench {
public:
    Testbench(sc_core::sc_module_name name, const SimConfig& config, model::Platform& platform,
              const ScenarioInfo& scenario);
    ~Testbench() override;

    // ScenarioBench
    const SimConfig& config() const override { return config_; }
    model::Platform& platform() override { return platform_; }
    unsigned channels() const override { return dd_.nr_channels; }
    Transfer& prepare(const WorkloadConfig& w, unsigned channel) override;
    void start(Transfer& t) override;
    void open_ring(unsigned slots, dma_hw_direction dir, unsigned channel) override;
    bool submit(Transfer& t) override;
    void close_ring(unsigned channel) override;
    Transfer* oldest(unsigned channel) override;
    void wait(Transfer& t) override;
    void abort(Transfer& t) override;
    bool check(const Transfer& t) override;
    bool check_untouched(const Transfer& t) override;
    bool expect(bool ok, std::string_view what) override;
    using ScenarioBench::expect;  // and its form with a message built on failure
    void exclude_from_measurement(Transfer& t) override;
    void release(Transfer& t) override;
    void delay_cycles(uint64_t cycles) override;
    uint64_t now_cycles() const override;
    void wait_for_completion_until(uint64_t until) override;
    void count_queued(int64_t delta, unsigned channel) override;
    /// Where count_queued() is drawn (the platform's trace); null = nowhere.
    void set_trace(model::TraceSink* sink) { trace_ = sink; }
    uint64_t memory_bytes() const override;
    void add_result(const std::string& name, double value, const std::string& unit,
                    const std::string& description) override;
    const std::vector<ScenarioResult>& results() const { return results_; }

    /// After sc_start: throws what stopped the scenario (ConfigError for a
    /// list that cannot be built, std::runtime_error for anything else);
    /// false if it never finished (the simulation ran out of events first).
    bool finished() const;
    /// The measured transfers' window and counts; none if none completed.
    std::optional<Window> measured() const { return window_.measured(); }
    /// The CPU's handler and poll time, for the run's cycle account.
    const model::CycleTimeline& host_timeline() const;
    /// The first integrity failure, if any.
    const std::optional<Mismatch>& failure() const { return failure_; }
    /// Frees every transfer still held and the IOMMU's page tables (no bus
    /// access needed, so it may run after the simulation).
    void release_all();

private:
    void scenario_thread();
    /// What `thrown` from scenario `scenario`'s body becomes: a ConfigError
    /// stays one, anything else is a std::runtime_error; both name it.
    static std::exception_ptr scenario_error(const std::string& scenario,
                                             std::exception_ptr thrown);
    /// With iommu.enabled: puts the DMA device behind sglist's IOMMU, whose
    /// page tables the driver points the controller at in dmasim_probe().
    void attach_iommu();
    void expect_all_waited();
    /// Ends the scenario: records why, stops the simulation and never
    /// returns. On the scenario's thread it unwinds that thread (throws
    /// ScenarioStopped to scenario_thread()), so what the scenario's frames
    /// hold is freed; on another thread that thread waits for good.
    void stop_scenario(bool config_error, std::string why);
    /// Records why the scenario ends and stops the simulation.
    void record_stop(bool config_error, std::string why);
    /// Suspends the calling thread for good.
    void wait_forever();
    /// What stop_scenario() throws on the scenario's thread.
    struct ScenarioStopped {};
    bool polling() const { return config_.workload.completion == Completion::polling; }
    /// The completion path's poll loop, as this module's thread.
    void poll_thread();
    /// What the submission ports reaped for the completion path to bill.
    struct Reaped {
        uint64_t descriptors = 0;           ///< on every channel
        uint64_t measured_descriptors = 0;  ///< on channels running a measured transfer
        bool for_measured = false;          ///< a measured transfer's channel was acknowledged
        bool by_ring_reads = false;         ///< a ring's reap read some done while it ran
    };
    /// How each channel's transfers reach the engine (submission_port.h).
    class Port;
    class StartPort;
    class RingPort;
    Port& port(const Transfer& t) { return *ports_[t.channel_]; }
    /// Interrupt or poll (completion_path.h).
    class CompletionPath;
    void fail(const Mismatch& m);
    bool record(const std::optional<Mismatch>& m);
    uint64_t next_pattern_base(uint64_t bytes);
    /// Why dmasim_load_prep() failed with `err` for workload `w`.
    std::string prep_error(const WorkloadConfig& w, int err) const;
    bool payload_checked() const { return config_.workload.payload == Payload::checked; }
    void note_device_start(Transfer& t);
    /// fault.kind translation: revokes the faulted page before `t` starts.
    void inject_translation_fault(Transfer& t);
    bool check_device(const Transfer& t);

    const SimConfig& config_;
    model::Platform& platform_;
    const ScenarioInfo& scenario_;
    Cpu cpu_;
    device dma_device_{};
    dmasim_dev dd_{};
    Scoreboard scoreboard_;
    std::vector<std::unique_ptr<Transfer>> transfers_;
    /// By channel: START, or the ring open_ring() gave it.
    std::vector<std::unique_ptr<Port>> ports_;
    MeasurementWindow window_;
    std::unique_ptr<CompletionPath> completions_;
    std::vector<ScenarioResult> results_;
    uint64_t pattern_pos_ = 0;
    unsigned device_in_flight_[2] = {};  ///< device transfers running, by direction
    std::optional<Mismatch> failure_;
    struct Stop {
        bool config_error;
        std::string why;
    };
    std::optional<Stop> stopped_;
    std::exception_ptr error_;  ///< thrown by scenario code itself
    sc_core::sc_event never_;
    sc_core::sc_process_handle scenario_process_;
    bool finished_ = false;
    model::TraceSink* trace_ = nullptr;
};

}  // namespace dmasim::tb
