// request_trace.h - a request trace (docs/request-traces.md): one request
// per line, its arrival time, direction and each entry's length and
// in-page offset, as the requests scenario replays it (workload.trace)
// and `dmasim trace import` writes it from Linux ftrace text.
#pragma once

#include <dmasim/hw/dma_hw.h>
#include <dmasim/tb/sim_config.h>

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

/// The latest AT_NS a replay takes: arrival times are scaled to cycles at
/// clocks up to 4 GHz, and beyond this they would not fit 64 bits (~52 days).
inline constexpr uint64_t kTraceMaxAtNs = UINT64_MAX / 4096;

/// Bytes a request trace file may hold (~3 million requests): a larger one
/// (or /dev/zero, or a pipe that never ends) is refused at this limit rather
/// than read until memory runs out.
inline constexpr uint64_t kMaxTraceFileBytes = uint64_t{64} << 20;

/**
 * read_bounded_input - the whole of the file at `path`, read as a stream
 * @path: a regular file, or a pipe, FIFO or character device (read to its
 *        end once, never reopened or sought)
 * @max_bytes: more than this is refused, so an endless input stops here
 * @what: names the kind of file in errors ("request trace", "CSV")
 *
 * Returns the bytes. Throws ConfigError ("PATH: why") for a directory, a file
 * that cannot be opened or read, or one longer than @max_bytes (the error
 * states the limit).
 */
std::string read_bounded_input(const std::string& path, uint64_t max_bytes, std::string_view what);

/**
 * request_trace_bytes - the bytes of the request trace at `path`, read once
 * per process: later calls (the scenario's checks, its footprint, the
 * replay) get the same bytes, so a pipe (`<(cat t.trace)`) works for a run.
 * At most kMaxTraceFileBytes. Throws TraceError where read_bounded_input()
 * throws ConfigError.
 */
const std::string& request_trace_bytes(const std::string& path);

/// The blank-separated fields of a line (spaces, tabs, a trailing CR), as
/// trace files and ftrace text split them.
std::vector<std::string_view> fields_of(std::string_view line);

/// Reads the requests of `in`, named `name` in errors. Throws TraceError.
std::vector<TraceRequest> parse_request_trace(std::istream& in, const std::string& name);
/// The requests of the trace at `path`, parsed from request_trace_bytes()
/// on the first call and kept for the process, so the scenario's check,
/// footprint and run share one parse. Throws TraceError (also when the file
/// cannot be read, is larger than kMaxTraceFileBytes or holds no request);
/// nothing is kept then.
const std::vector<TraceRequest>& load_request_trace(const std::string& path);
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
