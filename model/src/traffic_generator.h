// traffic_generator.h - a background bus master that loads RAM while the
// DMA controller works, for contention scenarios.
//
// It issues bursts of `burst_beats` beats at random aligned RAM addresses,
// reads with probability `read_fraction`, paced to `bytes_per_cycle` on
// average, with at most kMaxOutstanding bursts in flight: when the memory
// cannot keep up, the master waits for its oldest burst instead of queueing
// without bound (which made a run's simulated time, and its cost, grow
// with the square of the demand). Its writes carry all byte enables off,
// so they cost bus time but never change memory. It runs only while `active()` is true and
// otherwise sleeps on `wake`, so an idle platform lets sc_start() return.
// Temporally decoupled with tlm_quantumkeeper: no wait() per burst.
#pragma once

#include <dmasim/model/clock.h>
#include <dmasim/model/params.h>
#include <dmasim/model/trace_sink.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <random>
#include <systemc>
#include <tlm>
#include <vector>

namespace dmasim::model {

class TrafficGenerator : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(TrafficGenerator);

    /// Bursts in flight at most: deep enough that a demand within the bus
    /// capacity is met despite the DMA engine's queue ahead of it.
    static constexpr size_t kMaxOutstanding = 64;

    tlm_utils::simple_initiator_socket<TrafficGenerator> socket;

    TrafficGenerator(sc_core::sc_module_name name, const TrafficParams& params,
                     unsigned width_bytes, uint64_t memory_size, const Clock& clock,
                     std::function<bool()> active, const sc_core::sc_event& wake);

    uint64_t bytes() const { return bytes_; }
    uint64_t bursts() const { return bursts_; }
    uint64_t errors() const { return errors_; }
    /// Where its bursts are traced; null = off.
    void set_trace(TraceSink* sink) { trace_ = sink; }

private:
    void run();
    void issue_one(tlm_utils::tlm_quantumkeeper& qk);

    TrafficParams params_;
    uint64_t memory_size_;
    const Clock& clock_;
    std::function<bool()> active_;
    const sc_core::sc_event& wake_;
    std::mt19937_64 rng_;
    std::vector<uint8_t> data_;
    std::vector<uint8_t> no_enables_;
    std::deque<sc_core::sc_time> completions_;  ///< of the bursts in flight, oldest first
    uint64_t bytes_ = 0;
    uint64_t bursts_ = 0;
    uint64_t errors_ = 0;
    TraceSink* trace_ = nullptr;
};

}  // namespace dmasim::model
