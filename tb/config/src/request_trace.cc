// request_trace.cc - reads and writes request traces
// (docs/request-traces.md).
#include <dmasim/tb/request_trace.h>
#include <dmasim/tb/sim_config.h>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>

namespace dmasim::tb {
namespace {

constexpr const char* kHeader = "# dmasim request trace: AT_NS DIRECTION LENGTH[@OFFSET]...";

/// Where a field is, for errors: "FILE:LINE: field N".
struct Field {
    const std::string& file;
    uint64_t line;
    size_t index;  ///< 1-based
    std::string_view text;

    [[noreturn]] void fail(std::string_view what) const {
        throw TraceError(fmt::format("{}:{}: field {} ('{}'): {}", file, line, index, text, what));
    }
};

uint64_t number(const Field& f, std::string_view text, uint64_t max, std::string_view what) {
    uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec == std::errc::invalid_argument || end != text.data() + text.size())
        f.fail(fmt::format("{} must be a whole number of bytes or nanoseconds", what));
    if (ec == std::errc::result_out_of_range || value > max)
        f.fail(fmt::format("{} must be at most {}", what, max));
    return value;
}

dma_hw_direction direction(const Field& f) {
    for (const auto& s : kDirections)
        if (f.text == s.text) return s.value;
    f.fail("direction must be mem_to_dev, dev_to_mem or mem_to_mem");
}

void add_entry(const Field& f, TraceRequest& r) {
    const size_t at = f.text.find('@');
    const uint64_t length =
        number(f, f.text.substr(0, at), UINT32_MAX, "an entry's LENGTH (LENGTH[@OFFSET])");
    if (length == 0) f.fail("an entry's LENGTH must be at least 1 byte");
    const uint64_t offset =
        at == std::string_view::npos
            ? 0
            : number(f, f.text.substr(at + 1), kPageBytes - 1, "an entry's in-page OFFSET");
    r.lengths.push_back(static_cast<uint32_t>(length));
    r.offsets.push_back(static_cast<uint32_t>(offset));
}

}  // namespace

std::vector<std::string_view> fields_of(std::string_view line) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (true) {
        i = line.find_first_not_of(" \t\r", i);
        if (i == std::string_view::npos) return out;
        const size_t end = std::min(line.find_first_of(" \t\r", i), line.size());
        out.push_back(line.substr(i, end - i));
        i = end;
    }
}

uint64_t longest_request(const std::vector<TraceRequest>& trace) {
    uint64_t most = 0;
    for (const TraceRequest& r : trace) most = std::max<uint64_t>(most, r.lengths.size());
    return most;
}

std::vector<dma_hw_direction> trace_directions(const std::vector<TraceRequest>& trace) {
    std::vector<dma_hw_direction> out;
    for (const TraceRequest& r : trace)
        if (std::find(out.begin(), out.end(), r.direction) == out.end()) out.push_back(r.direction);
    return out;
}

uint64_t TraceRequest::bytes() const {
    uint64_t sum = 0;
    for (const uint32_t len : lengths) sum += len;
    return sum;
}

std::vector<TraceRequest> parse_request_trace(std::istream& in, const std::string& name) {
    std::vector<TraceRequest> requests;
    std::string text;
    for (uint64_t line = 1; std::getline(in, text); ++line) {
        const std::vector<std::string_view> fields = fields_of(text);
        if (fields.empty() || fields[0].front() == '#') continue;
        auto field = [&](size_t i) { return Field{name, line, i + 1, fields[i]}; };
        if (fields.size() < 3)
            throw TraceError(fmt::format(
                "{}:{}: a request needs AT_NS, DIRECTION and at least one LENGTH[@OFFSET], "
                "this line has {} field{}",
                name, line, fields.size(), fields.size() == 1 ? "" : "s"));
        if (fields.size() - 2 > kTraceMaxEntries)
            field(kTraceMaxEntries + 2)
                .fail(fmt::format("a request has at most {} entries (workload.entries' limit)",
                                  kTraceMaxEntries));
        TraceRequest r;
        r.line = line;
        r.at_ns = number(field(0), fields[0], kTraceMaxAtNs, "AT_NS");
        if (!requests.empty() && r.at_ns < requests.back().at_ns)
            field(0).fail(fmt::format("AT_NS goes back in time: the request before arrives at {}",
                                      requests.back().at_ns));
        r.direction = direction(field(1));
        for (size_t i = 2; i < fields.size(); ++i) add_entry(field(i), r);
        requests.push_back(std::move(r));
    }
    if (in.bad()) throw TraceError(fmt::format("{}: cannot be read", name));
    if (requests.empty())
        throw TraceError(fmt::format("{}: holds no request (docs/request-traces.md)", name));
    return requests;
}

