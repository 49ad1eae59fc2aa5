// vcd_writer.cc - see vcd_writer.h.
#include "vcd_writer.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sysc/tracing/sc_tracing_ids.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace dmasim::tb {
namespace {

constexpr const char* kBase = "trace";  // SystemC appends ".vcd"
const std::string kFile = std::string(kBase) + ".vcd";
// A stat() per this many trace records: cheap, and the file outgrows the
// cap by at most what that many records write.
constexpr uint64_t kRecordsPerSizeCheck = 256;

}  // namespace

VcdWriter::VcdWriter(const std::string& path, const model::Platform& platform, unsigned channels,
                     CounterSignals& levels, uint64_t max_bytes)
    : path_(path),
      levels_(levels),
      max_bytes_(max_bytes),
      in_place_(output_target(path).in_place),
      dir_(path) {
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

void VcdWriter::instant(model::TraceTrack track, unsigned channel, const char* what,
                        uint64_t at) {
    levels_.instant(track, channel, what, at);
    watch_size(at);
}

void VcdWriter::counter(model::TraceCounter counter, unsigned channel, uint64_t at,
                        int64_t delta) {
    levels_.counter(counter, channel, at, delta);
    watch_size(at);
}

// A device or FIFO costs no disk: only a file is capped.
void VcdWriter::watch_size(uint64_t cycle) {
    if (!file_ || in_place_ || ++records_ % kRecordsPerSizeCheck != 0) return;
    struct stat st {};
    if (::stat(dir_.file(kFile).c_str(), &st) != 0 || static_cast<uint64_t>(st.st_size) < max_bytes_)
        return;
    sc_core::sc_close_vcd_trace_file(file_);
    file_ = nullptr;
    capped_at_ = cycle;
}

std::string VcdWriter::cap_note() const {
    if (!capped_at_) return "";
    return fmt::format(
        "the VCD reached its size cap ({} MiB, --trace-max-mib) and ends near cycle {}; "
        "raise --trace-max-mib for a longer one",
        max_bytes_ >> 20, capped_at_);
}

std::string VcdWriter::finish() {
    // SystemC ignores the errors of its own writes and keeps its FILE to
    // itself; flushing every output stream surfaces them (ENOSPC, EFBIG).
    // The other outputs are committed by now, so an error here is the VCD's.
    std::fflush(stdout);
    errno = 0;
    const bool flushed = std::fflush(nullptr) == 0;
    const int err = errno;
    if (file_) sc_core::sc_close_vcd_trace_file(file_);
    file_ = nullptr;
    if (!flushed)
        return fmt::format("cannot write {}: {}", path_,
                           err ? std::strerror(err) : "write error");
    return dir_.publish(kFile);
}

}  // namespace dmasim::tb
