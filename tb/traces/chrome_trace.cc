// chrome_trace.cc - see chrome_trace.h.
#include "chrome_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace dmasim::tb {
namespace {

using model::TraceArgs;
using model::TraceCounter;
using model::TraceTrack;

bool per_channel(TraceTrack t) { return t <= TraceTrack::irq; }

const char* track_name(TraceTrack t) {
    switch (t) {
        case TraceTrack::fetch:
            return "descriptor fetch";
        case TraceTrack::decode:
            return "decode";
        case TraceTrack::read:
            return "read";
        case TraceTrack::write:
            return "write";
        case TraceTrack::writeback:
            return "write-back";
        case TraceTrack::irq:
            return "IRQ";
        case TraceTrack::ram_read:
            return "read channel";
        case TraceTrack::ram_write:
            return "write channel";
        case TraceTrack::device_source:
            return "source (device to memory)";
        case TraceTrack::device_sink:
            return "sink (memory to device)";
        case TraceTrack::background:
            return "bursts";
    }
    return "?";
}

// Resource processes follow the channels (pid 1..16) in a fixed order.
constexpr unsigned kFirstResourcePid = 100;
unsigned resource_pid(TraceTrack t) {
    switch (t) {
        case TraceTrack::ram_read:
        case TraceTrack::ram_write:
            return kFirstResourcePid;
        case TraceTrack::device_source:
        case TraceTrack::device_sink:
            return kFirstResourcePid + 1;
        default:
            return kFirstResourcePid + 2;
    }
}
std::string process_name(unsigned pid) {
    if (pid < kFirstResourcePid) return fmt::format("DMA channel {}", pid - 1);
    const char* names[] = {"RAM", "device port", "background master"};
    return names[pid - kFirstResourcePid];
}

struct CounterInfo {
    const char* name;
    const char* unit;  ///< the arg key: Perfetto names the track "name unit"
};
CounterInfo counter_info(TraceCounter c) {
    switch (c) {
        case TraceCounter::reads_in_flight:
            return {"reads in flight", "transactions"};
        case TraceCounter::writes_in_flight:
            return {"writes in flight", "transactions"};
        case TraceCounter::buffer_bytes:
            return {"buffer held", "bytes"};
        case TraceCounter::descriptor_fifo:
            return {"descriptor FIFO", "descriptors"};
        case TraceCounter::bytes_moved:
            return {"bytes moved", "bytes"};
        case TraceCounter::requests_queued:
            return {"requests queued", "requests"};
    }
    return {"?", "value"};
}

std::string micros(uint64_t ns) { return fmt::format("{}.{:03}", ns / 1000, ns % 1000); }

std::string args_json(const TraceArgs& a) {
    std::string out;
    auto add = [&out](const char* key, uint64_t v, bool hex = false) {
        if (v == TraceArgs::kUnset) return;
        out += out.empty() ? "" : ",";
        out += hex ? fmt::format("\"{}\":\"{:#x}\"", key, v) : fmt::format("\"{}\":{}", key, v);
    };
    add("address", a.address, true);
    add("bytes", a.bytes);
    add("beats", a.beats);
    add("descriptor", a.descriptor);
    add("chunk", a.chunk);
    add("slots", a.slots);
    add("over_prefetched", a.over_prefetched);
    return "{" + out + "}";
}

// A rough size of one event, to keep counters (written last) within the cap.
constexpr size_t kCounterEventBytes = 100;

}  // namespace

