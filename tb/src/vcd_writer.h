// vcd_writer.h - a SystemC VCD of the interrupt line and, per channel, the
// busy signal, an IRQ pulse, reads and writes in flight and buffer bytes
// held; moved into place only once complete.
#pragma once

#include <dmasim/model/platform.h>

#include <string>
#include <systemc>

#include "counter_signals.h"

namespace dmasim::tb {

class VcdWriter {
public:
    /// Opens the trace during elaboration; `path` is the final file name.
    VcdWriter(const std::string& path, const model::Platform& platform, unsigned channels,
              const CounterSignals& levels);
    ~VcdWriter();
    VcdWriter(const VcdWriter&) = delete;
    VcdWriter& operator=(const VcdWriter&) = delete;

    /// Closes the trace and renames it onto the final path.
    void finish();

private:
    std::string path_;
    std::string temp_;  ///< SystemC appends ".vcd" to this
    sc_core::sc_trace_file* file_;
};

}  // namespace dmasim::tb
