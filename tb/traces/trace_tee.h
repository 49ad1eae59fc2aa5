// trace_tee.h - hands every trace record to each of several sinks (the
// Chrome trace, the VCD's counter signals and the AXI VCD, when more than
// one is asked for).
#pragma once

#include <dmasim/model/platform.h>

#include <vector>

namespace dmasim::tb {

class TraceTee : public model::TraceSink {
public:
    explicit TraceTee(std::vector<model::TraceSink*> sinks) : sinks_(std::move(sinks)) {}
    void slice(model::TraceTrack track, unsigned channel, const char* what, uint64_t from,
               uint64_t to, const model::TraceArgs& args) override {
        for (model::TraceSink* s : sinks_) s->slice(track, channel, what, from, to, args);
    }
    void instant(model::TraceTrack track, unsigned channel, const char* what,
                 uint64_t at) override {
        for (model::TraceSink* s : sinks_) s->instant(track, channel, what, at);
    }
    void counter(model::TraceCounter counter, unsigned channel, uint64_t at,
                 int64_t delta) override {
        for (model::TraceSink* s : sinks_) s->counter(counter, channel, at, delta);
    }
    void port_burst(unsigned channel, const model::PortBurst& burst) override {
        for (model::TraceSink* s : sinks_) s->port_burst(channel, burst);
    }

private:
    std::vector<model::TraceSink*> sinks_;
};

}  // namespace dmasim::tb
