// vcd_writer.cc - see vcd_writer.h.
#include "vcd_writer.h"

#include <fmt/format.h>
#include <sysc/tracing/sc_tracing_ids.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace dmasim::tb {
namespace {

constexpr const char* kBase = "trace";  // SystemC appends ".vcd"
const std::string kFile = std::string(kBase) + ".vcd";

}  // namespace

VcdWriter::VcdWriter(const std::string& path, const model::Platform& platform, unsigned channels,
                     const CounterSignals& levels)
    : path_(path), dir_(path) {
    dir_.expect(kFile);
    file_ = sc_core::sc_create_vcd_trace_file(dir_.file(kBase).c_str());
    // Picoseconds resolve any clock; set quietly, not as SystemC's noted default.
    sc_core::sc_report_handler::set_actions(sc_core::SC_ID_TRACING_TIMESCALE_UNIT_,
                                            sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    file_->set_time_unit(1, sc_core::SC_PS);
    sc_core::sc_trace(file_, platform.irq(), "irq");
    for (unsigned ch = 0; ch < channels; ++ch) {
        const CounterSignals::Channel& c = levels.channel(ch);
        sc_core::sc_trace(file_, platform.busy(ch), fmt::format("busy_ch{}", ch));
        sc_core::sc_trace(file_, c.irq, fmt::format("irq_ch{}", ch));
        sc_core::sc_trace(file_, c.reads_in_flight, fmt::format("reads_in_flight_ch{}", ch));
        sc_core::sc_trace(file_, c.writes_in_flight, fmt::format("writes_in_flight_ch{}", ch));
        sc_core::sc_trace(file_, c.buffer_bytes, fmt::format("buffer_bytes_ch{}", ch));
    }
}

VcdWriter::~VcdWriter() {
    if (file_) sc_core::sc_close_vcd_trace_file(file_);
}

std::string VcdWriter::finish() {
    // SystemC ignores the errors of its own writes and keeps its FILE to
    // itself; flushing every output stream surfaces them (ENOSPC, EFBIG).
    // The other outputs are committed by now, so an error here is the VCD's.
    std::fflush(stdout);
    errno = 0;
    const bool flushed = std::fflush(nullptr) == 0;
    const int err = errno;
    sc_core::sc_close_vcd_trace_file(file_);
    file_ = nullptr;
    if (!flushed)
        return fmt::format("cannot write {}: {}", path_,
                           err ? std::strerror(err) : "write error");
    return dir_.publish(kFile);
}

}  // namespace dmasim::tb
