// The controller against a TLM-2.0 memory that is not dmasim's: no
// Platform, no Memory, no Interconnect. The bytes must arrive, every
// access must be a b_transport whose annotated delay carries its issue
// cycle (docs/embedding.md), error responses must become the bus errors of
// docs/registers.md, and DMI must be used where the target grants it.
#include <dmasim/model/clock.h>
#include <dmasim/model/device_port.h>
#include <dmasim/model/dma_controller.h>
#include <gtest/gtest.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstring>
#include <memory>
#include <vector>

#include "support.h"

namespace dmasim::model::test {
namespace {

constexpr uint64_t kRam = 1 * MiB;
constexpr uint64_t kSrc = 0x10000, kDst = 0x40000;
constexpr uint64_t kFaultyFrom = 0x80000;  ///< [kFaultyFrom, kRam) answers GENERIC_ERROR
constexpr unsigned kLatency = 100;         ///< cycles the foreign memory adds per access

/// A plain LT memory: every b_transport adds kLatency cycles to the
/// annotated delay. It records when each access arrives (now + delay) and
/// grants DMI (read/write, with latencies) only if asked to.
class ForeignMemory : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<ForeignMemory> socket;
    std::vector<uint8_t> bytes = std::vector<uint8_t>(kRam);
    struct Access {
        bool write;
        uint64_t addr, length, arrival;
    };
    std::vector<Access> log;
    bool grant_dmi = false;
    uint64_t failing_writes_end = 0;  ///< writes that start below it answer GENERIC_ERROR

    ForeignMemory(sc_core::sc_module_name name, const Clock& clock)
        : sc_module(name), socket("socket"), clock_(clock) {
        socket.register_b_transport(this, &ForeignMemory::b_transport);
        socket.register_get_direct_mem_ptr(this, &ForeignMemory::get_direct_mem_ptr);
    }

private:
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
        uint64_t addr = t.get_address(), n = t.get_data_length();
        log.push_back(
            {t.is_write(), addr, n, clock_.cycle_at_or_after(sc_core::sc_time_stamp() + delay)});
        delay += clock_.at(kLatency);
        if (addr >= kRam || n > kRam - addr) {
            t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        if (addr + n > kFaultyFrom || (t.is_write() && addr < failing_writes_end)) {
            t.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
            return;
        }
        uint8_t* mem = bytes.data() + addr;
        std::memcpy(t.is_read() ? t.get_data_ptr() : mem, t.is_read() ? mem : t.get_data_ptr(), n);
        t.set_dmi_allowed(grant_dmi);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
        if (!grant_dmi) return false;
        dmi.set_dmi_ptr(bytes.data());
        dmi.set_start_address(0);
        dmi.set_end_address(kFaultyFrom - 1);
        dmi.allow_read_write();
        dmi.set_read_latency(clock_.at(kLatency));
        dmi.set_write_latency(clock_.at(kLatency));
        return true;
    }
    const Clock& clock_;
};

/// The controller, its device (dmasim's DevicePort unless the test brings
/// its own), the foreign memory and a CPU whose socket is bound straight
/// to the register window (offsets from 0).
struct ForeignRig {
    explicit ForeignRig(std::unique_ptr<StreamDevice> own = nullptr)
        : device(own ? std::move(own) : std::make_unique<DevicePort>(DeviceParams{})) {
        dma.master.bind(memory.socket);
        cpu.socket.bind(dma.regs);
        dma.irq.bind(irq);
        dma.busy[0].bind(busy);
    }
    Clock clock{1000};
    DmaParams params;
    std::unique_ptr<StreamDevice> device;
    ForeignMemory memory{"foreign_memory", clock};
    IommuParams iommu{true};  // present; off until IOMMU_CTRL enables it
    DmaController dma{"dma", params, BusParams{}, 1000, clock, *device, iommu};
    uint64_t iommu_root = 0;  ///< nonzero: run() turns the IOMMU on with this root
    TestCpu cpu{"cpu"};
    sc_core::sc_signal<bool> irq{"irq"};
    sc_core::sc_signal<bool> busy{"busy"};

