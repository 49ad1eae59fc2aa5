// trace_import.cc - see trace_import.h. The events' text is their
// TP_printk format in Linux's include/trace/events/dma.h:
//   dma_map_sg:   "DEV dir=DIR [nents=a/b ents=c/d[ [TRUNCATED]]] dma_addrs={0x..,..}
//                  sizes={0x..,..} phys_addrs={..} attrs=.."
//   dma_map_page, dma_map_phys: "DEV dir=DIR dma_addr=HEX size=DEC phys_addr=HEX attrs=.."
// each after ftrace's "TASK-PID [CPU] FLAGS SECONDS.FRACTION: EVENT: ".
#include "trace_import.h"

#include <dmasim/files/atomic_file.h>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <sstream>
#include <string_view>

namespace dmasim::sim {
namespace {

constexpr std::string_view kEvents[] = {"dma_map_sg", "dma_map_page", "dma_map_phys"};

/// One event line being read, for errors naming where.
struct EventLine {
    const std::string& file;
    uint64_t line;

    [[noreturn]] void fail(std::string_view field, std::string_view what) const {
        throw tb::TraceError(fmt::format("{}:{}: {}: {}", file, line, field, what));
    }

    uint64_t number(std::string_view field, std::string_view text, int base) const {
        std::string_view digits = text;
        if (base == 16 && digits.substr(0, 2) == "0x") digits.remove_prefix(2);
        uint64_t value = 0;
        const auto [end, ec] =
            std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
        if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size())
            fail(field, fmt::format("'{}' is not a {} number", text,
                                    base == 16 ? "hexadecimal" : "decimal"));
        return value;
    }

