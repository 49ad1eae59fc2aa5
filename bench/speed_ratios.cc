// speed_ratios.cc - `speed_ratios`: the four speed figures of issue 39 in
// one process run, so a change can be judged on any machine, loaded or not:
// each side of a ratio is a child process of this one (SystemC elaborates
// once per process), timed by its own user + system CPU seconds from
// wait4(), so both sides of a ratio see the same machine. A row of short
// runs repeats its pairs (A B A B ..., up to 31) and prints medians: one
// run of a tenth of a second moved the 256 B row's ratio by a third, and
// the median of nine pairs still by a sixth on a busy host.
//
//   a) a whole dmasim run against a bare loosely-timed TLM-2.0 loop
//      (bare_sg_loop.cc): 1 GiB in 4 KiB segments and 262,144 x 256 B,
//      payload none;
//   b) 16 Mi x 64 B, payload none, packed: descriptor rate against the
//      loop's, and dmasim's peak RSS;
//   c) 1 GiB checked in 4 KiB segments against the memory floor
//      (mem_floor: fresh map + touch + memcpy of the same bytes).
//
// Usage: speed_ratios [--divide N] [--big-bytes B] [--small-entries N]
//                     [--tiny-entries N] [--checked-bytes B]
// --divide N divides every size by N (a quick check: --divide 16).
#include <dmasim/tb/run.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <systemc>
#include <vector>

#include "bare_sg_loop.h"
#include "config_loader.h"
#include "paths.h"
#include "scenario_keys.h"

namespace {

using dmasim::bench::run_bare_sg_loop;

constexpr uint64_t kPage = 4096;
// Descriptors per chained chunk, at most: with its chain descriptor a chunk
// is 256 slots of 32 B, two whole pages, as the loop's chunks are whole
// pages (256 descriptors, as bench/run-scaling has them, make 257 slots
// that touch a third page for one slot: 16 B of host memory an entry).
constexpr uint64_t kPerChunk = 255;

/// What one child process cost: whole-process CPU seconds and peak RSS.
struct ChildCost {
    double cpu_seconds;
    double peak_rss_mib;
};

/// A child to run: this program (or another) and its arguments.
struct Child {
    std::string program;
    std::vector<std::string> args;
};

/// Runs the child and waits for it; a failing child stops the bench,
/// naming the command.
ChildCost run_child(const Child& child) {
    std::vector<char*> argv{const_cast<char*>(child.program.c_str())};
    for (const auto& a : child.args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(fmt::format("fork: {}", std::strerror(errno)));
    if (pid == 0) {
        // Only the parent prints: mem_floor's own line would split the table.
        if (const int null = open("/dev/null", O_WRONLY); null >= 0) dup2(null, STDOUT_FILENO);
        execv(argv[0], argv.data());
        std::_Exit(127);
    }
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid)
        throw std::runtime_error(fmt::format("wait4: {}", std::strerror(errno)));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::string command = child.program;
        for (const auto& a : child.args) command += " " + a;
        throw std::runtime_error(fmt::format("child failed ({}): {}", status, command));
    }
    auto seconds = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
    return {seconds(usage.ru_utime) + seconds(usage.ru_stime), double(usage.ru_maxrss) / 1024};
}

/// Simulated RAM a mem_to_mem run of ENTRIES x SEGMENT needs, as
/// bench/run-scaling sizes it: both lists' buffers, scatterlists and
/// descriptor chunks with a quarter spare, in powers of two from 1 GiB.
uint64_t memory_mib(uint64_t entries, uint64_t segment) {
    const uint64_t frag_block = 8 * kPage;
    const uint64_t data_pages = segment < kPage ? (entries + frag_block / segment - 1) /
                                                      (frag_block / segment) * (frag_block / kPage)
                                                : entries * ((segment + kPage - 1) / kPage);
    const uint64_t need =
        (2 * data_pages * kPage + 2 * entries * 32 * 2 + entries * 32 * 2) * 5 / 4 + (64 << 20);
    uint64_t mib = 1024;
    while ((mib << 20) < need) mib *= 2;
    return mib;
}

