// request_stream.cc - see request_stream.h.
#include "request_stream.h"

#include <algorithm>
#include <cmath>

namespace dmasim::tb {

RequestStream::RequestStream(const WorkloadConfig& w) : w_(w) {
    if (w.arrival == Arrival::trace) trace_ = &load_request_trace(w.trace);
}

uint64_t RequestStream::count() const { return trace_ ? trace_->size() : w_.requests; }

std::vector<dma_hw_direction> RequestStream::directions() const {
    return trace_ ? trace_directions(*trace_) : std::vector{w_.direction};
}

dma_hw_direction RequestStream::direction(uint64_t i) const {
    return trace_ ? (*trace_)[i].direction : w_.direction;
}

uint64_t RequestStream::max_descriptors() const {
    return trace_ ? longest_request(*trace_) : w_.entries;
}

WorkloadConfig RequestStream::list(uint64_t i) const {
    if (trace_) return as_workload((*trace_)[i], w_);
    WorkloadConfig request = w_;
    request.seed = w_.seed + i;  // fresh data and placement
    return request;
}

WorkloadConfig RequestStream::largest() const {
    if (!trace_) return w_;
    const auto largest =
        std::max_element(trace_->begin(), trace_->end(),
                         [](const auto& a, const auto& b) { return a.bytes() < b.bytes(); });
    return as_workload(*largest, w_);
}

Arrivals::Arrivals(const SimConfig& config, const RequestStream& stream, uint64_t start)
    : w_(config.workload), stream_(stream), rng_(w_.seed), next_(start) {
    if (!stream.trace()) return;
    const double cycles_per_ns = config.platform.clock_mhz / 1000;
    for (const TraceRequest& r : *stream.trace())
        at_.push_back(start + static_cast<uint64_t>(
                                  std::llround(static_cast<double>(r.at_ns) * cycles_per_ns)));
    next_ = at_.front();
}

uint64_t Arrivals::pop() {
    const uint64_t at = next_;
    ++popped_;
    const double mean = static_cast<double>(w_.interarrival_cycles);
    if (!at_.empty())
        next_ = popped_ < at_.size() ? at_[popped_] : at;
    else
        next_ += static_cast<uint64_t>(std::llround(
            w_.arrival == Arrival::poisson ? std::exponential_distribution<double>(1 / mean)(rng_)
                                           : mean));
    return at;
}

std::optional<double> Arrivals::offered() const {
    if (w_.arrival == Arrival::closed) return 0.0;
    if (at_.empty())
        return static_cast<double>(w_.entries * w_.segment_bytes) /
               static_cast<double>(w_.interarrival_cycles);
    const uint64_t span = at_.back() - at_.front();
    if (span == 0) return std::nullopt;
    double bytes = 0;
    for (const TraceRequest& r : *stream_.trace()) bytes += static_cast<double>(r.bytes());
    return bytes / static_cast<double>(span);
}

}  // namespace dmasim::tb
