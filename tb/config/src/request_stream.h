// request_stream.h - the requests of the requests scenario
// (docs/scenarios.md, "requests") in pieces: which requests a stream
// carries (RequestStream) and when they arrive (Arrivals). A trace is
// parsed once per process and shared by the scenario's check, its
// footprint and its run.
#pragma once

#include <dmasim/tb/request_trace.h>
#include <dmasim/tb/sim_config.h>

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

namespace dmasim::tb {

/// The requests a stream carries: workload.requests lists of the
/// configured workload, or the requests of workload.trace.
class RequestStream {
public:
    /// Loads workload.trace when workload.arrival is trace (TraceError if
    /// it cannot be); `w` must outlive the stream.
    explicit RequestStream(const WorkloadConfig& w);

    uint64_t count() const;
    /// The trace's requests; null for a drawn stream.
    const std::vector<TraceRequest>* trace() const { return trace_; }
    /// The directions of the requests, each once, in the order they first appear.
    std::vector<dma_hw_direction> directions() const;
    dma_hw_direction direction(uint64_t i) const;
    /// Descriptors of the longest request, at most (an IOMMU may merge).
    uint64_t max_descriptors() const;
    /// The list of the `i`-th request.
    WorkloadConfig list(uint64_t i) const;
    /// The list of the request with the most payload bytes.
    WorkloadConfig largest() const;

private:
    const WorkloadConfig& w_;
    const std::vector<TraceRequest>* trace_ = nullptr;
};

/// When a stream's requests arrive, in cycles: a trace's times, or drawn
/// periodic or Poisson gaps (workload.arrival; a closed stream's requests
/// arrive as earlier ones complete, which the scenario decides).
class Arrivals {
public:
    /// The first request arrives at cycle `start` (a trace: its first
    /// AT_NS after `start`).
    Arrivals(const SimConfig& config, const RequestStream& stream, uint64_t start);

    /// Arrival cycle of the next request.
    uint64_t peek() const { return next_; }
    /// Takes the next request's arrival cycle.
    uint64_t pop();
    /// Payload bytes per cycle the arrivals offer (0: a closed stream); none
    /// for a trace whose requests all arrive at one instant, which offers
    /// its bytes over no time at all: no rate.
    std::optional<double> offered() const;

private:
    const WorkloadConfig& w_;
    const RequestStream& stream_;
    std::mt19937_64 rng_;
    uint64_t next_;
    uint64_t popped_ = 0;
    std::vector<uint64_t> at_;  ///< trace requests' arrival cycles
};

}  // namespace dmasim::tb