/// Child mode "dmasim": the default config with the workload set as the
/// bench's runs need, through the same calls as `dmasim run`.
int dmasim_child(uint64_t entries, uint64_t segment, const std::string& payload) {
    const uint64_t depth = (entries + kPerChunk - 1) / kPerChunk;
    const std::vector<std::string> sets{
        fmt::format("workload.entries={}", entries),
        fmt::format("workload.segment_bytes={}", segment),
        fmt::format("workload.chain_depth={}", depth),
        fmt::format("dma.max_chain_depth={}", std::max<uint64_t>(depth, 4096)),
        fmt::format("memory.size_mib={}", memory_mib(entries, segment)),
        "workload.payload=" + payload,
        std::string("workload.buffers=") + (segment < kPage ? "packed" : "pages")};
    if (const auto mistakes = dmasim::sim::register_scenario_keys(); !mistakes.empty())
        throw std::runtime_error(mistakes.front());
    const auto config = dmasim::sim::load_config(dmasim::sim::default_config_path(), sets);
    const auto result = dmasim::tb::run_simulation(config, dmasim::tb::RunOptions{});
    if (!result.integrity) throw std::runtime_error("dmasim run: " + result.failure);
    if (result.descriptors != entries)
        throw std::runtime_error(
            fmt::format("dmasim ran {} descriptors, not {}", result.descriptors, entries));
    return 0;
}

int loop_child(uint64_t entries, uint64_t segment) {
    const uint64_t walked = run_bare_sg_loop(entries, static_cast<uint32_t>(segment));
    if (walked != entries)
        throw std::runtime_error(
            fmt::format("bare loop walked {} descriptors, not {}", walked, entries));
    return 0;
}

struct Sizes {
    uint64_t big_bytes = 1ull << 30;
    uint64_t small_entries = 262144;
    uint64_t tiny_entries = 16ull << 20;
    uint64_t checked_bytes = 1ull << 30;
};

Sizes parse_sizes(int argc, char** argv) {
    Sizes s;
    uint64_t divide = 1;
    for (int i = 1; i < argc; i += 2) {
        const std::string flag = argv[i];
        if (i + 1 >= argc) throw std::runtime_error(flag + ": needs a value");
        char* end = nullptr;
        const uint64_t value = std::strtoull(argv[i + 1], &end, 0);
        if (*end != '\0' || value == 0)
            throw std::runtime_error(
                fmt::format("{} {}: expected a positive integer", flag, argv[i + 1]));
        if (flag == "--divide")
            divide = value;
        else if (flag == "--big-bytes")
            s.big_bytes = value;
        else if (flag == "--small-entries")
            s.small_entries = value;
        else if (flag == "--tiny-entries")
            s.tiny_entries = value;
        else if (flag == "--checked-bytes")
            s.checked_bytes = value;
        else
            throw std::runtime_error(flag +
                                     ": unknown option (see the comment at the top of "
                                     "bench/speed_ratios.cc)");
    }
    for (uint64_t* size : {&s.big_bytes, &s.small_entries, &s.tiny_entries, &s.checked_bytes})
        *size = std::max<uint64_t>(1, *size / divide);
    if (s.big_bytes % kPage || s.checked_bytes % kPage)
        throw std::runtime_error("--big-bytes and --checked-bytes must be multiples of 4096");
    return s;
}

std::string load_average() {
    double load[3]{};
    if (getloadavg(load, 3) != 3) return "unknown";
    return fmt::format("{:.1f} {:.1f} {:.1f}", load[0], load[1], load[2]);
}

/// Both sides of a ratio over several pairs, run in turn (A B A B ...) so
/// each pair saw the same load: the median of each side's CPU seconds, the
/// median of the pairs' ratios B / A, and each side's largest peak RSS.
struct Paired {
    double a_seconds, b_seconds, ratio, a_peak_mib, b_peak_mib;
    size_t pairs;
};

/// CPU seconds a row's pairs may take together: a row of short runs (a
/// tenth of a second a side) is repeated until one run's noise no longer
/// moves its ratio; a row of long runs is run once.
constexpr double kRowBudgetSeconds = 4.0;
constexpr size_t kMaxPairs = 31;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// Runs the first pair, then as many more as the budget takes (an odd
/// count, so each median is one pair's figure).
Paired run_pairs(const Child& a, const Child& b) {
    std::vector<double> as, bs, ratios;
    double a_peak = 0, b_peak = 0;
    size_t pairs = 1;
    for (size_t i = 0; i < pairs; ++i) {
        const ChildCost ca = run_child(a);
        const ChildCost cb = run_child(b);
        as.push_back(ca.cpu_seconds);
        bs.push_back(cb.cpu_seconds);
        ratios.push_back(cb.cpu_seconds / ca.cpu_seconds);
        a_peak = std::max(a_peak, ca.peak_rss_mib);
        b_peak = std::max(b_peak, cb.peak_rss_mib);
        if (i == 0) {
            const double wanted = std::ceil(kRowBudgetSeconds / (ca.cpu_seconds + cb.cpu_seconds));
            pairs = static_cast<size_t>(std::clamp(wanted, 1.0, double(kMaxPairs))) | 1;
        }
    }
    return {median(as), median(bs), median(ratios), a_peak, b_peak, pairs};
}

