// vcd_writer.cc - see vcd_writer.h.
#include "vcd_writer.h"

#include <fmt/format.h>

#include <cstdio>

#include "atomic_file.h"

namespace dmasim::tb {

VcdWriter::VcdWriter(const std::string& path, const model::Platform& platform, unsigned channels)
    : path_(path), temp_(AtomicFile::temp_name(path)) {
    file_ = sc_core::sc_create_vcd_trace_file(temp_.c_str());
    sc_core::sc_trace(file_, platform.irq(), "irq");
    for (unsigned ch = 0; ch < channels; ++ch)
        sc_core::sc_trace(file_, platform.busy(ch), fmt::format("busy_ch{}", ch));
}

VcdWriter::~VcdWriter() {
    if (!file_) return;
    sc_core::sc_close_vcd_trace_file(file_);
    std::remove((temp_ + ".vcd").c_str());
}

void VcdWriter::finish() {
    sc_core::sc_close_vcd_trace_file(file_);
    file_ = nullptr;
    AtomicFile::publish(temp_ + ".vcd", path_);
}

}  // namespace dmasim::tb
