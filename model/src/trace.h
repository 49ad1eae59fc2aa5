// trace.h - a channel's view of the trace sink. Callers test on() before
// building arguments, so with no sink attached a traced point costs one
// pointer test and nothing else.
#pragma once

#include <dmasim/model/cycle_account.h>
#include <dmasim/model/params.h>
#include <dmasim/model/trace_sink.h>

#include <cstdint>

namespace dmasim::model {

struct ChannelTracks {
    ChannelTracks(unsigned channel, TraceSink* const* sink) : sink(sink), channel(channel) {}

    bool on() const { return *sink != nullptr; }
    void slice(TraceTrack track, const char* what, uint64_t from, uint64_t to,
               const TraceArgs& args) const {
        (*sink)->slice(track, channel, what, from, to, args);
    }
    void instant(TraceTrack track, const char* what, uint64_t at) const {
        if (on()) (*sink)->instant(track, channel, what, at);
    }
    void counter(TraceCounter c, uint64_t at, int64_t delta) const {
        (*sink)->counter(c, channel, at, delta);
    }
    void port_burst(const PortBurst& burst) const { (*sink)->port_burst(channel, burst); }

    /// Charges [from, to) to `cause` in the channel's cycle account.
    void charge(Cause cause, uint64_t from, uint64_t to) const {
        timeline->charge(cause, from, to);
    }
    /// Books [from, to) as the channel's next step waiting on `cause`.
    void stall(Cause cause, uint64_t from, uint64_t to) const { timeline->stall(cause, from, to); }

    TraceSink* const* sink;
    unsigned channel;
    CycleTimeline* timeline = nullptr;  ///< the channel's cycle account (set by its owner)
};

}  // namespace dmasim::model
