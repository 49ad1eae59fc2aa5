// vcd_writer.h - a SystemC VCD of the interrupt line and, per channel, the
// busy signal, an IRQ pulse, reads and writes in flight and buffer bytes
// held; moved into place only once complete.
#pragma once

#include <dmasim/files/atomic_file.h>
#include <dmasim/model/platform.h>

#include <string>
#include <systemc>

#include "counter_signals.h"

namespace dmasim::tb {

/// Also the trace sink that feeds `levels`: every few records it looks at
/// the file's size and, past `max_bytes`, closes the VCD there (a VCD cut
/// at a time step is still a valid VCD), so a long run cannot fill a disk.
class VcdWriter : public model::TraceSink {
public:
    /// Opens the trace during elaboration; `path` is the final file name.
    /// Throws OutputError if no private directory can be made beside it.
    VcdWriter(const std::string& path, const model::Platform& platform, unsigned channels,
              CounterSignals& levels, uint64_t max_bytes);
    ~VcdWriter() override;
    VcdWriter(const VcdWriter&) = delete;
    VcdWriter& operator=(const VcdWriter&) = delete;

    void slice(model::TraceTrack, unsigned, const char*, uint64_t, uint64_t,
               const model::TraceArgs&) override {}
    void instant(model::TraceTrack track, unsigned channel, const char* what,
                 uint64_t at) override;
    void counter(model::TraceCounter counter, unsigned channel, uint64_t at,
                 int64_t delta) override;

    /// Closes the trace and renames it onto the final path; returns why it
    /// failed (publishing nothing), or "" (no exception: it runs after
    /// sc_start, and a failed file must not lose the simulated result).
    std::string finish();
    /// Why the size cap cut the VCD short, or "" if it did not.
    std::string cap_note() const;

private:
    void watch_size(uint64_t cycle);

    std::string path_;
    CounterSignals& levels_;
    uint64_t max_bytes_;
    uint64_t records_ = 0;
    uint64_t capped_at_ = 0;  ///< cycle the VCD was closed at, 0 if it was not
    bool in_place_;
    // SystemC opens the file itself (fopen, no O_EXCL), so it writes into
    // a directory only this process can create files in.
    PrivateDir dir_;
    sc_core::sc_trace_file* file_;
};

}  // namespace dmasim::tb
