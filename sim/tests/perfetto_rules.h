// perfetto_rules.h - a checker for Chrome trace-event JSON that applies the
// rules Perfetto's JSON importer (trace_processor, importers/json) follows
// and reports every event it would drop or misplace:
//   - the document is a JSON array of events or an object with traceEvents;
//   - every event has a string "ph" of a known phase; every event but
//     metadata ("M") has a numeric "ts" in microseconds, which the importer
//     turns into nanoseconds with llround(ts * 1000); "dur" likewise;
//   - complete ("X") and begin/end ("B"/"E") slices and thread-scoped
//     instants ("i"/"I" with s = "t") sit on the thread track (pid, tid);
//     sorted by ts, each must nest inside the slices still open on that
//     track: one that starts inside another and ends after it is dropped
//     (slice_drop_overlapping_complete_event); an "E" with nothing open is
//     dropped;
//   - nestable async slices ("b"/"e") need "cat" and "id"; an "e" closes the
//     most recent open "b" of the same (pid, cat, id) and name; a "b" never
//     closed is reported;
//   - counters ("C") need a name and an "args" object whose values are all
//     numbers (a non-numeric value is dropped);
//   - metadata names a process or thread with a string args.name;
//   - flow events ("s", "t", "f", v1) need "id"; a flow is (cat, name, id)
//     and binds, at its ts, to the slice open on its thread ("s", "t", and
//     "f" with "bp":"e") or to the next slice to begin there ("f" without);
//     one that binds to nothing, a flow with no "f", a second "s" or "f" for
//     an id, and points out of time order are reported.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dmasim::sim::test {

struct TraceCheck {
    std::vector<std::string> problems;  ///< one line per dropped or misplaced event
    size_t events = 0;
    std::map<std::string, size_t> by_phase;  ///< "X" -> count, ...
    /// Slices and instants per (process name, thread name).
    std::map<std::pair<std::string, std::string>, size_t> per_thread;
    std::map<std::string, size_t> counters;  ///< counter event name -> events
    /// Each flow, in order of its first event: the (process, thread) of
    /// each slice it binds to, in time order.
    std::vector<std::vector<std::pair<std::string, std::string>>> flows;
};

/// Applies the rules above to the JSON text of a trace.
TraceCheck check_perfetto_rules(const std::string& json_text);

}  // namespace dmasim::sim::test
