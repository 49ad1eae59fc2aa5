// traffic_generator.cc - the background master's burst loop.
#include "traffic_generator.h"

#include <algorithm>

namespace dmasim::model {

TrafficGenerator::TrafficGenerator(sc_core::sc_module_name name, const TrafficParams& params,
                                   unsigned width_bytes, uint64_t memory_size, const Clock& clock,
                                   std::function<bool()> active, const sc_core::sc_event& wake)
    : sc_module(name),
      socket("socket"),
      params_(params),
      memory_size_(memory_size),
      clock_(clock),
      active_(std::move(active)),
      wake_(wake),
      rng_(params.seed),
      data_(uint64_t(params.burst_beats) * width_bytes),
      no_enables_(data_.size(), TLM_BYTE_DISABLED) {
    if (params_.bytes_per_cycle > 0 && params_.burst_beats > 0) SC_THREAD(run);
}

void TrafficGenerator::issue_one(tlm_utils::tlm_quantumkeeper& qk) {
    uint64_t bytes = data_.size();
    uint64_t slots = std::max<uint64_t>(1, memory_size_ / bytes);
    uint64_t addr = (rng_() % slots) * bytes;
    bool read = std::generate_canonical<double, 32>(rng_) < params_.read_fraction;

    tlm::tlm_generic_payload trans;
    trans.set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    trans.set_address(addr);
    trans.set_data_ptr(data_.data());
    trans.set_data_length(static_cast<unsigned>(bytes));
    trans.set_streaming_width(static_cast<unsigned>(bytes));
    if (!read) {
        trans.set_byte_enable_ptr(no_enables_.data());
        trans.set_byte_enable_length(static_cast<unsigned>(bytes));
    }
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    if (completions_.size() == kMaxOutstanding) {
        // No free slot: issue when the oldest burst in flight completes.
        const sc_core::sc_time oldest = completions_.front();
        completions_.pop_front();
        if (oldest > sc_core::sc_time_stamp() + qk.get_local_time())
            qk.set(oldest - sc_core::sc_time_stamp());
    }
    sc_core::sc_time delay = qk.get_local_time();
    const sc_core::sc_time issued = sc_core::sc_time_stamp() + delay;
    socket->b_transport(trans, delay);
    completions_.push_back(sc_core::sc_time_stamp() + delay);
    if (trans.is_response_error()) ++errors_;
    if (trace_) {
        TraceArgs args;
        args.address = addr;
        args.bytes = bytes;
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        trace_->slice(TraceTrack::background, 0, read ? "read" : "write",
                      clock_.cycle_at_or_after(issued), clock_.cycle_at_or_after(now + delay),
                      args);
    }
    bytes_ += bytes;
    ++bursts_;
    // Pace by demand, not by completion: the master posts its next request
    // on schedule whether or not the last one has finished.
    qk.inc(clock_.period() * (static_cast<double>(bytes) / params_.bytes_per_cycle));
}

void TrafficGenerator::run() {
    tlm_utils::tlm_quantumkeeper qk;
    qk.reset();
    for (;;) {
        if (!active_()) {
            qk.sync();
            sc_core::wait(wake_);
            qk.reset();
        }
        issue_one(qk);
        if (qk.need_sync()) qk.sync();
    }
}

}  // namespace dmasim::model
