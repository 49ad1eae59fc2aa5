// pcie_link.cc - PCIe link timing: TLP splitting, serialisation per
// direction, tags and the non-posted round trip (docs/pcie.md).
#include "pcie_link.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "burst.h"

namespace dmasim::model {
namespace {

// Link arithmetic is in fractional cycles (a 24-byte header takes 3.3
// cycles on a Gen3 x8 link at 1 GHz); the engine sees whole cycles, the
// first at or after the fractional one. The slack keeps 3.0000000001 at 3.
uint64_t whole_cycle(double t) { return static_cast<uint64_t>(std::ceil(t - 1e-9)); }

}  // namespace

double PcieLink::raw_gbytes_per_second(unsigned gen, unsigned lanes) {
    static constexpr double kGigatransfers[] = {2.5, 5, 8, 16, 32};
    // Gen1 and Gen2 send 8 bits in 10; Gen3 onwards 128 in 130.
    const double encoding = gen <= 2 ? 8.0 / 10.0 : 128.0 / 130.0;
    return kGigatransfers[gen - 1] * lanes * encoding / 8;
}

PcieLink::PcieLink(const PcieParams& params, Memory& memory, unsigned width_bytes,
                   const Clock& clock)
    : params_(params), memory_(memory), width_(width_bytes) {
    const double period_ns = clock.period().to_seconds() * 1e9;
    rate_ =
        raw_gbytes_per_second(params.gen, params.lanes) * period_ns * (1 - params.dllp_overhead);
    const uint64_t link_layer = params.framing_bytes + params.sequence_bytes + params.lcrc_bytes;
    request_overhead_ = link_layer + params.request_header_bytes;
    completion_overhead_ = link_layer + params.completion_header_bytes;
}

double PcieLink::send(double& free_at, double t, uint64_t wire_bytes) const {
    free_at = std::max(t, free_at) + static_cast<double>(wire_bytes) / rate_;
    return free_at;
}

double PcieLink::take_tag(double t) {
    while (!tags_held_.empty() && tags_held_.top() <= t) tags_held_.pop();
    if (tags_held_.size() >= params_.tags) {
        t = tags_held_.top();
        tags_held_.pop();
    }
    return t;
}

// Requests start on MRRS-aligned addresses; the host answers each with
// completions of at most MPS bytes that end on RCB boundaries (all but
// the last), each sent once the memory has delivered its last byte.
Memory::ReadTiming PcieLink::read(uint64_t t, uint64_t addr, uint64_t bytes) {
    const double half_trip = params_.read_latency_cycles / 2.0;
    const uint64_t mrrs = params_.max_read_request_bytes, mps = params_.max_payload_bytes;
    const uint64_t rcb = params_.read_completion_boundary_bytes;
    double first_data = std::numeric_limits<double>::max(), done = 0;
    for (uint64_t off = 0; off < bytes;) {
        const uint64_t a = addr + off;
        const uint64_t n = std::min(bytes - off, mrrs - a % mrrs);
        const double sent =
            send(upstream_free_, take_tag(static_cast<double>(t)), request_overhead_);
        const Memory::ReadTiming m =
            memory_.read_burst(whole_cycle(sent + half_trip), a, beats_of(a, n, width_), n);
        double request_done = 0;
        for (uint64_t c = 0; c < n;) {
            const uint64_t limit = (a + c + mps) / rcb * rcb;  // last RCB boundary within MPS
            const uint64_t cn = std::min(n - c, limit - (a + c));
            const double ready =
                static_cast<double>(m.data_start + beats_of(a, c + cn, width_)) + half_trip;
            request_done = send(downstream_free_, ready, cn + completion_overhead_);
            first_data = std::min(first_data, request_done - static_cast<double>(cn) / rate_);
            c += cn;
        }
        tags_held_.push(request_done);
        done = std::max(done, request_done);
        off += n;
    }
    return {whole_cycle(first_data), whole_cycle(done)};
}

// Posted: the engine is done with a write when its last TLP has left; the
// host memory absorbs each TLP half a round trip later. A TLP cannot leave
// before the engine's datapath (width bytes per cycle) has handed over its
// payload, so a link faster than the engine runs at the engine's pace.
//
// A memory slower than that datapath (memory.bandwidth_bytes_per_cycle
// below the width; a faster one never holds the link) paces the link too:
// flow-control credits hold a TLP until the memory's write channel is
// free for it on arrival. The completion interrupt is posted as well and
// cannot pass the data, so the write answers once the memory has absorbed
// the last TLP, less what it absorbed while the TLP was still streaming in.
Memory::WriteTiming PcieLink::write(uint64_t t, uint64_t addr, uint64_t bytes) {
    const double half_trip = params_.read_latency_cycles / 2.0;
    const uint64_t mps = params_.max_payload_bytes;
    double sent = static_cast<double>(t);
    double absorbing = 0;  // the last TLP's memory time beyond its link time
    for (uint64_t off = 0; off < bytes;) {
        const uint64_t a = addr + off;
        const uint64_t n = std::min(bytes - off, mps - a % mps);
        const uint64_t beats = beats_of(a, n, width_);
        // The engine's port hands over one beat per cycle, write after write.
        port_free_ = std::max(static_cast<double>(t), port_free_) + static_cast<double>(beats);
        sent = send(upstream_free_, static_cast<double>(t), n + request_overhead_);
        if (sent < port_free_) sent = upstream_free_ = port_free_;
        const uint64_t arrival = whole_cycle(sent + half_trip);
        const uint64_t occupancy = memory_.occupancy(beats);
        const uint64_t start = memory_.write_burst(arrival, a, beats, n).data_end - occupancy;
        if (occupancy > beats) {
            if (start > arrival) sent = upstream_free_ = static_cast<double>(start) - half_trip;
            const double streaming = static_cast<double>(n + request_overhead_) / rate_;
            absorbing = std::max(0.0, static_cast<double>(occupancy) - streaming);
        }
        off += n;
    }
    return {whole_cycle(sent), whole_cycle(sent + absorbing)};
}

}  // namespace dmasim::model
