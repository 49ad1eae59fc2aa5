// walker_fuzz.cc - libFuzzer harness for the DMA controller's descriptor
// walk, through the whole SystemC platform.
//
// Input: byte 0 = format (bit 0: linked_list) and direction (bits 2:1,
// including the undefined value 3); bytes 1..4 = first descriptor address
// (little endian); the rest = descriptor memory from bus address 0. RAM is
// kRam bytes between guard regions; what the input does not cover holds a
// fixed pattern. The platform is elaborated once; each input is one
// transfer on channel 0, driven by one long-lived CPU thread (a thread
// spawned per input would leave its process object behind) and simulated
// for at most kLimitCycles.
//
// Checks: the channel stops (DONE, or ERROR with a defined code) and
// raises its interrupt; no byte outside the status words and destinations
// of the descriptors on the path changes; a completed list reports the
// reference walk's descriptor and byte counts, and a completed
// mem_to_mem copy holds its sources' bytes. Any violation aborts with a
// message starting "walker_fuzz:".
#include <dmasim/hw/dma_hw.h>
#include <dmasim/model/platform.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <systemc>
#include <vector>

#include "guarded_ram.h"
#include "reference_walk.h"
#include "support.h"

namespace dmasim::model::fuzz {
namespace {

using test::KiB;
using test::MiB;

constexpr uint64_t kRam = 64 * KiB;
constexpr uint64_t kGuard = 1 * MiB;
constexpr uint64_t kDescriptorBytes = 16 * KiB;  // most of an input's reach
constexpr unsigned kMaxDescriptors = 64, kMaxChainDepth = 64;
constexpr uint64_t kLimitCycles = 4'000'000;
constexpr uint32_t kPatternSeed = 7;

[[noreturn]] void fail(const std::string& what) {
    fmt::print(stderr, "walker_fuzz: {}\n", what);
    std::abort();
}

struct Input {
    dma_hw_format format;
    unsigned direction;  ///< dma_hw_direction, or 3 (undefined)
    uint64_t first;
    const uint8_t* bytes;
    size_t size;
};

/// What software sees once the transfer is over.
struct Outcome {
    bool stopped = false;
    uint32_t status = 0, irq_status = 0, descs = 0;
    uint64_t bytes = 0;
    bool irq_line = false;
};

PlatformParams platform_params(const GuardedRam& ram) {
    PlatformParams p;  // 1 GHz: one cycle is one nanosecond
    p.memory.backing = ram.base();
    p.memory.size_bytes = ram.size();
    p.dma.max_descriptors = kMaxDescriptors;  // bounds each input's work
    p.dma.max_chain_depth = kMaxChainDepth;
    return p;
}

/// One platform, its RAM and a CPU for the whole process.
class Harness : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(Harness);
    explicit Harness(sc_core::sc_module_name name)
        : sc_module(name),
          ram_(kRam, kGuard),
          platform_("platform", platform_params(ram_)),
          cpu_("cpu"),
          pattern_(kRam),
          before_(kRam) {
        test::fill_pattern(pattern_.data(), kRam, kPatternSeed);
        cpu_.socket.bind(platform_.cpu_target());
        SC_THREAD(serve);
    }

    void run_one(const Input& in);

private:
    void load(const Input& in);
    void serve();
    Outcome transfer(const Input& in);
    void drive(const Input& in, Outcome* out);
    void check(const Input& in, const Outcome& o) const;
    void check_untouched(const ReferenceWalk& w) const;
    void check_completed(const Input& in, const ReferenceWalk& w, const Outcome& o) const;
    uint32_t reg(uint32_t offset) { return cpu_.reg(offset); }