std::string read_bounded_input(const std::string& path, uint64_t max_bytes, std::string_view what) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw ConfigError(fmt::format("{}: is a directory, not a {} file", path, what));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ConfigError(
            fmt::format("{}: cannot open this {} file: {}", path, what, std::strerror(errno)));
    std::string bytes;
    char block[65536];
    while (in.read(block, sizeof block) || in.gcount() > 0) {
        const size_t n = static_cast<size_t>(in.gcount());
        // Grown by doubling, but never past the limit and a block: an
        // endless input costs at most that much memory.
        if (bytes.size() + n > bytes.capacity())
            bytes.reserve(std::min<uint64_t>(std::max(2 * bytes.capacity(), bytes.size() + n),
                                             max_bytes + sizeof block));
        bytes.append(block, n);
        if (bytes.size() > max_bytes)
            throw ConfigError(fmt::format("{}: longer than {} MiB, the limit for a {} file", path,
                                          max_bytes >> 20, what));
    }
    if (in.bad())
        throw ConfigError(
            fmt::format("{}: cannot read this {} file: {}", path, what, std::strerror(errno)));
    return bytes;
}

const std::string& request_trace_bytes(const std::string& path) {
    // Node-based: a reference handed out stays valid as entries are added.
    static std::map<std::string, std::string> read;
    static std::mutex lock;
    const std::lock_guard<std::mutex> hold(lock);
    if (auto it = read.find(path); it != read.end()) return it->second;
    try {
        return read.emplace(path, read_bounded_input(path, kMaxTraceFileBytes, "request trace"))
            .first->second;
    } catch (const TraceError&) {
        throw;
    } catch (const ConfigError& e) {
        throw TraceError(e.what());
    }
}

const std::vector<TraceRequest>& load_request_trace(const std::string& path) {
    // Node-based, as above.
    static std::map<std::string, std::vector<TraceRequest>> parsed;
    static std::mutex lock;
    const std::lock_guard<std::mutex> hold(lock);
    if (auto it = parsed.find(path); it != parsed.end()) return it->second;
    std::istringstream in(request_trace_bytes(path));
    return parsed.emplace(path, parse_request_trace(in, path)).first->second;
}

void write_request_trace(std::ostream& out, const std::vector<TraceRequest>& requests) {
    out << kHeader << '\n';
    for (const TraceRequest& r : requests) {
        out << r.at_ns << ' ' << direction_name(r.direction);
        for (size_t i = 0; i < r.lengths.size(); ++i) {
            out << ' ' << r.lengths[i];
            if (r.offsets[i] != 0) out << '@' << r.offsets[i];
        }
        out << '\n';
    }
}

WorkloadConfig as_workload(const TraceRequest& r, const WorkloadConfig& base) {
    WorkloadConfig w = base;
    w.direction = r.direction;
    w.entries = r.lengths.size();
    w.chain_depth = std::min<uint64_t>(base.chain_depth, w.entries);
    w.distribution = DMASIM_SEG_LIST;
    w.lengths = r.lengths;
    w.offsets = r.offsets;
    // The bounds the fit and IOVA estimates read for drawn lengths.
    w.segment_bytes_min = *std::min_element(r.lengths.begin(), r.lengths.end());
    w.segment_bytes_max = w.segment_bytes = *std::max_element(r.lengths.begin(), r.lengths.end());
    w.offset = *std::max_element(r.offsets.begin(), r.offsets.end());
    return w;
}

}  // namespace dmasim::tb
