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

/// Bytes of ftrace text `trace import` reads (a day of mapping events of a
/// busy device is well under it); a larger input is refused at the limit.
inline constexpr uint64_t kMaxFtraceFileBytes = uint64_t{256} << 20;

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

/// The `trace import` command: returns 0; throws tb::ConfigError (exit 2)
/// for an output that cannot be written, tb::TraceError (exit 2) for bad
/// input, tb::OutputError (exit 1) when the write fails late.
int trace_import_command(const ImportRequest& request);

}  // namespace dmasim::sim