ChromeTrace::ChromeTrace(const std::string& path, double clock_mhz, const TraceLimits& limits,
                         bool flows)
    : file_(path), clock_mhz_(clock_mhz), limits_(limits), flows_(flows) {
    file_.write("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
}

uint64_t ChromeTrace::ns_of(uint64_t cycle) const {
    return static_cast<uint64_t>(std::llround(static_cast<double>(cycle) * 1000.0 / clock_mhz_));
}

bool ChromeTrace::admit(size_t estimated_bytes, uint64_t cycle) {
    if (written_ + estimated_bytes + pending_counter_events_ * kCounterEventBytes <=
        limits_.max_bytes)
        return true;
    if (!capped_at_ || cycle < *capped_at_) capped_at_ = cycle;
    return false;
}

void ChromeTrace::event(const std::string& json) {
    if (!first_) file_.write(",\n");
    first_ = false;
    file_.write(json);
    written_ += json.size() + 2;
}

unsigned ChromeTrace::pid_of(TraceTrack track, unsigned channel) {
    const unsigned pid = per_channel(track) ? channel + 1 : resource_pid(track);
    if (processes_.emplace(pid, true).second) {
        event(fmt::format(R"({{"name":"process_name","ph":"M","pid":{},"args":{{"name":"{}"}}}})",
                          pid, process_name(pid)));
        event(fmt::format(
            R"({{"name":"process_sort_index","ph":"M","pid":{},"args":{{"sort_index":{}}}}})", pid,
            pid));
    }
    return pid;
}

// The first lane whose last slice ends by `start_ns`; a new lane if none.
// Each lane's slices are then disjoint whatever order they arrive in.
unsigned ChromeTrace::lane_tid(TraceTrack track, unsigned channel, uint64_t start_ns,
                               uint64_t end_ns) {
    Lanes& lanes = lanes_[{track, channel}];
    size_t lane = 0;
    while (lane < lanes.end_ns.size() && lanes.end_ns[lane] > start_ns) ++lane;
    if (lane == lanes.end_ns.size()) {
        const unsigned pid = pid_of(track, channel);
        const unsigned tid = next_tid_++;
        const std::string name =
            lane == 0 ? track_name(track) : fmt::format("{} {}", track_name(track), lane + 1);
        event(fmt::format(
            R"({{"name":"thread_name","ph":"M","pid":{},"tid":{},"args":{{"name":"{}"}}}})", pid,
            tid, name));
        event(fmt::format(
            R"({{"name":"thread_sort_index","ph":"M","pid":{},"tid":{},"args":{{"sort_index":{}}}}})",
            pid, tid, static_cast<unsigned>(track) * 1000 + lane));
        lanes.end_ns.push_back(0);
        lanes.tid.push_back(tid);
    }
    lanes.end_ns[lane] = end_ns;
    return lanes.tid[lane];
}

void ChromeTrace::slice(TraceTrack track, unsigned channel, const char* what, uint64_t from,
                        uint64_t to, const TraceArgs& args) {
    from = std::max(from, limits_.from_cycle);
    to = std::min(to, limits_.to_cycle);
    if (from > to || (from == to && (from < limits_.from_cycle || to >= limits_.to_cycle))) return;
    const std::string arg_text = args_json(args);
    if (!admit(arg_text.size() + 120, from)) return;
    const uint64_t start_ns = ns_of(from), end_ns = ns_of(to);
    const unsigned tid = lane_tid(track, channel, start_ns, end_ns);
    event(fmt::format(
        R"({{"name":"{}","cat":"dma","ph":"X","ts":{},"dur":{},"pid":{},"tid":{},"args":{}}})",
        what, micros(start_ns), micros(end_ns - start_ns), pid_of(track, channel), tid, arg_text));
    // A flow binds to the slice open at its ts: the middle of this one,
    // strictly inside it whenever it lasts 2 ns or more.
    if (flows_)
        note_flow(track, channel, from, to,
                  {start_ns + (end_ns - start_ns) / 2, pid_of(track, channel), tid}, args);
}

void ChromeTrace::instant(TraceTrack track, unsigned channel, const char* what, uint64_t at) {
    if (at < limits_.from_cycle || at >= limits_.to_cycle || !admit(120, at)) return;
    const uint64_t ns = ns_of(at);
    const unsigned tid = lane_tid(track, channel, ns, ns);
    event(fmt::format(R"({{"name":"{}","cat":"dma","ph":"i","s":"t","ts":{},"pid":{},"tid":{}}})",
                      what, micros(ns), pid_of(track, channel), tid));
    if (flows_ && track == TraceTrack::irq)
        irqs_[channel].push_back({at, {ns, pid_of(track, channel), tid}});
}

void ChromeTrace::note_flow(TraceTrack track, unsigned channel, uint64_t from, uint64_t to,
                            const FlowPoint& point, const TraceArgs& args) {
    if (track == TraceTrack::fetch && args.slots != TraceArgs::kUnset) {
        fetches_[channel].push_back({args.address, args.bytes, to, point});
        return;
    }
    const bool own = track == TraceTrack::decode || track == TraceTrack::read ||
                     track == TraceTrack::write || track == TraceTrack::writeback;
    if (!own || args.descriptor == TraceArgs::kUnset) return;
    DescriptorSlices& d = descriptors_[{channel, args.descriptor}];
    d.points.push_back(point);
    d.end_cycle = std::max(d.end_cycle, to);
    if (track == TraceTrack::decode) {
        d.slot = args.address;
        d.decoded_from = from;
    }
}

// The fetch that read each descriptor: of the fetches whose bytes hold its
// slot, the last to end by its decode (a ring reuses slots).
std::map<std::pair<unsigned, uint64_t>, ChromeTrace::FlowPoint> ChromeTrace::fetch_points() const {
    std::map<std::pair<unsigned, uint64_t>, FlowPoint> found;
    for (const auto& [channel, fetches] : fetches_) {
        std::map<uint64_t, std::vector<const FetchSlice*>> by_slot;  // slot -> fetches holding it
        for (const auto& [key, d] : descriptors_)
            if (key.first == channel && d.slot != TraceArgs::kUnset) by_slot[d.slot];
        for (const FetchSlice& f : fetches)
            for (auto it = by_slot.lower_bound(f.address);
                 it != by_slot.end() && it->first < f.address + f.bytes; ++it)
                it->second.push_back(&f);
        for (const auto& [key, d] : descriptors_) {
            if (key.first != channel || d.slot == TraceArgs::kUnset) continue;
            const FetchSlice* best = nullptr;
            for (const FetchSlice* f : by_slot[d.slot])
                if (f->end_cycle <= d.decoded_from && (!best || f->end_cycle >= best->end_cycle))
                    best = f;
            if (best) found[key] = best->point;
        }
    }
    return found;
}

// Where the flow of a descriptor completed at `cycle` reaches the first
// interrupt of `channel` at or after it: 1 ns before that instant, so an
// "f" without "bp":"e" binds to the next slice on its thread, the instant
// itself (an instant is open for no time, so it cannot enclose one). None
// if no interrupt follows, or the one before it is too close to tell apart.
std::optional<ChromeTrace::FlowPoint> ChromeTrace::irq_after(unsigned channel,
                                                             uint64_t cycle) const {
    const auto found = irqs_.find(channel);
    if (found == irqs_.end()) return std::nullopt;
    const std::vector<Irq>& list = found->second;
    const auto it = std::lower_bound(list.begin(), list.end(), cycle,
                                     [](const Irq& irq, uint64_t c) { return irq.cycle < c; });
    if (it == list.end() || it->point.ns == 0) return std::nullopt;
    if (it != list.begin() && std::prev(it)->point.ns + 1 >= it->point.ns) return std::nullopt;
    FlowPoint before = it->point;
    before.ns -= 1;
    return before;
}

// Flow v1 events, as Perfetto's JSON importer reads them
// (trace_processor/importers/json/json_trace_parser_impl.cc, phases s, t
// and f; the Trace Event Format's "Flow events"): one id per descriptor,
// an "s" at its first slice, a "t" at each next one in time order and an
// "f" at its last ("bp":"e": bound to the slice around it, not the next).
// Each binds to the slice open on its thread at its ts, so a chain is
// written whole or not at all.
void ChromeTrace::write_flows() {
    const auto fetched = fetch_points();
    uint64_t id = 0;
    for (const auto& [key, d] : descriptors_) {
        std::vector<FlowPoint> chain = d.points;
        if (const auto f = fetched.find(key); f != fetched.end()) chain.push_back(f->second);
        std::stable_sort(chain.begin(), chain.end(),
                         [](const FlowPoint& a, const FlowPoint& b) { return a.ns < b.ns; });
        const std::optional<FlowPoint> irq = irq_after(key.first, d.end_cycle);
        const bool to_irq = irq && irq->ns > chain.back().ns;
        if (to_irq) chain.push_back(*irq);
        if (chain.size() < 2) continue;
        ++id;
        std::string events;
        for (size_t i = 0; i < chain.size(); ++i) {
            const bool last = i + 1 == chain.size();
            events += fmt::format(
                R"({}{{"name":"descriptor","cat":"flow","ph":"{}","id":{},"ts":{},"pid":{},"tid":{}{}}})",
                i ? ",\n" : "",
                i == 0 ? "s"
                : last ? "f"
                       : "t",
                id, micros(chain[i].ns), chain[i].pid, chain[i].tid,
                last && !to_irq ? R"(,"bp":"e")" : "");
        }
        if (!admit(events.size(), d.end_cycle)) return;
        event(events);
    }
}

void ChromeTrace::counter(TraceCounter counter, unsigned channel, uint64_t at, int64_t delta) {
    const CounterKey key{counter, channel};
    if (at < limits_.from_cycle) {
        base_[key] += delta;
        return;
    }
    if (at >= limits_.to_cycle || !admit(0, at)) return;
    changes_[key].push_back({at, delta});
    ++pending_counter_events_;
}

// One "C" event per cycle a counter changes, in time order; a window that
// starts late opens with the level reached before it.
void ChromeTrace::write_counters() {
    std::map<CounterKey, bool> keys;
    for (const auto& [key, base] : base_) keys[key] = true;
    for (const auto& [key, list] : changes_) keys[key] = true;
    for (const auto& [key, unused] : keys) {
        const auto [counter, channel] = key;
        const CounterInfo info = counter_info(counter);
        const unsigned pid = pid_of(model::TraceTrack::fetch, channel);
        auto emit = [&](uint64_t at, int64_t value) {
            event(fmt::format(R"({{"name":"{}","ph":"C","ts":{},"pid":{},"args":{{"{}":{}}}}})",
                              info.name, micros(ns_of(at)), pid, info.unit, value));
        };
        int64_t level = base_[key];
        if (limits_.from_cycle > 0) emit(limits_.from_cycle, level);
        std::vector<Change>& list = changes_[key];
        std::stable_sort(list.begin(), list.end(),
                         [](const Change& a, const Change& b) { return a.at < b.at; });
        for (size_t i = 0; i < list.size();) {
            const uint64_t at = list[i].at;
            for (; i < list.size() && list[i].at == at; ++i) level += list[i].delta;
            emit(at, level);
        }
    }
}

// Equal slices, each written as one "C" event whose args are the causes
// that took any cycle of the window: Perfetto draws one track per cause,
// and their values add up to 100 in every slice.
void ChromeTrace::account(unsigned channel, const model::CycleTimeline& timeline, uint64_t from,
                          uint64_t to) {
    from = std::max(from, limits_.from_cycle);
    to = std::min(to, limits_.to_cycle);
    if (from >= to) return;
    const model::CycleAccount whole = model::account_over({&timeline}, from, to);
    std::vector<size_t> causes;
    for (size_t c = 0; c < model::kCauses; ++c)
        if (whole[c] > 0) causes.push_back(c);
    const uint64_t step =
        std::max<uint64_t>(1, (to - from + kAccountSamples - 1) / kAccountSamples);
    const unsigned pid = pid_of(TraceTrack::fetch, channel);
    for (uint64_t at = from; at < to; at += step) {
        const uint64_t end = std::min(to, at + step);
        const model::CycleAccount part = model::account_over({&timeline}, at, end);
        std::string args;
        for (size_t c : causes)
            args +=
                fmt::format("{}\"{}\":{:.4g}", args.empty() ? "" : ",", model::kCauseDefs[c].name,
                            100.0 * static_cast<double>(part[c]) / static_cast<double>(end - at));
        const std::string json =
            fmt::format(R"({{"name":"cycle account %","ph":"C","ts":{},"pid":{},"args":{{{}}}}})",
                        micros(ns_of(at)), pid, args);
        if (!admit(json.size(), at)) return;
        event(json);
    }
}

std::string ChromeTrace::finish() {
    if (flows_) write_flows();
    write_counters();
    file_.write("\n]}\n");
    return file_.commit();
}

std::string ChromeTrace::cap_note() const {
    if (!capped_at_) return "";
    return fmt::format(
        "the trace reached its size cap ({} MiB) and leaves out events from cycle {} on; "
        "see a later part with --trace-window FROM:TO or raise --trace-max-mib",
        limits_.max_bytes >> 20, *capped_at_);
}

}  // namespace dmasim::tb