    /// "SECONDS.FRACTION" as nanoseconds; a time past 64 bits of
    /// nanoseconds (~584 years) is refused, not wrapped.
    uint64_t timestamp(std::string_view text) const {
        const size_t dot = text.find('.');
        const std::string_view frac = dot == std::string_view::npos ? "" : text.substr(dot + 1);
        if (frac.size() > 9) fail("timestamp", fmt::format("'{}' has more than 9 decimals", text));
        uint64_t ns = 0;
        if (__builtin_mul_overflow(number("timestamp", text.substr(0, dot), 10),
                                   uint64_t{1'000'000'000}, &ns))
            fail("timestamp", fmt::format("'{}' seconds do not fit 64 bits of nanoseconds", text));
        if (!frac.empty()) {
            uint64_t f = number("timestamp", frac, 10);
            for (size_t i = frac.size(); i < 9; ++i) f *= 10;
            if (__builtin_add_overflow(ns, f, &ns))
                fail("timestamp",
                     fmt::format("'{}' seconds do not fit 64 bits of nanoseconds", text));
        }
        return ns;
    }

    /// Keeps the first of each `KEY=` field of an event: a line that gives
    /// one twice (dir=, size=, ...) is ambiguous, so it is refused.
    void once(std::vector<std::string_view>& seen, std::string_view key,
              std::string_view field) const {
        if (std::find(seen.begin(), seen.end(), key) != seen.end())
            fail(field, fmt::format("{}= appears twice in this event", key));
        seen.push_back(key);
    }

    /// "{0x1000,0x200}" as numbers.
    std::vector<uint64_t> array(std::string_view field, std::string_view text) const {
        if (text.size() < 2 || text.front() != '{' || text.back() != '}')
            fail(field, fmt::format("'{}' is not a {{0x..,0x..}} array", text));
        text = text.substr(1, text.size() - 2);
        std::vector<uint64_t> out;
        while (!text.empty()) {
            const size_t comma = std::min(text.find(','), text.size());
            out.push_back(number(field, text.substr(0, comma), 16));
            text.remove_prefix(std::min(comma + 1, text.size()));
        }
        return out;
    }
};

std::optional<dma_hw_direction> direction(std::string_view dir) {
    if (dir == "TO_DEVICE") return DMA_HW_MEM_TO_DEV;
    if (dir == "FROM_DEVICE") return DMA_HW_DEV_TO_MEM;
    return std::nullopt;  // BIDIRECTIONAL or NONE
}

}  // namespace

Imported import_ftrace(std::istream& in, const std::string& name, const std::string& device) {
    Imported out;
    std::optional<uint64_t> first_ns;
    std::string text;
    for (uint64_t n = 1; std::getline(in, text); ++n) {
        if (!text.empty() && text.back() == '\r') text.pop_back();
        const std::string_view line = text;
        if (line.find_first_not_of(' ') == std::string_view::npos ||
            line[line.find_first_not_of(' ')] == '#')
            continue;
        size_t at = std::string_view::npos;
        std::string_view event;
        for (std::string_view e : kEvents)
            if (size_t p = line.find(fmt::format(": {}: ", e)); p != std::string_view::npos) {
                at = p;
                event = e;
            }
        if (at == std::string_view::npos) {
            ++out.other_lines;
            continue;
        }
        const EventLine where{name, n};
        const size_t stamp = line.rfind(' ', at);
        const uint64_t ns = where.timestamp(line.substr(stamp + 1, at - stamp - 1));
        const std::vector<std::string_view> fields =
            tb::fields_of(line.substr(at + event.size() + 4));
        if (fields.empty()) where.fail(event, "no device name");
        if (!device.empty() && fields[0] != device) {
            ++out.other_lines;
            continue;
        }
        std::optional<dma_hw_direction> dir;
        bool has_dir = false;
        std::vector<uint64_t> sizes, addrs;
        std::vector<std::string_view> keys;
        for (std::string_view f : fields) {
            const size_t eq = f.find('=');
            const std::string_view key = f.substr(0, eq), value = f.substr(eq + 1);
            if (f == "[TRUNCATED]") ++out.truncated;
            if (eq == std::string_view::npos) continue;
            where.once(keys, key, f);
            if (key == "dir") {
                has_dir = true;
                dir = direction(value);
            } else if (key == "sizes") {
                sizes = where.array(f, value);
            } else if (key == "dma_addrs") {
                addrs = where.array(f, value);
            } else if (key == "size") {
                sizes = {where.number(f, value, 10)};
            } else if (key == "dma_addr") {
                addrs = {where.number(f, value, 16)};
            }
        }
        if (!has_dir) where.fail(event, "no dir= field");
        if (sizes.empty())
            where.fail(event, event == "dma_map_sg" ? "no sizes= entries" : "no size=");
        if (addrs.size() != sizes.size())
            where.fail(event,
                       fmt::format("{} DMA addresses for {} sizes", addrs.size(), sizes.size()));
        if (!dir) {
            ++out.unusable;
            continue;
        }
        tb::TraceRequest r;
        r.line = n;
        if (!first_ns) first_ns = ns;
        if (ns < *first_ns) where.fail("timestamp", "goes back before the first mapping event");
        r.at_ns = ns - *first_ns;
        if (r.at_ns > tb::kTraceMaxAtNs)
            where.fail("timestamp",
                       fmt::format("{} ns after the first mapping event: a replay takes at most "
                                   "{} ns (~52 days) between the first request and the last",
                                   r.at_ns, tb::kTraceMaxAtNs));
        r.direction = *dir;
        for (size_t i = 0; i < sizes.size(); ++i) {
            if (sizes[i] == 0 || sizes[i] > UINT32_MAX)
                where.fail(event, fmt::format("entry {} is {} bytes (1 to {} replay)", i + 1,
                                              sizes[i], UINT32_MAX));
            r.lengths.push_back(static_cast<uint32_t>(sizes[i]));
            r.offsets.push_back(static_cast<uint32_t>(addrs[i] % tb::kPageBytes));
        }
        if (!out.requests.empty() && r.at_ns < out.requests.back().at_ns)
            where.fail("timestamp", "goes back in time (sort the trace, or use one CPU's events)");
        out.requests.push_back(std::move(r));
    }
    if (in.bad()) throw tb::TraceError(fmt::format("{}: cannot be read", name));
    if (out.requests.empty())
        throw tb::TraceError(fmt::format(
            "{}: no dma:dma_map_sg or dma:dma_map_page event with dir=TO_DEVICE or FROM_DEVICE{}",
            name, device.empty() ? "" : fmt::format(" for device {}", device)));
    return out;
}

int trace_import_command(const ImportRequest& request) {
    // As for `dmasim run`: an output that cannot be written is bad usage
    // (exit 2), found before the input is read.
    if (std::string why = tb::unwritable(request.output); !why.empty())
        throw tb::ConfigError(fmt::format("-o {}: {}", request.output, why));
    std::istringstream in(
        tb::read_bounded_input(request.input, kMaxFtraceFileBytes, "ftrace text"));
    const Imported imported = import_ftrace(in, request.input, request.device);
    std::ostringstream text;
    tb::write_request_trace(text, imported.requests);
    tb::AtomicFile file(request.output);
    file.write(text.str());
    if (std::string why = file.commit(); !why.empty()) throw tb::OutputError(why);
    uint64_t entries = 0;
    for (const auto& r : imported.requests) entries += r.lengths.size();
    fmt::print(stderr,
               "dmasim: {} requests ({} entries) written to {}; left out: {} lines of other "
               "events or devices, {} BIDIRECTIONAL/NONE mappings{}\n",
               imported.requests.size(), entries, request.output, imported.other_lines,
               imported.unusable,
               imported.truncated == 0
                   ? ""
                   : fmt::format("; warning: {} dma_map_sg events were [TRUNCATED] by the "
                                 "kernel to their first 128 entries",
                                 imported.truncated));
    return 0;
}

}  // namespace dmasim::sim
