// vcd_writer.h - a SystemC VCD of the interrupt line and, per channel, the
// busy signal, an IRQ pulse, reads and writes in flight and buffer bytes
// held; moved into place only once complete.
#pragma once

#include <dmasim/model/platform.h>
#include <dmasim/tb/atomic_file.h>

#include <string>
#include <systemc>

#include "counter_signals.h"

namespace dmasim::tb {

class VcdWriter {
public:
    /// Opens the trace during elaboration; `path` is the final file name.
    /// Throws OutputError if no private directory can be made beside it.
    VcdWriter(const std::string& path, const model::Platform& platform, unsigned channels,
              const CounterSignals& levels);
    ~VcdWriter();
    VcdWriter(const VcdWriter&) = delete;
    VcdWriter& operator=(const VcdWriter&) = delete;

    /// Closes the trace and renames it onto the final path; returns why it
    /// failed (publishing nothing), or "" (no exception: it runs after
    /// sc_start, where AddressSanitizer misreports exceptions).
    std::string finish();

private:
    // SystemC opens the file itself (fopen, no O_EXCL), so it writes into
    // a directory only this process can create files in.
    std::string path_;
    PrivateDir dir_;
    sc_core::sc_trace_file* file_;
};

}  // namespace dmasim::tb
