// chrome_trace.h - a TraceSink that streams the model's trace events as
// Chrome trace-event JSON (opens in Perfetto): one complete "X" event per
// span, "i" events for instants, timestamps in microseconds of simulated
// time, one process per component and one thread per track.
#pragma once

#include <dmasim/model/platform.h>

#include <string>
#include <unordered_map>

#include <dmasim/tb/atomic_file.h>

namespace dmasim::tb {

class ChromeTrace : public model::TraceSink {
public:
    explicit ChromeTrace(const std::string& path);

    void span(const std::string& track, const char* what, sc_core::sc_time start,
              sc_core::sc_time end) override;
    void instant(const std::string& track, const char* what, sc_core::sc_time at) override;
    /// Ends the JSON document and moves it into place.
    std::string finish();

private:
    struct Ids {
        unsigned pid;
        unsigned tid;
    };
    const Ids& ids_for(const std::string& track);
    void separator();

    AtomicFile file_;
    std::unordered_map<std::string, Ids> tracks_;
    std::unordered_map<std::string, unsigned> processes_;
    bool first_ = true;
};

}  // namespace dmasim::tb
