// trace_import.h - `dmasim trace import`: the dma:dma_map_sg and
// dma:dma_map_page (dma_map_phys since Linux 6.16) events of Linux ftrace
// text as a request trace (docs/request-traces.md).
#pragma once

#include <dmasim/tb/request_trace.h>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace dmasim::sim {

struct ImportRequest {
    std::string input;   ///< ftrace text (trace-cmd report or tracefs "trace")
    std::string output;  ///< request trace to write
    std::string device;  ///< keep only this device's mappings (empty: every one)
};

/// What an import kept and left out.
struct Imported {
    std::vector<tb::TraceRequest> requests;
    uint64_t other_lines = 0;  ///< lines of other events, or of other devices
    uint64_t unusable = 0;     ///< BIDIRECTIONAL or NONE mappings: no direction to replay
    uint64_t truncated = 0;    ///< dma_map_sg events that name fewer entries than mapped
};

/// Reads ftrace text from `in` (named `name` in errors); throws
/// tb::TraceError naming the line and field of a mapping event it cannot read.
Imported import_ftrace(std::istream& in, const std::string& name, const std::string& device);

/// The `trace import` command: returns 0; throws tb::TraceError (exit 2)
/// or tb::OutputError.
int trace_import_command(const ImportRequest& request);

}  // namespace dmasim::sim
