// sglist_bench.cc - the costs the testbench pays per run: walking and
// allocating million-entry chained lists, copying through a list, and
// allocating a scattered 1 GiB buffer page by page.
#include <benchmark/benchmark.h>
#include <sglist/mm.h>
#include <sglist/scatterlist.h>

#include <vector>

namespace {

constexpr unsigned kEntries = 1000000;
constexpr uint64_t kRamBytes = 64ull << 30;  // as the testbench's largest config

// The simulated RAM for one benchmark; range(0) picks the placement
// (0 contiguous, 1 scattered), since scattered pages touch fresh host
// memory and cost page faults the contiguous policy does not.
class Ram {
public:
    explicit Ram(const benchmark::State& state)
        : ok_(sim_mem_init(kRamBytes, state.range(0) ? SIM_MEM_SCATTERED : SIM_MEM_CONTIGUOUS, 1) ==
              0) {}
    ~Ram() {
        if (ok_) sim_mem_exit();
    }
    bool ok() const { return ok_; }

private:
    bool ok_;
};

void placement_args(benchmark::internal::Benchmark* b) {
    b->ArgName("scattered")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
}

void BM_SgNextWalk(benchmark::State& state) {
    Ram ram(state);
    sg_table t;
    if (!ram.ok() || sg_alloc_table(&t, kEntries, GFP_KERNEL)) {
        state.SkipWithError(sim_mem_last_error());
        return;
    }
    unsigned len = 1;
    for (scatterlist* sg = t.sgl; sg; sg = sg_next(sg)) sg->length = len++;
    for (auto _ : state) {
        uint64_t total = 0;
        for (scatterlist* sg = t.sgl; sg; sg = sg_next(sg)) total += sg->length;
        benchmark::DoNotOptimize(total);
    }
    state.SetItemsProcessed(state.iterations() * kEntries);
    sg_free_table(&t);
}
BENCHMARK(BM_SgNextWalk)->Apply(placement_args);

void BM_SgAllocFreeTable(benchmark::State& state) {
    Ram ram(state);
    if (!ram.ok()) {
        state.SkipWithError("cannot reserve simulated RAM");
        return;
    }
    for (auto _ : state) {
        sg_table t;
        if (sg_alloc_table(&t, kEntries, GFP_KERNEL)) {
            state.SkipWithError(sim_mem_last_error());
            return;
        }
        benchmark::DoNotOptimize(t.sgl);
        sg_free_table(&t);
    }
    state.SetItemsProcessed(state.iterations() * kEntries);
}
BENCHMARK(BM_SgAllocFreeTable)->Apply(placement_args);

void BM_SgCopyToBuffer(benchmark::State& state) {
    const size_t bytes = 64ull << 20;
    const unsigned n_pages = bytes / PAGE_SIZE;
    Ram ram(state);
    std::vector<page*> pages(n_pages);
    for (auto& p : pages) p = ram.ok() ? alloc_page(GFP_KERNEL) : nullptr;
    sg_table t;
    if (!ram.ok() || sg_alloc_table_from_pages(&t, pages.data(), n_pages, 0, bytes, GFP_KERNEL)) {
        state.SkipWithError(sim_mem_last_error());
        return;
    }
    std::vector<char> buf(bytes);
    for (auto _ : state)
        benchmark::DoNotOptimize(sg_copy_to_buffer(t.sgl, t.orig_nents, buf.data(), bytes));
    state.SetBytesProcessed(state.iterations() * bytes);
    sg_free_table(&t);
    for (page* p : pages) __free_page(p);
}
BENCHMARK(BM_SgCopyToBuffer)->Apply(placement_args);

// A 1 GiB user buffer in 4 KiB pages: ~262k alloc_page calls.
void BM_AllocPagesOfOneGiB(benchmark::State& state) {
    const unsigned n_pages = (1u << 30) / PAGE_SIZE;
    Ram ram(state);
    if (!ram.ok()) {
        state.SkipWithError("cannot reserve simulated RAM");
        return;
    }
    std::vector<page*> pages(n_pages);
    for (auto _ : state) {
        for (auto& p : pages) p = alloc_page(GFP_KERNEL);
        for (page* p : pages) __free_page(p);
    }
    state.SetItemsProcessed(state.iterations() * n_pages);
}
BENCHMARK(BM_AllocPagesOfOneGiB)->Apply(placement_args);

}  // namespace

BENCHMARK_MAIN();
