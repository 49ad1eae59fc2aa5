// perfetto_rules.cc - see perfetto_rules.h.
#include "perfetto_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

namespace dmasim::sim::test {
namespace {

using nlohmann::json;

std::optional<int64_t> to_ns(const json& v) {
    if (v.is_number_integer()) return v.get<int64_t>() * 1000;
    if (v.is_number()) return std::llround(v.get<double>() * 1000.0);
    return std::nullopt;
}

struct Slice {
    size_t index;
    int64_t start, end;  ///< ns; end = INT64_MAX while a B is open
    char phase;
};

class Checker {
public:
    explicit Checker(TraceCheck& out) : out_(out) {}

    void event(size_t i, const json& e) {
        ++out_.events;
        if (!e.is_object() || !e.contains("ph") || !e["ph"].is_string()) {
            problem(i, "no string \"ph\"");
            return;
        }
        const std::string ph = e["ph"];
        out_.by_phase[ph] += 1;
        if (ph == "M") return metadata(i, e);
        const auto ts = e.contains("ts") ? to_ns(e["ts"]) : std::nullopt;
        if (!ts) return problem(i, "no numeric \"ts\"");
        if (!e.contains("pid") || !e["pid"].is_number_integer())
            return problem(i, "no integer \"pid\"");
        if (ph == "X" || ph == "B" || ph == "E" || ph == "i" || ph == "I")
            return thread_event(i, e, ph[0], *ts);
        if (ph == "C") return counter(i, e);
        if (ph == "b" || ph == "e") return async(i, e, ph[0]);
        if (ph == "s" || ph == "t" || ph == "f") return flow(i, e, ph[0], *ts);
        problem(i, fmt::format("phase '{}' is not one this checker knows", ph));
    }

    void finish() {
        // Perfetto sorts by timestamp (stable for ties) before building slices.
        for (auto& [track, slices] : tracks_) {
            std::stable_sort(slices.begin(), slices.end(),
                             [](const Slice& a, const Slice& b) { return a.start < b.start; });
            std::vector<Slice> open;
            for (const Slice& s : slices) {
                while (!open.empty() && open.back().end <= s.start) open.pop_back();
                if (s.phase == 'E') {
                    if (open.empty() || open.back().phase != 'B')
                        problem(s.index, "E with no open B on its thread");
                    else
                        open.pop_back();
                    continue;
                }
                if (!open.empty() && s.end > open.back().end) {
                    problem(s.index,
                            fmt::format("slice [{}, {}) ns partially overlaps slice of "
                                        "event {} [{}, {}) on thread {}:{}",
                                        s.start, s.end, open.back().index, open.back().start,
                                        open.back().end, track.first, track.second));
                    continue;
                }
                open.push_back(s);
                if (s.phase != 'E') kept_[track].push_back(s);
            }
        }
        bind_flows();
        for (const auto& [key, stack] : async_)
            for (size_t index : stack) problem(index, "async b never ended");
    }

private:
    void problem(size_t i, const std::string& what) {
        out_.problems.push_back(fmt::format("event {}: {}", i, what));
    }

    void metadata(size_t i, const json& e) {
        const std::string name = e.value("name", "");
        if (name != "process_name" && name != "thread_name") return;
        if (!e.contains("args") || !e["args"].contains("name") || !e["args"]["name"].is_string())
            return problem(i, "metadata without a string args.name");
        if (!e.contains("pid") || !e["pid"].is_number_integer())
            return problem(i, "metadata without an integer pid");
        const int64_t pid = e["pid"];
        if (name == "process_name") {
            process_names_[pid] = e["args"]["name"];
        } else {
            if (!e.contains("tid") || !e["tid"].is_number_integer())
                return problem(i, "thread_name without an integer tid");
            thread_names_[{pid, e["tid"].get<int64_t>()}] = e["args"]["name"];
        }
    }

    void thread_event(size_t i, const json& e, char ph, int64_t ts) {
        if ((ph == 'i' || ph == 'I') && e.value("s", "t") != "t") return;  // process/global
        if (!e.contains("tid") || !e["tid"].is_number_integer())
            return problem(i, "no integer \"tid\"");
        int64_t end = ts;
        if (ph == 'X') {
            const auto dur = e.contains("dur") ? to_ns(e["dur"]) : std::nullopt;
            if (!dur || *dur < 0) return problem(i, "X without a non-negative numeric \"dur\"");
            end = ts + *dur;
        }
        if (ph == 'B') end = INT64_MAX;
        const std::pair<int64_t, int64_t> track{e["pid"], e["tid"]};
        tracks_[track].push_back({i, ts, end, ph});
        if (ph != 'E') seen_[track] += 1;
    }

    void counter(size_t i, const json& e) {
        if (!e.contains("name") || !e["name"].is_string())
            return problem(i, "counter without a name");
        if (!e.contains("args") || !e["args"].is_object() || e["args"].empty())
            return problem(i, "counter without args");
        for (const auto& [key, value] : e["args"].items())
            if (!value.is_number())
                problem(i, fmt::format("counter arg '{}' is not a number", key));
        out_.counters[e["name"]] += 1;
    }