/// "1 pair" or "N pairs", for a row's ratio.
std::string pair_count(const Paired& p) {
    return p.pairs == 1 ? "1 pair" : fmt::format("{} pairs", p.pairs);
}

/// One row of a ratio against the loop: same entries and segment, the
/// rate in both units, ratio = the loop's CPU seconds over dmasim's.
void loop_row(const std::string& self, const char* label, uint64_t entries, uint64_t segment,
              const char* payload) {
    const auto e = std::to_string(entries), s = std::to_string(segment);
    const Paired p =
        run_pairs({self, {"--child", "dmasim", e, s, payload}}, {self, {"--child", "loop", e, s}});
    const double gb = double(entries * segment) / 1e9;
    fmt::print(
        "| {} | {:.2f} s, {:.2f} GB/s, {:.2f} M desc/s, {:.0f} MiB | {:.2f} s, "
        "{:.2f} GB/s, {:.2f} M desc/s | {:.2f} ({}) |\n",
        label, p.a_seconds, gb / p.a_seconds, entries / p.a_seconds / 1e6, p.a_peak_mib,
        p.b_seconds, gb / p.b_seconds, entries / p.b_seconds / 1e6, p.ratio, pair_count(p));
}

int parent(int argc, char** argv) {
    const Sizes s = parse_sizes(argc, argv);
    const std::string self = argv[0];
    fmt::print(
        "speed_ratios: CPU seconds (user + system) of each whole child process, the median "
        "of a row's pairs of runs; load average {}\n\n",
        load_average());
    fmt::print(
        "| run | dmasim: CPU, rate, peak RSS | bare loop / floor: CPU, rate | ratio |\n"
        "|---|---|---|---:|\n");
    loop_row(self, fmt::format("{} MiB in 4 KiB, none", s.big_bytes >> 20).c_str(),
             s.big_bytes / kPage, kPage, "none");
    loop_row(self, fmt::format("{} x 256 B, none", s.small_entries).c_str(), s.small_entries, 256,
             "none");
    loop_row(self, fmt::format("{} x 64 B, none, packed", s.tiny_entries).c_str(), s.tiny_entries,
             64, "none");
    const Paired d = run_pairs({self,
                                {"--child", "dmasim", std::to_string(s.checked_bytes / kPage),
                                 std::to_string(kPage), "checked"}},
                               {MEM_FLOOR_PATH, {std::to_string(s.checked_bytes)}});
    // The pairs' median of floor / dmasim, turned over (an odd count: the
    // same pair's figure).
    fmt::print(
        "| {} MiB checked in 4 KiB vs memory floor | {:.2f} s, {:.0f} MiB | {:.2f} s, "
        "{:.0f} MiB | {:.2f} x floor ({}) |\n",
        s.checked_bytes >> 20, d.a_seconds, d.a_peak_mib, d.b_seconds, d.b_peak_mib, 1 / d.ratio,
        pair_count(d));
    fmt::print(
        "\nratio: the loop's CPU seconds over dmasim's (>= 1: dmasim is faster), "
        "or dmasim's CPU seconds over the floor's; load average at the end {}\n",
        load_average());
    return 0;
}

}  // namespace

/// A child: "--child dmasim ENTRIES SEGMENT PAYLOAD" or "--child loop
/// ENTRIES SEGMENT", as parent() starts them.
extern "C" int sc_main(int argc, char* argv[]) {
    try {
        const std::string mode = argv[2];
        const uint64_t entries = std::strtoull(argv[3], nullptr, 10);
        const uint64_t segment = std::strtoull(argv[4], nullptr, 10);
        if (mode == "loop") return loop_child(entries, segment);
        if (mode == "dmasim" && argc == 6) return dmasim_child(entries, segment, argv[5]);
        throw std::runtime_error("--child " + mode + ": unknown child mode");
    } catch (const std::exception& e) {
        fmt::print(stderr, "speed_ratios: error: {}\n", e.what());
        return 1;
    }
}

int main(int argc, char* argv[]) {
    try {
        const bool child = argc >= 5 && std::strcmp(argv[1], "--child") == 0;
        if (!child) return parent(argc, argv);
        setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
        return sc_core::sc_elab_and_sim(argc, argv);
    } catch (const std::exception& e) {
        fmt::print(stderr, "speed_ratios: error: {}\n", e.what());
        return 1;
    }
}
