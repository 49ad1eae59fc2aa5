// chrome_trace.cc - see chrome_trace.h.
#include "chrome_trace.h"

#include <fmt/format.h>

namespace dmasim::tb {
namespace {

// JSON string body: track and event names are plain identifiers, but a
// quote or backslash must never break the document.
std::string escaped(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        if (c == '"' || c == '\\') out.push_back('\\');
        if (static_cast<unsigned char>(c) >= 0x20) out.push_back(c);
    }
    return out;
}

double micros(sc_core::sc_time t) { return t.to_seconds() * 1e6; }

// Tracks "ch0 read" and "ch0 write" (or "dma.ch0" and "dma.ch1") share
// the process named by their first word.
std::string component_of(const std::string& track) {
    return track.substr(0, track.find_first_of(". "));
}

}  // namespace

ChromeTrace::ChromeTrace(const std::string& path) : file_(path) {
    fmt::print(file_.get(), "{{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
}

void ChromeTrace::separator() {
    if (!first_) fmt::print(file_.get(), ",\n");
    first_ = false;
}

const ChromeTrace::Ids& ChromeTrace::ids_for(const std::string& track) {
    if (auto it = tracks_.find(track); it != tracks_.end()) return it->second;
    const std::string component = component_of(track);
    auto [proc, added] = processes_.try_emplace(component, processes_.size() + 1);
    if (added) {
        separator();
        fmt::print(
            file_.get(),
            "{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{},\"args\":{{\"name\":\"{}\"}}}}",
            proc->second, escaped(component));
    }
    const Ids ids{proc->second, static_cast<unsigned>(tracks_.size() + 1)};
    separator();
    fmt::print(file_.get(),
               "{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{},\"tid\":{},\"args\":{{\"name\":"
               "\"{}\"}}}}",
               ids.pid, ids.tid, escaped(track));
    return tracks_.emplace(track, ids).first->second;
}

void ChromeTrace::span(const std::string& track, const char* what, sc_core::sc_time start,
                       sc_core::sc_time end) {
    const Ids& ids = ids_for(track);
    separator();
    fmt::print(
        file_.get(),
        "{{\"name\":\"{}\",\"ph\":\"X\",\"ts\":{:.6f},\"dur\":{:.6f},\"pid\":{},\"tid\":{}}}",
        escaped(what), micros(start), micros(end - start), ids.pid, ids.tid);
}

void ChromeTrace::instant(const std::string& track, const char* what, sc_core::sc_time at) {
    const Ids& ids = ids_for(track);
    separator();
    fmt::print(file_.get(),
               "{{\"name\":\"{}\",\"ph\":\"i\",\"s\":\"t\",\"ts\":{:.6f},\"pid\":{},\"tid\":{}}}",
               escaped(what), micros(at), ids.pid, ids.tid);
}

std::string ChromeTrace::finish() {
    fmt::print(file_.get(), "\n]}}\n");
    return file_.commit();
}

}  // namespace dmasim::tb