    void reg(uint32_t offset, uint32_t value) { cpu.access(true, offset, &value); }
    uint32_t reg(uint32_t offset) {
        uint32_t v = 0;
        cpu.access(false, offset, &v);
        return v;
    }
    /// Runs one chained_pages list at `desc`; returns the cycle the
    /// interrupt rose, and the channel's STATUS.
    std::pair<uint64_t, uint32_t> run(uint64_t desc, dma_hw_direction dir = DMA_HW_MEM_TO_MEM) {
        std::pair<uint64_t, uint32_t> out{0, 0};
        sc_core::sc_spawn([&] {
            reg(DMA_REG_IRQ_MASK, 1);
            if (iommu_root) {
                reg(DMA_REG_IOMMU_ROOT_LO, static_cast<uint32_t>(iommu_root));
                reg(DMA_REG_IOMMU_CTRL, DMA_IOMMU_CTRL_ENABLE);
            }
            reg(DMA_CH_BASE(0) + DMA_CH_DESC_ADDR_LO, static_cast<uint32_t>(desc));
            reg(DMA_CH_BASE(0) + DMA_CH_CTRL,
                ctrl_word(dir, DMA_HW_FMT_CHAINED_PAGES) | DMA_CTRL_START);
            sc_core::wait(irq.posedge_event());
            out = {clock.now(), reg(DMA_CH_BASE(0) + DMA_CH_STATUS)};
            EXPECT_FALSE(busy.read());
        });
        sc_core::sc_start();
        return out;
    }
    uint64_t list(const std::vector<Seg>& segs) {
        return write_chained(memory.bytes.data(), segs, {0x1000});
    }
};

uint32_t error_status(dma_hw_error e) {
    return DMA_STATUS_ERROR | (uint32_t(e) << DMA_STATUS_ERR_SHIFT);
}

// Through the IOMMU the foreign memory sees physical addresses only: the
// 8-byte page-table reads, then every burst at its translated page. The
// IOVAs lie beyond the memory, so any untranslated access would show.
TEST(ModelForeignTarget, IommuTranslatesEveryAccess) {
    ForeignRig rig;
    constexpr uint64_t kTablesAt = 0x60000, kIovaSrc = 0x200000, kIovaDst = 0x300000;
    PageTables tables(rig.memory.bytes.data(), IommuParams{}.walk_levels, kTablesAt);
    tables.identity(0x1000, 4096);  // the descriptors
    for (uint64_t i = 0; i < 3; ++i) {
        tables.map(kIovaSrc + i * 4096, kSrc + i * 4096, false);
        tables.map(kIovaDst + i * 4096, kDst + i * 4096);
    }
    rig.iommu_root = tables.root();
    fill_pattern(rig.memory.bytes.data() + kSrc, 3 * 4096, 13);
    auto [at, status] = rig.run(rig.list(segments(kIovaSrc, kIovaDst, 3, 3000, 4096)));
    EXPECT_EQ(status, DMA_STATUS_DONE);
    for (uint64_t i = 0; i < 3; ++i)
        EXPECT_EQ(std::memcmp(rig.memory.bytes.data() + kSrc + i * 4096,
                              rig.memory.bytes.data() + kDst + i * 4096, 3000),
                  0);
    unsigned walk_reads = 0;
    for (const ForeignMemory::Access& a : rig.memory.log) {
        EXPECT_LT(a.addr, kRam) << "an IOVA reached the memory";
        walk_reads += !a.write && a.addr >= kTablesAt && a.addr < kTablesAt + 0x10000;
    }
    // 7 pages (descriptors, 3 sources, 3 destinations), one walk each.
    EXPECT_EQ(walk_reads, 7 * IommuParams{}.walk_levels);
}

TEST(ModelForeignTarget, BytesMoveThroughTransactions) {
    ForeignRig rig;
    fill_pattern(rig.memory.bytes.data() + kSrc, 3 * 4096, 7);
    auto [at, status] = rig.run(rig.list(segments(kSrc, kDst, 3, 3000, 4096)));
    EXPECT_EQ(status, DMA_STATUS_DONE);
    for (unsigned i = 0; i < 3; ++i)
        EXPECT_EQ(digest(&rig.memory.bytes[kDst + i * 4096], 3000),
                  digest(&rig.memory.bytes[kSrc + i * 4096], 3000))
            << "descriptor " << i;
    EXPECT_GT(at, 0u);
}

// The device directions stage their bytes between the device port and
// the transactions: the source's pattern lands in memory, and the sink
// digests exactly the bytes memory held.
TEST(ModelForeignTarget, DeviceToMemoryWritesTheSourcePattern) {
    ForeignRig to_mem;
    auto [at, status] =
        to_mem.run(to_mem.list(segments(0, kDst, 1, 3000, 4096)), DMA_HW_DEV_TO_MEM);
    EXPECT_EQ(status, DMA_STATUS_DONE);
    for (uint64_t k = 0; k < 3000; ++k)
        ASSERT_EQ(to_mem.memory.bytes[kDst + k], DevicePort::pattern_byte(k)) << k;
}

TEST(ModelForeignTarget, MemoryToDeviceDigestsTheSourceBytes) {
    ForeignRig rig;
    fill_pattern(rig.memory.bytes.data() + kSrc, 3000, 5);
    auto [at, status] = rig.run(rig.list(segments(kSrc, 0, 1, 3000, 4096)), DMA_HW_MEM_TO_DEV);
    EXPECT_EQ(status, DMA_STATUS_DONE);
    EXPECT_EQ(dynamic_cast<DevicePort&>(*rig.device).sink_digest(),
              DevicePort::digest_of(rig.memory.bytes.data() + kSrc, 3000));
}

// A device of the test's own behind the controller (stream_device.h): it
// takes one byte per cycle from the cycle it is asked, and keeps what it
// is sent, or answers a time before the request (`broken`).
struct OwnDevice : StreamDevice {
    bool broken = false;
    std::vector<uint8_t> received;
    std::vector<StreamTiming> answers;
    uint64_t pushed = 0, produced = 0;
    StreamTiming book(uint64_t cycle, uint64_t bytes) {
        answers.push_back(broken ? StreamTiming{0, 0} : StreamTiming{cycle, cycle + bytes});
        return answers.back();
    }
    StreamTiming pull(uint64_t cycle, uint64_t bytes) override { return book(cycle, bytes); }
    StreamTiming push(uint64_t cycle, uint64_t bytes) override {
        pushed += bytes;
        return book(cycle, bytes);
    }
    void produce(uint8_t* dst, uint64_t bytes) override {
        for (uint64_t i = 0; i < bytes; ++i) dst[i] = static_cast<uint8_t>((produced + i) * 3 + 1);
        produced += bytes;
    }
    void consume(const uint8_t* src, uint64_t bytes) override {
        received.insert(received.end(), src, src + bytes);
    }
};

// Three segments sent to the device arrive at it as one stream, in list
// order, and the interrupt waits for the last byte the device took.
TEST(ModelForeignTarget, OwnDeviceReceivesTheSegmentsAsOneStreamInOrder) {
    auto own = std::make_unique<OwnDevice>();
    OwnDevice& device = *own;
    ForeignRig rig(std::move(own));
    const auto segs = segments(kSrc, 0, 3, 1000, 4096);  // 1000 bytes each, a page apart
    std::vector<uint8_t> expected;
    for (size_t i = 0; i < segs.size(); ++i) {
        fill_pattern(rig.memory.bytes.data() + segs[i].src, segs[i].length, 7 + i);
        const uint8_t* s = rig.memory.bytes.data() + segs[i].src;
        expected.insert(expected.end(), s, s + segs[i].length);
    }
    auto [at, status] = rig.run(rig.list(segs), DMA_HW_MEM_TO_DEV);
    EXPECT_EQ(status, DMA_STATUS_DONE);
    EXPECT_EQ(device.pushed, 3000u);
    EXPECT_EQ(device.received, expected);
    ASSERT_FALSE(device.answers.empty());
    EXPECT_GE(at, device.answers.back().done);
}

// A device that answers "done at cycle 0" to every request cannot make
// data move before the controller asked for it: each chunk is taken as
// moving at its request, so the transfer still completes with its bytes
// and every traced read burst ends no earlier than it was issued.
TEST(ModelForeignTarget, DeviceAnswerBeforeTheRequestIsTakenAsTheRequestCycle) {
    auto own = std::make_unique<OwnDevice>();
    own->broken = true;
    ForeignRig rig(std::move(own));
    TraceRecorder trace;
    rig.dma.set_trace(&trace);
    auto [at, status] = rig.run(rig.list(segments(0, kDst, 1, 3000, 4096)), DMA_HW_DEV_TO_MEM);
    EXPECT_EQ(status, DMA_STATUS_DONE);
    for (uint64_t i = 0; i < 3000; ++i) ASSERT_EQ(rig.memory.bytes[kDst + i], uint8_t(i * 3 + 1));
    unsigned reads = 0;
    for (const TraceRecorder::Record& r : trace.records) {
        if (r.track != TraceTrack::read) continue;
        ++reads;
        EXPECT_LE(r.start, r.end) << r.what;
    }
    EXPECT_GT(reads, 0u);
}

// One 256-byte descriptor (one 16-beat burst, defaults: S = 2, cut-through,
// per-descriptor write-back, irq latency 5) against a memory that answers
// every access D = kLatency cycles after it arrives. With the fetch
// arriving at f:
//   fetch done       f + D
//   read issues      f + D + S                      (decoded)
//   read done        f + 2D + S; its 16 beats are the last 16 cycles, the
//                    first at f + 2D + S - 16
//   write issues     f + 2D + S - 15                (cut-through: one cycle
//                                                    after the first beat)
//   write response   f + 3D + S - 15
//   write-back       issues then, responds at f + 4D + S - 15 = busy falls
//   interrupt        irq_latency_cycles later.
TEST(ModelForeignTarget, AnnotatedDelaysTimeEveryAccess) {
    ForeignRig rig;
    auto [irq_at, status] = rig.run(rig.list(segments(kSrc, kDst, 1, 256, 4096)));
    ASSERT_EQ(status, DMA_STATUS_DONE);
    const auto& log = rig.memory.log;
    ASSERT_EQ(log.size(), 4u);  // fetch, read, write, write-back
    const uint64_t D = kLatency, S = rig.params.descriptor_setup_cycles, f = log[0].arrival;
    EXPECT_FALSE(log[0].write);
    EXPECT_EQ(log[0].length, rig.params.descriptor_prefetch * DMA_HW_DESC_SIZE);
    EXPECT_EQ(log[1].addr, kSrc);
    EXPECT_EQ(log[1].arrival, f + D + S);
    EXPECT_EQ(log[2].addr, kDst);
    EXPECT_EQ(log[2].arrival, f + 2 * D + S - 15);
    EXPECT_EQ(log[3].arrival, f + 3 * D + S - 15);
    EXPECT_EQ(irq_at, f + 4 * D + S - 15 + rig.params.irq_latency_cycles);
}

TEST(ModelForeignTarget, GenericErrorOnDataIsADataBusError) {
    ForeignRig rig;
    auto [at, status] = rig.run(rig.list(segments(kFaultyFrom, kDst, 1, 256, 4096)));
    EXPECT_EQ(status, error_status(DMA_ERR_DATA_BUS));
    EXPECT_GT(at, 0u);
}

TEST(ModelForeignTarget, AddressErrorOnDataIsADataAddressError) {
    ForeignRig rig;
    auto [at, status] = rig.run(rig.list(segments(kSrc, kRam, 1, 256, 4096)));
    EXPECT_EQ(status, error_status(DMA_ERR_DATA_ADDRESS));
}

TEST(ModelForeignTarget, AddressErrorOnAFetchIsADescriptorAddressError) {
    ForeignRig rig;
    auto [at, status] = rig.run(kRam + 0x1000);
    EXPECT_EQ(status, error_status(DMA_ERR_DESC_ADDRESS));
}

// The channel stops at a write-back's bus error; the write-backs of the
// descriptors done meanwhile, queued behind it, are not sent.
TEST(ModelForeignTarget, WriteBacksQueuedBehindAFailedOneAreNotSent) {
    ForeignRig rig;
    const uint64_t list = rig.list(segments(kSrc, kDst, 4, 64, 64));
    rig.memory.failing_writes_end = list + DMA_HW_DESC_SIZE;  // the first slot's status
    auto [at, status] = rig.run(list);
    EXPECT_EQ(status, error_status(DMA_ERR_DESC_BUS));
    unsigned status_writes = 0;
    for (const auto& a : rig.memory.log)
        if (a.write && a.addr >= list && a.addr < list + 4 * DMA_HW_DESC_SIZE) ++status_writes;
    EXPECT_EQ(status_writes, 1u);
}

TEST(ModelForeignTarget, GrantedDmiCarriesTheBytesWithoutTransactions) {
    ForeignRig rig;
    rig.memory.grant_dmi = true;
    fill_pattern(rig.memory.bytes.data() + kSrc, 4096, 9);
    auto [at, status] = rig.run(rig.list(segments(kSrc, kDst, 1, 4096, 4096)));
    EXPECT_EQ(status, DMA_STATUS_DONE);
    EXPECT_TRUE(rig.memory.log.empty()) << "granted DMI, yet b_transport was used";
    EXPECT_EQ(digest(&rig.memory.bytes[kDst], 4096), digest(&rig.memory.bytes[kSrc], 4096));
}

}  // namespace
}  // namespace dmasim::model::test
