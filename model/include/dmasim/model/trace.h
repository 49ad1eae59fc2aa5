// trace.h - a channel's named trace tracks. Each record costs one pointer
// test when no TraceSink is attached.
#pragma once

#include <dmasim/model/clock.h>
#include <dmasim/model/platform.h>
#include <fmt/format.h>

#include <cstdint>
#include <string>

namespace dmasim::model {

struct ChannelTracks {
    ChannelTracks(unsigned channel, TraceSink* const* sink, const Clock* clock)
        : sink(sink),
          clock(clock),
          desc(fmt::format("ch{} desc", channel)),
          read(fmt::format("ch{} read", channel)),
          write(fmt::format("ch{} write", channel)),
          irq(fmt::format("ch{} irq", channel)) {}

    void span(const std::string& track, const char* what, uint64_t from, uint64_t to) const {
        if (*sink) (*sink)->span(track, what, clock->at(from), clock->at(to));
    }
    void instant(const std::string& track, const char* what, uint64_t at) const {
        if (*sink) (*sink)->instant(track, what, clock->at(at));
    }

    TraceSink* const* sink;
    const Clock* clock;
    std::string desc, read, write, irq;
};

}  // namespace dmasim::model
