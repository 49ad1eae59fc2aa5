// trace_tee.h - hands every trace record to two sinks (the Chrome trace
// and the VCD's counter signals, when both are asked for).
#pragma once

#include <dmasim/model/platform.h>

namespace dmasim::tb {

class TraceTee : public model::TraceSink {
public:
    TraceTee(model::TraceSink& a, model::TraceSink& b) : a_(a), b_(b) {}
    void slice(model::TraceTrack track, unsigned channel, const char* what, uint64_t from,
               uint64_t to, const model::TraceArgs& args) override {
        a_.slice(track, channel, what, from, to, args);
        b_.slice(track, channel, what, from, to, args);
    }
    void instant(model::TraceTrack track, unsigned channel, const char* what,
                 uint64_t at) override {
        a_.instant(track, channel, what, at);
        b_.instant(track, channel, what, at);
    }
    void counter(model::TraceCounter counter, unsigned channel, uint64_t at,
                 int64_t delta) override {
        a_.counter(counter, channel, at, delta);
        b_.counter(counter, channel, at, delta);
    }

private:
    model::TraceSink& a_;
    model::TraceSink& b_;
};

}  // namespace dmasim::tb