    GuardedRam ram_;
    Platform platform_;
    test::TestCpu cpu_;
    // Built once: per-byte loops in the harness are instrumented for
    // coverage, and were most of an execution's cost.
    std::vector<uint8_t> pattern_;  ///< what RAM holds beyond the input
    std::vector<uint8_t> before_;   ///< RAM as the transfer starts
    sc_core::sc_event go_;          ///< a new input is loaded
    const Input* input_ = nullptr;
    Outcome outcome_;
};

void Harness::load(const Input& in) {
    std::memcpy(ram_.base(), pattern_.data(), kRam);
    std::memcpy(ram_.base(), in.bytes, std::min<uint64_t>(in.size, kDescriptorBytes));
    std::memcpy(before_.data(), ram_.base(), kRam);
}

/// The CPU's side of one transfer (a SystemC thread): start, wait until
/// idle or the limit, wait for the interrupt, read the registers back and
/// acknowledge the interrupt.
void Harness::drive(const Input& in, Outcome* out) {
    const uint32_t ch = DMA_CH_BASE(0);
    const uint32_t ctrl = DMA_CTRL_IRQ_EN | (in.direction << DMA_CTRL_DIR_SHIFT) |
                          (in.format == DMA_HW_FMT_LINKED_LIST ? DMA_CTRL_FORMAT_MASK : 0);
    cpu_.set_reg(DMA_REG_IRQ_MASK, 1);
    cpu_.set_reg(ch + DMA_CH_DESC_ADDR_LO, static_cast<uint32_t>(in.first));
    cpu_.set_reg(ch + DMA_CH_DESC_ADDR_HI, static_cast<uint32_t>(in.first >> 32));
    cpu_.set_reg(ch + DMA_CH_CTRL, ctrl | DMA_CTRL_START);

    const sc_core::sc_time deadline =
        sc_core::sc_time_stamp() + sc_core::sc_time(kLimitCycles, sc_core::SC_NS);
    const auto& busy = platform_.busy(0);
    while (busy.read() && sc_core::sc_time_stamp() < deadline)
        sc_core::wait(deadline - sc_core::sc_time_stamp(), busy.negedge_event());
    if (busy.read()) return;
    // The line follows the stop by irq_latency_cycles (plus slack).
    const auto& irq = platform_.irq();
    const double irq_wait = platform_.params().dma.irq_latency_cycles + 100.0;
    if (!irq.read()) sc_core::wait(sc_core::sc_time(irq_wait, sc_core::SC_NS), irq.posedge_event());
    out->irq_line = irq.read();
    out->irq_status = reg(DMA_REG_IRQ_STATUS);
    out->status = reg(ch + DMA_CH_STATUS);
    out->descs = reg(ch + DMA_CH_DESCS_DONE);
    out->bytes = reg(ch + DMA_CH_BYTES_DONE_LO) | uint64_t(reg(ch + DMA_CH_BYTES_DONE_HI)) << 32;
    cpu_.set_reg(DMA_REG_IRQ_STATUS, 1);
    out->stopped = true;
}

void Harness::serve() {
    for (;;) {
        sc_core::wait(go_);
        drive(*input_, &outcome_);
    }
}

Outcome Harness::transfer(const Input& in) {
    input_ = &in;
    outcome_ = Outcome{};
    go_.notify(sc_core::SC_ZERO_TIME);
    // Generous: the CPU thread itself gives up at kLimitCycles.
    sc_core::sc_start(sc_core::sc_time(2 * kLimitCycles, sc_core::SC_NS),
                      sc_core::SC_EXIT_ON_STARVATION);
    return outcome_;
}

void Harness::run_one(const Input& in) {
    load(in);
    platform_.reset_statistics();
    Outcome o = transfer(in);
    check(in, o);
}

void Harness::check(const Input& in, const Outcome& o) const {
    if (!o.stopped) fail(fmt::format("channel still busy after {} cycles", kLimitCycles));
    const uint32_t code = (o.status & DMA_STATUS_ERR_MASK) >> DMA_STATUS_ERR_SHIFT;
    const bool error = (o.status & ~DMA_STATUS_ERR_MASK) == DMA_STATUS_ERROR &&
                       code >= DMA_ERR_DESC_BUS && code <= DMA_ERR_BAD_DESCRIPTOR;
    if (o.status != DMA_STATUS_DONE && !error)
        fail(fmt::format("stopped with status {:#x}: neither DONE nor a defined error", o.status));
    if (in.direction > DMA_HW_MEM_TO_DEV && code != DMA_ERR_BAD_DESCRIPTOR)
        fail(fmt::format("direction {} gave status {:#x}, not BAD_DESCRIPTOR", in.direction,
                         o.status));
    if (!(o.irq_status & 1) || !o.irq_line)
        fail(fmt::format("no interrupt (IRQ_STATUS {:#x}, line {})", o.irq_status, o.irq_line));

    const bool writes_mem = in.direction == DMA_HW_MEM_TO_MEM || in.direction == DMA_HW_DEV_TO_MEM;
    ReferenceWalk w = reference_walk(before_.data(), kRam, in.format, in.first, writes_mem,
                                     kMaxDescriptors + kMaxChainDepth + 2);
    // A list that rewrites itself is walked in an order only timing decides.
    if (self_modifying(w)) return;
    check_untouched(w);
    if (o.status == DMA_STATUS_DONE) check_completed(in, w, o);
}

/// Every byte of RAM outside `w.writes` still holds what it held before:
/// the gaps between the (sorted) write ranges are compared whole.
void Harness::check_untouched(const ReferenceWalk& w) const {
    std::vector<Range> writes = w.writes;
    std::sort(writes.begin(), writes.end(),
              [](const Range& a, const Range& b) { return a.begin < b.begin; });
    const uint8_t* now = ram_.base();
    auto same = [&](uint64_t begin, uint64_t end) {
        if (begin >= end || std::memcmp(now + begin, before_.data() + begin, end - begin) == 0)
            return;
        const uint64_t a =
            std::mismatch(now + begin, now + end, before_.data() + begin).first - now;
        fail(
            fmt::format("byte {:#x} changed ({:#04x} -> {:#04x}) outside every status word "
                        "and destination on the path",
                        a, before_[a], now[a]));
    };
    uint64_t from = 0;  // everything below is checked or may be written
    for (const Range& r : writes) {
        same(from, r.begin);
        from = std::max(from, r.end);
    }
    same(from, kRam);
}

void Harness::check_completed(const Input& in, const ReferenceWalk& w, const Outcome& o) const {
    if (!w.ended) fail("DONE, but the list has no END on its path");
    if (o.descs != w.data_descriptors || o.bytes != w.bytes)
        fail(fmt::format("DONE with {} descriptors / {} bytes; the list has {} / {}", o.descs,
                         o.bytes, w.data_descriptors, w.bytes));
    if (in.direction != DMA_HW_MEM_TO_MEM || order_dependent(w)) return;
    for (const DataMove& m : w.moves)
        if (std::memcmp(ram_.base() + m.dst.begin, before_.data() + m.src.begin,
                        m.dst.end - m.dst.begin) != 0)
            fail(fmt::format("copy {:#x} -> {:#x} ({} bytes) does not hold the source bytes",
                             m.src.begin, m.dst.begin, m.dst.end - m.dst.begin));
}

Harness* harness;

}  // namespace
}  // namespace dmasim::model::fuzz

