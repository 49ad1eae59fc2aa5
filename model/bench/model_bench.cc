// model_bench - how fast the model simulates: simulated payload bytes and
// descriptors per wall-clock second for long chained_pages transfers
// (128 entries per chunk, mem_to_mem). The platform is elaborated once per
// process; every iteration runs one whole transfer on it.
//
//   model_bench --benchmark_filter=Pages4KiB   (a) 1 GiB in 4 KiB segments
//   model_bench --benchmark_filter=Small256B   (b) 64 MiB in 256 B segments
//   model_bench --benchmark_filter=Small64B    (c) 16 MiB in 64 B segments:
//                                              the per-descriptor cost alone
//   model_bench --benchmark_filter=ValueCounts the descriptor latency
//                                              statistic, per descriptor
#include <benchmark/benchmark.h>
#include <dmasim/model/cycle_account.h>

#include <cstdint>
#include <vector>

#include "../tests/support.h"

namespace dmasim::model::test {
namespace {

constexpr uint64_t kRam = 256 * MiB;
constexpr uint64_t kDescA = 16 * MiB, kDescB = 40 * MiB;  // 16 MiB of chunks each
constexpr uint64_t kDescC = 200 * MiB;  // 262,144 descriptors in 2,048 chunks: 16 MiB
constexpr uint64_t kSrc = 64 * MiB, kDst = 128 * MiB;
constexpr uint64_t kWindow = 64 * MiB;  // data wraps around this window
constexpr unsigned kPerChunk = 128;

Rig& rig() {
    static Rig* r = [] {
        auto* rig = new Rig(PlatformParams{}, kRam);  // lives for the process
        fill_pattern(rig->host(kSrc), kWindow, 1);
        return rig;
    }();
    return *r;
}

/// Builds `entries` segments of `len` bytes over chunks of kPerChunk
/// descriptors (plus the chain slot) laid out from `desc_base`.
uint64_t build_list(uint64_t desc_base, uint64_t entries, uint32_t len) {
    std::vector<Seg> segs;
    segs.reserve(entries);
    for (uint64_t i = 0; i < entries; ++i) {
        uint64_t off = (i * len) % kWindow;
        segs.push_back({kSrc + off, kDst + off, len});
    }
    uint64_t chunk_bytes = (kPerChunk + 1) * DMA_HW_DESC_SIZE;
    chunk_bytes = (chunk_bytes + 4095) & ~uint64_t(4095);  // whole page frames
    std::vector<uint64_t> chunks;
    for (uint64_t c = 0; c < (entries + kPerChunk - 1) / kPerChunk; ++c)
        chunks.push_back(desc_base + c * chunk_bytes);
    return write_chained(rig().host(0), segs, chunks);
}

void run_list(benchmark::State& state, uint64_t desc_base, uint64_t total, uint32_t len) {
    Rig& r = rig();
    uint64_t entries = total / len;
    uint64_t first = build_list(desc_base, entries, len);
    const uint32_t ctrl = ctrl_word(DMA_HW_MEM_TO_MEM, DMA_HW_FMT_CHAINED_PAGES, false);
    uint64_t cycles = 0;
    for (auto _ : state) {
        r.platform().reset_statistics();
        cycles = r.transfer(first, ctrl, UINT64_MAX / 2);
        if (r.platform().channel_stats(0).bytes != total) state.SkipWithError("short transfer");
    }
    state.SetBytesProcessed(int64_t(state.iterations() * total));
    state.SetItemsProcessed(int64_t(state.iterations() * entries));
    state.counters["sim_bytes_per_cycle"] = double(total) / double(cycles);
    state.counters["descriptors_per_s"] =
        benchmark::Counter(double(entries), benchmark::Counter::kIsIterationInvariantRate);
}

void Pages4KiB(benchmark::State& state) { run_list(state, kDescA, 1024 * MiB, 4096); }
void Small256B(benchmark::State& state) { run_list(state, kDescB, 64 * MiB, 256); }
void Small64B(benchmark::State& state) { run_list(state, kDescC, 16 * MiB, 64); }

// A steady pipeline's latencies (a few hundred distinct values near 5,000
// cycles, as the default run's), counted, then the report's percentiles.
void ValueCountsAddAndPercentiles(benchmark::State& state) {
    const uint64_t n = 1 << 20;
    for (auto _ : state) {
        ValueCounts counts;
        for (uint64_t i = 0; i < n; ++i) counts.add(static_cast<uint32_t>(5000 + (i * 37) % 1500));
        benchmark::DoNotOptimize(counts.percentile(50) + counts.percentile(90) +
                                 counts.percentile(99));
    }
    state.SetItemsProcessed(int64_t(state.iterations() * n));
}

// One side planned a whole buffer ahead of the other (a device read into
// a 1 MiB buffer ahead of writes over a slow link: issue 35 row 9): each
// late interval lands state.range(0) intervals from the end.
void IntervalUnionFarBehind(benchmark::State& state) {
    const uint64_t ahead = static_cast<uint64_t>(state.range(0)), n = 1 << 16;
    for (auto _ : state) {
        IntervalUnion u;
        for (uint64_t i = 0; i < ahead; ++i) u.add(4 * i, 4 * i + 2);
        for (uint64_t i = 0; i < n; ++i) {
            u.add(4 * (ahead + i), 4 * (ahead + i) + 2);
            u.add(4 * i + 2, 4 * i + 3);  // between two far-behind ones
        }
        benchmark::DoNotOptimize(u.intervals().size());
    }
    state.SetItemsProcessed(int64_t(state.iterations() * 2 * n));
}

BENCHMARK(Pages4KiB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(IntervalUnionFarBehind)->Arg(1 << 10)->Arg(1 << 16)->Unit(benchmark::kMillisecond);
BENCHMARK(Small256B)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(Small64B)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(ValueCountsAddAndPercentiles)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dmasim::model::test

BENCHMARK_MAIN();