    void async(size_t i, const json& e, char ph) {
        if (!e.contains("cat") || !e.contains("id"))
            return problem(i, "async event without cat or id");
        const std::string key =
            fmt::format("{}/{}/{}", e["pid"].dump(), e["cat"].dump(), e["id"].dump());
        auto& stack = async_[key];
        if (ph == 'b') {
            stack.push_back(i);
            async_names_[i] = e.value("name", "");
            return;
        }
        if (stack.empty() || async_names_[stack.back()] != e.value("name", ""))
            return problem(i, "async e does not match the last open b of its id");
        stack.pop_back();
    }

    struct FlowEvent {
        size_t index;
        char phase;
        int64_t ts;
        std::pair<int64_t, int64_t> track;
        bool enclosing;  ///< binds to the slice open at ts, not the next one
    };

    void flow(size_t i, const json& e, char ph, int64_t ts) {
        if (!e.contains("id")) return problem(i, "flow event without an id");
        if (!e.contains("tid") || !e["tid"].is_number_integer())
            return problem(i, "no integer \"tid\"");
        const std::string key =
            fmt::format("{}/{}/{}", e.value("cat", ""), e.value("name", ""), e["id"].dump());
        if (!flows_.count(key)) flow_order_.push_back(key);
        flows_[key].push_back(
            {i, ph, ts, {e["pid"], e["tid"]}, ph != 'f' || e.value("bp", "") == "e"});
    }

    /// The slice a flow event binds to on its thread, if any: the innermost
    /// one open at its ts, or the first to begin after it.
    const Slice* bound_slice(const FlowEvent& f) const {
        const auto found = kept_.find(f.track);
        if (found == kept_.end()) return nullptr;
        const Slice* best = nullptr;
        for (const Slice& s : found->second) {
            if (f.enclosing && s.start <= f.ts && f.ts < s.end) best = &s;
            if (!f.enclosing && s.start > f.ts) return &s;
        }
        return best;
    }

    void bind_flows() {
        for (const std::string& key : flow_order_) {
            std::vector<FlowEvent>& events = flows_[key];
            std::stable_sort(events.begin(), events.end(),
                             [](const FlowEvent& a, const FlowEvent& b) { return a.ts < b.ts; });
            const size_t starts = std::count_if(events.begin(), events.end(),
                                                [](const FlowEvent& f) { return f.phase == 's'; });
            const size_t ends = std::count_if(events.begin(), events.end(),
                                              [](const FlowEvent& f) { return f.phase == 'f'; });
            if (starts != 1 || ends != 1 || events.front().phase != 's' ||
                events.back().phase != 'f') {
                problem(events.front().index,
                        fmt::format("flow {} has {} s and {} f events, not one s first and "
                                    "one f last",
                                    key, starts, ends));
                continue;
            }
            std::vector<std::pair<std::string, std::string>> bound;
            for (const FlowEvent& f : events) {
                if (!bound_slice(f)) {
                    problem(f.index, fmt::format("flow {} binds to no slice on thread {}:{}", key,
                                                 f.track.first, f.track.second));
                    continue;
                }
                bound.push_back(thread_name(f.track));
            }
            out_.flows.push_back(bound);
        }
    }

    std::pair<std::string, std::string> thread_name(const std::pair<int64_t, int64_t>& track) {
        const std::string process = process_names_.count(track.first)
                                        ? process_names_[track.first]
                                        : fmt::format("pid {}", track.first);
        const std::string thread =
            thread_names_.count(track) ? thread_names_[track] : fmt::format("tid {}", track.second);
        return {process, thread};
    }

public:
    void name_threads() {
        for (const auto& [track, count] : seen_) out_.per_thread[thread_name(track)] += count;
    }

private:
    TraceCheck& out_;
    std::map<std::pair<int64_t, int64_t>, std::vector<Slice>> tracks_;
    /// Per thread, the slices and instants the importer keeps, by start.
    std::map<std::pair<int64_t, int64_t>, std::vector<Slice>> kept_;
    std::map<std::string, std::vector<FlowEvent>> flows_;  ///< by (cat, name, id)
    std::vector<std::string> flow_order_;
    std::map<std::pair<int64_t, int64_t>, size_t> seen_;
    std::map<std::string, std::vector<size_t>> async_;
    std::map<size_t, std::string> async_names_;
    std::map<int64_t, std::string> process_names_;
    std::map<std::pair<int64_t, int64_t>, std::string> thread_names_;
};

}  // namespace

TraceCheck check_perfetto_rules(const std::string& json_text) {
    TraceCheck out;
    const json doc = json::parse(json_text, nullptr, false);
    if (doc.is_discarded()) {
        out.problems.push_back("the document is not valid JSON");
        return out;
    }
    const json* events = &doc;
    if (doc.is_object()) {
        if (!doc.contains("traceEvents") || !doc["traceEvents"].is_array()) {
            out.problems.push_back("an object without a traceEvents array");
            return out;
        }
        events = &doc["traceEvents"];
    } else if (!doc.is_array()) {
        out.problems.push_back("neither an array nor an object");
        return out;
    }
    Checker checker(out);
    for (size_t i = 0; i < events->size(); ++i) checker.event(i, (*events)[i]);
    checker.finish();
    checker.name_threads();
    return out;
}

}  // namespace dmasim::sim::test
