// request_results.h - what the requests scenario reports of a stream
// (docs/scenarios.md, "requests"): each request's latency from its
// arrival to the completion the driver saw (mean and nearest-rank
// quantiles, in cycles and in microseconds), the requests dropped or that
// waited for a place, the payload carried, and how busy and how full the
// rings ran over the stream's time.
#pragma once

#include <dmasim/tb/scenario.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace dmasim::tb {

class RequestResults {
public:
    /// A stream of `requests` requests that begins at cycle `start`.
    RequestResults(uint64_t start, uint64_t requests);

    /// A request found its ring full and was dropped (workload.ring_full drop).
    void dropped() { ++dropped_; }
    /// A request found its ring full and waits for a place.
    void waited() { ++waited_; }
    /// Since the previous sample, up to cycle `now`, the rings and their
    /// queues held `queued` requests, and the engine had work if `running`.
    void sample(uint64_t now, uint64_t queued, bool running);
    /// A request of `bytes` payload that arrived at cycle `arrived` was
    /// seen complete by the driver at cycle `now`.
    void completed(uint64_t bytes, uint64_t arrived, uint64_t now);
    /// Requests done with: completed or dropped.
    uint64_t settled() const { return latency_.size() + dropped_; }

    /// Adds the stream's figures to `bench`'s report, the stream's time
    /// ending now; `offered` is what the arrivals offer (arrivals.offered()).
    void report(ScenarioBench& bench, std::optional<double> offered);

private:
    uint64_t start_;
    std::vector<uint64_t> latency_;  ///< cycles, in completion order until report() sorts them
    uint64_t dropped_ = 0, waited_ = 0;
    uint64_t queued_area_ = 0;  ///< requests × cycles held in the rings and queues
    uint64_t busy_ = 0;         ///< cycles with a request in a ring
    uint64_t bytes_ = 0;        ///< payload of the completed requests
    uint64_t last_;             ///< cycle of the latest sample
};

}  // namespace dmasim::tb