using dmasim::model::fuzz::Input;

// Once SystemC has switched to its coroutine stacks, LeakSanitizer's exit
// check no longer finds libFuzzer's own driver state (argument and corpus
// vectors still live in FuzzerDriver's frame) and reports it, which would
// turn every finished run into a "crash". Only allocations made by the
// driver itself are excused; the model allocates on its coroutine stacks,
// whose traces never reach FuzzerDriver.
extern "C" const char* __lsan_default_suppressions() { return "leak:fuzzer::FuzzerDriver\n"; }

// libFuzzer checks for a leak after every input that allocated more than
// it freed, scanning the whole heap each time, and gives up after 1,000
// such checks. The model keeps containers across inputs (the walker's
// chunk set, statistics, bookings), so about half the inputs look like
// that without leaking: the checks made the first tens of minutes of a run
// 5 to 10 times slower (docs/testing.md). They are turned off here (LeakSanitizer still
// checks the whole process at exit); a -detect_leaks given on the command
// line comes later and wins.
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    static char no_leak_checks[] = "-detect_leaks=0";
    static std::vector<char*> args;
    args.assign(*argv, *argv + *argc);
    args.insert(args.begin() + 1, no_leak_checks);
    args.push_back(nullptr);
    *argc = static_cast<int>(args.size()) - 1;
    *argv = args.data();
    dmasim::model::fuzz::harness = new dmasim::model::fuzz::Harness("harness");  // for the process
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborate; the CPU thread waits for inputs
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    constexpr size_t kHeader = 5;
    if (size < kHeader) return -1;  // not an input: keep it out of the corpus
    uint32_t first;
    std::memcpy(&first, data + 1, sizeof first);
    Input in{data[0] & 1 ? DMA_HW_FMT_LINKED_LIST : DMA_HW_FMT_CHAINED_PAGES, (data[0] >> 1) & 3u,
             first, data + kHeader, size - kHeader};
    dmasim::model::fuzz::harness->run_one(in);
    return 0;
}
