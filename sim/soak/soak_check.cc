// soak_check.cc - invariants of one soak point, from its report alone
// (the report's `config` holds every key, so it needs nothing else).
#include "soak_check.h"

#include <dmasim/tb/request_trace.h>
#include <fmt/format.h>

#include <algorithm>
#include <fstream>

namespace dmasim::soak {
namespace {

using nlohmann::json;

struct Checker {
    const json& config;
    const json& result;
    std::vector<std::string> failures;

    uint64_t key(const char* name) const { return config.at(name).get<uint64_t>(); }
    uint64_t got(const char* name) const { return result.at(name).get<uint64_t>(); }

    void expect(bool ok, std::string what) {
        if (!ok) failures.push_back(std::move(what));
    }
    void expect_eq(const char* name, uint64_t want) {
        expect(got(name) == want,
               fmt::format("result.{} = {}, expected {}", name, got(name), want));
    }
};

/// Transfers the scenario runs: one, or one per channel.
uint64_t transfers(const json& config) {
    return config.at("workload.scenario") == "multi_channel"
               ? config.at("dma.channels").get<uint64_t>()
               : 1;
}

void check_bytes(Checker& c, uint64_t n) {
    const uint64_t entries = c.key("workload.entries");
    const uint64_t bytes = c.got("bytes");
    if (c.config.at("workload.segment_distribution") == "fixed") {
        c.expect_eq("bytes", n * entries * c.key("workload.segment_bytes"));
        return;
    }
    // uniform: every segment lies in [min, max].
    const uint64_t lo = n * entries * c.key("workload.segment_bytes_min");
    const uint64_t hi = n * entries * c.key("workload.segment_bytes_max");
    c.expect(
        bytes >= lo && bytes <= hi,
        fmt::format("result.bytes = {}, outside [{}, {}] for uniform segments", bytes, lo, hi));
}

void check_outstanding(Checker& c, const json& statistics) {
    const uint64_t reads = c.key("dma.max_outstanding_reads");
    const uint64_t writes = c.key("dma.max_outstanding_writes");
    for (uint64_t ch = 0; ch < c.key("dma.channels"); ++ch) {
        const std::string group = fmt::format("dma.ch{}", ch);
        const json& g = statistics.at(group);
        const auto r = g.at("max_reads_in_flight").at("value").get<double>();
        const auto w = g.at("max_writes_in_flight").at("value").get<double>();
        c.expect(r <= double(reads),
                 fmt::format("{}.max_reads_in_flight = {} above the limit {}", group, r, reads));
        c.expect(w <= double(writes),
                 fmt::format("{}.max_writes_in_flight = {} above the limit {}", group, w, writes));
    }
}

/// Descriptors and chain links: one per entry and D - 1 per transfer when
/// mapped directly; behind the IOMMU, merged segments give fewer (at least
/// one per transfer) and a list with fewer segments than chunks links fewer.
void check_descriptors(Checker& c, uint64_t n) {
    const uint64_t entries = n * c.key("workload.entries");
    const uint64_t links = n * (c.key("workload.chain_depth") - 1);
    if (!c.config.at("iommu.enabled").get<bool>()) {
        c.expect_eq("descriptors", entries);
        c.expect_eq("chain_links", links);
        return;
    }
    const uint64_t descriptors = c.got("descriptors");
    c.expect(descriptors >= n && descriptors <= entries,
             fmt::format("result.descriptors = {}, outside [{}, {}] behind the IOMMU", descriptors,
                         n, entries));
    c.expect(c.got("chain_links") <= std::min(links, descriptors - std::min(descriptors, n)),
             fmt::format("result.chain_links = {} above min({}, descriptors - transfers)",
                         c.got("chain_links"), links));
}

/// The IOMMU never faults on a list the driver mapped, and a walk reads
/// between one entry (walk cache hit) and walk_levels entries per miss.
void check_iommu(Checker& c, const json& statistics) {
    if (!c.config.at("iommu.enabled").get<bool>()) return;
    const json& g = statistics.at("iommu");
    const auto stat = [&g](const char* name) { return g.at(name).at("value").get<uint64_t>(); };
    const uint64_t misses = stat("iotlb_misses"), reads = stat("walk_reads");
    c.expect(stat("translation_faults") == 0,
             fmt::format("iommu.translation_faults = {}", stat("translation_faults")));
    c.expect(reads >= misses && reads <= misses * c.key("iommu.walk_levels"),
             fmt::format("iommu.walk_reads = {} outside [misses, misses x walk_levels] = [{}, {}]",
                         reads, misses, misses * c.key("iommu.walk_levels")));
}

/// Requests a stream submits: workload.requests, or the requests of its
/// trace, as the replay's own parser reads them.
uint64_t requests_of(const json& config) {
    if (config.at("workload.arrival") != "trace") return config.at("workload.requests");
    const std::string path = config.at("workload.trace").get<std::string>();
    std::ifstream in(path);
    return tb::parse_request_trace(in, path).size();
}

/// A request stream ends every request: completed or dropped, none lost.
void check_requests(Checker& c) {
    const json& results = c.result.at("scenario_results");
    const auto count = [&results](const char* name) {
        return results.at(name).at("value").get<uint64_t>();
    };
    const uint64_t completed = count("requests_completed"), dropped = count("requests_dropped");
    const uint64_t want = requests_of(c.config);
    c.expect(completed + dropped == want,
             fmt::format("requests_completed + requests_dropped = {} + {}, expected {} requests",
                         completed, dropped, want));
}

}  // namespace

std::vector<std::string> check_report(const json& report) {
    Checker c{report.at("config"), report.at("result"), {}};
    const uint64_t n = transfers(c.config);
    // A timing-only run (workload.payload none) moves no bytes to compare.
    const std::string integrity =
        c.config.at("workload.payload") == "none" ? "not_checked" : "pass";
    if (c.result.at("integrity") != integrity)
        c.failures.push_back(fmt::format("integrity {}, expected {}: {}",
                                         c.result.at("integrity").get<std::string>(), integrity,
                                         c.result.value("failure", std::string("?"))));
    if (c.config.at("workload.scenario") == "requests") {
        check_requests(c);
    } else {
        check_bytes(c, n);
        check_descriptors(c, n);
    }
    // Every handled interrupt costs the handler, every poll its cost, and
    // every descriptor is reaped once.
    c.expect_eq("cpu_busy_cycles", c.key("cpu.irq_handler_cycles") * c.got("interrupts") +
                                       c.key("cpu.poll_cycles") * c.got("polls") +
                                       c.key("cpu.per_descriptor_cycles") * c.got("descriptors"));
    check_outstanding(c, report.at("statistics"));
    check_iommu(c, report.at("statistics"));
    return c.failures;
}

}  // namespace dmasim::soak
