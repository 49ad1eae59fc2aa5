// counter_signals.cc - see counter_signals.h.
#include "counter_signals.h"

#include <fmt/format.h>

#include <algorithm>

namespace dmasim::tb {

CounterSignals::CounterSignals(sc_core::sc_module_name name, double clock_mhz, unsigned channels)
    : sc_module(name), clock_(clock_mhz), levels_(channels) {
    for (unsigned ch = 0; ch < channels; ++ch) channels_.push_back(std::make_unique<Channel>());
    SC_THREAD(replay);
}

void CounterSignals::push(uint64_t at, unsigned channel, Level level, int64_t delta) {
    if (channel >= channels_.size()) return;
    pending_.push({at, arrivals_++, channel, level, delta});
    pushed_.notify(sc_core::SC_ZERO_TIME);
}

void CounterSignals::instant(model::TraceTrack track, unsigned channel, const char*, uint64_t at) {
    if (track != model::TraceTrack::irq) return;
    // One cycle high per interrupt raised.
    push(at, channel, Level::irq, +1);
    push(at + 1, channel, Level::irq, -1);
}

void CounterSignals::counter(model::TraceCounter counter, unsigned channel, uint64_t at,
                             int64_t delta) {
    switch (counter) {
        case model::TraceCounter::reads_in_flight:
            push(at, channel, Level::reads, delta);
            break;
        case model::TraceCounter::writes_in_flight:
            push(at, channel, Level::writes, delta);
            break;
        case model::TraceCounter::buffer_bytes:
            push(at, channel, Level::buffer, delta);
            break;
        default:
            break;  // FIFO level, bytes moved, requests queued: Chrome trace only
    }
}

// Changes planned for a cycle already past (rare: planning runs ahead of
// time, not behind it) are applied now.
void CounterSignals::replay() {
    for (;;) {
        const uint64_t now = clock_.now();
        while (!pending_.empty() && pending_.top().at <= now) {
            const Change c = pending_.top();
            pending_.pop();
            int64_t& level = levels_[c.channel][static_cast<size_t>(c.level)];
            level += c.delta;
            const auto value = static_cast<uint32_t>(std::max<int64_t>(0, level));
            Channel& s = *channels_[c.channel];
            switch (c.level) {
                case Level::reads:
                    s.reads_in_flight.write(value);
                    break;
                case Level::writes:
                    s.writes_in_flight.write(value);
                    break;
                case Level::buffer:
                    s.buffer_bytes.write(value);
                    break;
                case Level::irq:
                    s.irq.write(value > 0);
                    break;
            }
        }
        if (pending_.empty())
            sc_core::wait(pushed_);
        else
            sc_core::wait(clock_.at(pending_.top().at) - sc_core::sc_time_stamp(), pushed_);
    }
}

}  // namespace dmasim::tb
