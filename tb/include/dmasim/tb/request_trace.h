// request_trace.h - a request trace (docs/request-traces.md): one request
// per line, its arrival time, direction and each entry's length and
// in-page offset, as the requests scenario replays it (workload.trace)
// and `dmasim trace import` writes it from Linux ftrace text.
#pragma once

#include <dmasim/hw/dma_hw.h>
#include <dmasim/tb/run.h>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace dmasim::tb {

/// One request: the scatter list a driver mapped, and when.
struct TraceRequest {
    uint64_t at_ns = 0;  ///< arrival, from the trace's start
    dma_hw_direction direction = DMA_HW_MEM_TO_DEV;
    std::vector<uint32_t> lengths;  ///< bytes of each entry, >= 1
    std::vector<uint32_t> offsets;  ///< in-page offset of each entry, < 4096
    uint64_t line = 0;              ///< where the trace file has it
    /// Payload bytes: its entries' lengths summed.
    uint64_t bytes() const;
};

/// A line of a trace file that is not a request; what() names the file,
/// line and field. A configuration that names such a file cannot be run.
struct TraceError : ConfigError {
    using ConfigError::ConfigError;
};

/// Entries a request may have: workload.entries' limit.
inline constexpr uint64_t kTraceMaxEntries = uint64_t{1} << 24;

/// The blank-separated fields of a line (spaces, tabs, a trailing CR), as
/// trace files and ftrace text split them.
std::vector<std::string_view> fields_of(std::string_view line);

/// Reads the requests of `in`, named `name` in errors. Throws TraceError.
std::vector<TraceRequest> parse_request_trace(std::istream& in, const std::string& name);
/// Reads the request trace at `path`. Throws TraceError (also when the
/// file cannot be read or holds no request).
std::vector<TraceRequest> read_request_trace(const std::string& path);
/// Entries of the longest request of `trace` (0 for none).
uint64_t longest_request(const std::vector<TraceRequest>& trace);
/// The directions of `trace`'s requests, each once, in the order they first appear.
std::vector<dma_hw_direction> trace_directions(const std::vector<TraceRequest>& trace);
/// Writes `requests` in the trace format, with its header comment.
void write_request_trace(std::ostream& out, const std::vector<TraceRequest>& requests);

/// `r` as a list of `base`'s settings: its direction, entries, lengths and
/// offsets; at most base.chain_depth chunks (never more than entries).
WorkloadConfig as_workload(const TraceRequest& r, const WorkloadConfig& base);

}  // namespace dmasim::tb
