// harness.cpp - Verilator testbench for ZipCPU/wb2axip rtl/axisgdma.v
// (memory-to-memory scatter/gather DMA scripted from an in-memory table).
//
// Our own code; the RTL is not part of this repository (see README.md).
//
// One run = one descriptor table, started by one AXI-lite write of the
// control register, measured from that write to the interrupt (o_int).
//
// Clocking convention: "cycle k" is the clock period that ends with
// posedge k. A handshake "at cycle k" is VALID && READY sampled at
// posedge k. The start event is the posedge at which the AXI-lite W beat
// of the control write carrying START is accepted; the end event is the
// first posedge after which o_int reads 1. cycles = end - start.
//
// Memory model (slave on M_AXI_*): in-order AXI4, one beat a cycle per
// channel, always ready (ARREADY = AWREADY = WREADY = 1):
//   read:  AR accepted at cycle a -> first R beat accepted no earlier than
//          cycle a + RLAT (RLAT = 1: the beat follows the handshake in the
//          very next cycle); later beats one a cycle; bursts answered in
//          AR order, the next burst's first beat may follow the previous
//          burst's last beat in the next cycle when its own latency has run.
//   write: last W beat accepted at cycle w (and its AW at or before w) ->
//          B valid from cycle w + WLAT, in order, held until BREADY.
// Memory decodes address bits [MEM_BITS-1:0]; higher bits alias. That
// matters for the table's jump entries (see README.md).

#include <verilated.h>
#if VM_TRACE
#include <verilated_vcd_c.h>
#endif
#include "Vaxisgdma.h"

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#ifndef DW
#error "DW (C_AXI_DATA_WIDTH of the Verilated model) must be defined"
#endif
#ifndef AW
#error "AW (C_AXI_ADDR_WIDTH of the Verilated model) must be defined"
#endif
static constexpr int kBytes = DW / 8;
// axisgfsm.v's two table formats (its header, lines 30-46): five 32-bit
// words when C_AXI_ADDR_WIDTH > 30, three otherwise.
static constexpr bool kWide = AW > 30;

namespace {

constexpr uint32_t kMemBits = 24;
constexpr uint32_t kMemSize = 1u << kMemBits;
constexpr uint32_t kMemMask = kMemSize - 1;
constexpr uint32_t kTblBase = 0x010000;
constexpr uint32_t kSrcBase = 0x400000;
constexpr uint32_t kDstBase = 0x800000;
constexpr uint32_t kPage = 4096;
constexpr uint32_t kDescBytes = kWide ? 20 : 12;
constexpr uint32_t kJumpBytes = kWide ? 8 : 4;  // an entry whose flags are 11

// ---- wide-signal access (VlWide for DW > 64) ------------------------------
template <typename T>
void put_bytes(T& sig, const uint8_t* src) {
    if constexpr (std::is_integral<T>::value) {
        T v = 0;
        for (int i = kBytes - 1; i >= 0; --i) v = (v << 8) | src[i];
        sig = v;
    } else {
        for (int w = 0; w < kBytes / 4; ++w)
            sig[w] = uint32_t(src[4 * w]) | uint32_t(src[4 * w + 1]) << 8 |
                     uint32_t(src[4 * w + 2]) << 16 | uint32_t(src[4 * w + 3]) << 24;
    }
}
template <typename T>
void get_bytes(const T& sig, uint8_t* dst) {
    if constexpr (std::is_integral<T>::value) {
        uint64_t v = sig;
        for (int i = 0; i < kBytes; ++i) dst[i] = uint8_t(v >> (8 * i));
    } else {
        for (int w = 0; w < kBytes / 4; ++w)
            for (int b = 0; b < 4; ++b) dst[4 * w + b] = uint8_t(sig[w] >> (8 * b));
    }
}

struct Options {
    int entries = 1;
    uint32_t seg = 64;
    int rlat = 1, wlat = 1;
    bool scattered = false;
    uint64_t timeout = 20000000;
    uint32_t seed = 1;
    const char* vcd = nullptr;
    bool events = false;  // print every bus event
};

struct ReadBurst {
    uint32_t addr;
    int beats, id;
    uint64_t ready_at;
    int sent = 0;
};
struct WriteAddr {
    uint32_t addr;
    int beats;
    uint64_t at;
};
struct WriteBurst {
    std::vector<uint8_t> data, strb;
    int beats = 0;
    uint64_t last_at = 0;
    bool done = false;
};

struct Stats {
    uint64_t start = 0, end = 0;
    int64_t first_pf_ar = -1, first_dma_ar = -1, first_w = -1, last_w = -1,
            last_b = -1;
    uint64_t pf_ars = 0, dma_ars = 0, aws = 0, bs = 0, rbeats = 0, wbeats = 0;
    int max_arlen = 0, max_awlen = 0;
    int max_rd_out = 0, max_wr_out = 0, max_dma_rd_out = 0;
    uint64_t writes_after_int = 0;
};

class Bench {
public:
    Bench(const Options& o) : opt(o), mem(kMemSize, 0), top(new Vaxisgdma) {
#if VM_TRACE
        if (opt.vcd) {
            Verilated::traceEverOn(true);
            tfp.reset(new VerilatedVcdC);
            top->trace(tfp.get(), 99);
            tfp->open(opt.vcd);
        }
#endif
    }
    ~Bench() {
#if VM_TRACE
        if (tfp) tfp->close();
#endif
        top->final();
    }

    Options opt;
    std::vector<uint8_t> mem;
    std::unique_ptr<Vaxisgdma> top;
#if VM_TRACE
    std::unique_ptr<VerilatedVcdC> tfp;
#endif
    uint64_t cyc = 0;  // posedges so far
    uint64_t ticks = 0;

    std::deque<ReadBurst> rq;
    std::deque<WriteAddr> awq;
    std::deque<WriteBurst> wq;  // W bursts in order (data may lead AW)
    std::deque<uint64_t> bq;    // B ready cycles
    int rd_out = 0, wr_out = 0, dma_rd_out = 0;
    bool int_seen = false;
    Stats st;

    // per-descriptor timing, by address range
    std::vector<int64_t> d_first_ar, d_last_ar, d_last_b, d_first_aw, d_last_r;
    std::vector<int> d_ars;
    std::map<uint32_t, int> aw_inflight_desc;  // not used for order; see bdesc
    std::deque<int> b_desc;                    // descriptor of each AW, in order
    std::deque<int> r_desc;                    // descriptor of each DMA AR, in order

    int desc_of_src(uint32_t a) const {
        a &= kMemMask;
        if (a < kSrcBase || a >= kSrcBase + uint32_t(opt.entries) * kPage) return -1;
        return int((a - kSrcBase) / kPage);
    }
    int desc_of_dst(uint32_t a) const {
        a &= kMemMask;
        if (a < kDstBase || a >= kDstBase + uint32_t(opt.entries) * kPage) return -1;
        return int((a - kDstBase) / kPage);
    }

    void dump() {
#if VM_TRACE
        if (tfp) tfp->dump(ticks);
#endif
        ticks++;
    }

    // Drive the memory's outputs for the current cycle from its state.
    void drive_mem() {
        auto& t = *top;
        t.M_AXI_ARREADY = 1;
        t.M_AXI_AWREADY = 1;
        t.M_AXI_WREADY = 1;
        // R
        if (!rq.empty() && rq.front().ready_at <= cyc + 1) {
            ReadBurst& b = rq.front();
            uint32_t a = ((b.addr & ~uint32_t(kBytes - 1)) + uint32_t(b.sent) * kBytes) & kMemMask;
            t.M_AXI_RVALID = 1;
            t.M_AXI_RID = b.id;
            t.M_AXI_RLAST = (b.sent == b.beats - 1);
            t.M_AXI_RRESP = 0;
            put_bytes(t.M_AXI_RDATA, &mem[a]);
        } else {
            t.M_AXI_RVALID = 0;
            t.M_AXI_RLAST = 0;
        }
        // B
        if (!bq.empty() && bq.front() <= cyc + 1) {
            t.M_AXI_BVALID = 1;
            t.M_AXI_BID = 0;
            t.M_AXI_BRESP = 0;
        } else {
            t.M_AXI_BVALID = 0;
        }
    }

    void commit_writes() {
        // pair completed W bursts with AWs, in order
        while (!wq.empty() && wq.front().done && !awq.empty()) {
            WriteBurst& w = wq.front();
            WriteAddr& aw = awq.front();
            if (w.beats != aw.beats) {
                fprintf(stderr, "error: W burst of %d beats for AWLEN+1 = %d\n", w.beats, aw.beats);
                exit(3);
            }
            uint32_t base = aw.addr & ~uint32_t(kBytes - 1);
            for (int i = 0; i < w.beats; ++i)
                for (int b = 0; b < kBytes; ++b)
                    if (w.strb[i * kBytes + b])
                        mem[(base + uint32_t(i) * kBytes + b) & kMemMask] = w.data[i * kBytes + b];
            if (int_seen) st.writes_after_int++;
            bq.push_back(std::max(w.last_at, aw.at) + uint64_t(opt.wlat));
            wq.pop_front();
            awq.pop_front();
        }
    }

    // One clock: inputs for this cycle are set by the caller (AXI-lite)
    // and here (memory); sample handshakes, posedge, update memory state.
    void tick() {
        auto& t = *top;
        t.S_AXI_ACLK = 0;
        drive_mem();
        t.eval();
        dump();
        // sample at the coming posedge (cyc + 1)
        uint64_t k = cyc + 1;
        bool ar = t.M_AXI_ARVALID && t.M_AXI_ARREADY;
        uint32_t araddr = t.M_AXI_ARADDR;
        int arlen = t.M_AXI_ARLEN, arid = t.M_AXI_ARID, arsize = t.M_AXI_ARSIZE;
        bool r = t.M_AXI_RVALID && t.M_AXI_RREADY;
        bool rlast = t.M_AXI_RLAST;
        bool aw = t.M_AXI_AWVALID && t.M_AXI_AWREADY;
        uint32_t awaddr = t.M_AXI_AWADDR;
        int awlen = t.M_AXI_AWLEN, awsize = t.M_AXI_AWSIZE;
        bool w = t.M_AXI_WVALID && t.M_AXI_WREADY;
        bool wlast = t.M_AXI_WLAST;
        uint8_t wdata[kBytes];
        get_bytes(t.M_AXI_WDATA, wdata);
        uint64_t wstrb = 0;
        if constexpr (kBytes <= 8) wstrb = t.M_AXI_WSTRB;
        uint32_t wstrb_w[4] = {0, 0, 0, 0};
        if constexpr (kBytes > 8 && kBytes <= 32) {
            // WSTRB is at most 32 bits for DW <= 256
            wstrb_w[0] = t.M_AXI_WSTRB;
        }
        bool b = t.M_AXI_BVALID && t.M_AXI_BREADY;

        t.S_AXI_ACLK = 1;
        t.eval();
        dump();
        cyc = k;

        if (ar) {
            if (arsize != __builtin_ctz(kBytes)) {
                fprintf(stderr, "error: ARSIZE %d on a %d-byte bus\n", arsize, kBytes);
                exit(3);
            }
            uint32_t first = araddr & ~uint32_t(kBytes - 1);
            uint32_t last = first + uint32_t(arlen) * kBytes;
            if ((first >> 12) != (last >> 12)) {
                fprintf(stderr, "error: read burst crosses 4 KiB: %08x len %d\n", araddr, arlen);
                exit(3);
            }
            rq.push_back({araddr, arlen + 1, arid, k + uint64_t(opt.rlat)});
            rd_out++;
            st.max_rd_out = std::max(st.max_rd_out, rd_out);
            if (arid == 1) {
                st.pf_ars++;
                if (st.first_pf_ar < 0) st.first_pf_ar = int64_t(k);
            } else {
                st.dma_ars++;
                dma_rd_out++;
                st.max_dma_rd_out = std::max(st.max_dma_rd_out, dma_rd_out);
                st.max_arlen = std::max(st.max_arlen, arlen);
                if (st.first_dma_ar < 0) st.first_dma_ar = int64_t(k);
                int d = desc_of_src(araddr);
                r_desc.push_back(d);
                if (d >= 0) {
                    if (d_first_ar[d] < 0) d_first_ar[d] = int64_t(k);
                    d_last_ar[d] = int64_t(k);
                    d_ars[d]++;
                }
            }
            if (opt.events)
                printf("%" PRIu64 " AR id=%d addr=%08x len=%d\n", k, arid, araddr, arlen);
        }
        if (r) {
            ReadBurst& rb = rq.front();
            st.rbeats++;
            if (++rb.sent == rb.beats) {
                if (!rlast) { fprintf(stderr, "error: model RLAST\n"); exit(3); }
                if (rb.id == 0) {
                    dma_rd_out--;
                    int d = r_desc.front();
                    r_desc.pop_front();
                    if (d >= 0) d_last_r[d] = int64_t(k);
                }
                rq.pop_front();
                rd_out--;
            }
        }
        if (aw) {
            if (awsize != __builtin_ctz(kBytes)) {
                fprintf(stderr, "error: AWSIZE %d on a %d-byte bus\n", awsize, kBytes);
                exit(3);
            }
            uint32_t first = awaddr & ~uint32_t(kBytes - 1);
            uint32_t last = first + uint32_t(awlen) * kBytes;
            if ((first >> 12) != (last >> 12)) {
                fprintf(stderr, "error: write burst crosses 4 KiB: %08x len %d\n", awaddr, awlen);
                exit(3);
            }
            awq.push_back({awaddr, awlen + 1, k});
            st.aws++;
            st.max_awlen = std::max(st.max_awlen, awlen);
            wr_out++;
            st.max_wr_out = std::max(st.max_wr_out, wr_out);
            int d = desc_of_dst(awaddr);
            b_desc.push_back(d);
            if (d >= 0 && d_first_aw[d] < 0) d_first_aw[d] = int64_t(k);
            if (opt.events) printf("%" PRIu64 " AW addr=%08x len=%d\n", k, awaddr, awlen);
        }
        if (w) {
            if (wq.empty() || wq.back().done) wq.emplace_back();
            WriteBurst& wb = wq.back();
            wb.data.insert(wb.data.end(), wdata, wdata + kBytes);
            for (int i = 0; i < kBytes; ++i) {
                bool s = kBytes <= 8 ? ((wstrb >> i) & 1) : ((wstrb_w[i / 32] >> (i % 32)) & 1);
                wb.strb.push_back(s ? 1 : 0);
            }
            wb.beats++;
            st.wbeats++;
            if (st.first_w < 0) st.first_w = int64_t(k);
            st.last_w = int64_t(k);
            if (wlast) {
                wb.done = true;
                wb.last_at = k;
                if (opt.events) printf("%" PRIu64 " WLAST beats=%d\n", k, wb.beats);
            }
        }
        commit_writes();
        if (b) {
            bq.pop_front();
            st.bs++;
            wr_out--;
            st.last_b = int64_t(k);
            int d = b_desc.front();
            b_desc.pop_front();
            if (d >= 0) d_last_b[d] = int64_t(k);
            if (opt.events) printf("%" PRIu64 " B\n", k);
        }
    }

    void idle_lite() {
        auto& t = *top;
        t.S_AXIL_AWVALID = 0;
        t.S_AXIL_WVALID = 0;
        t.S_AXIL_BREADY = 1;
        t.S_AXIL_ARVALID = 0;
        t.S_AXIL_RREADY = 1;
        t.S_AXIL_AWPROT = 0;
        t.S_AXIL_ARPROT = 0;
    }

    // AXI-lite write; returns the cycle at which the W beat was accepted.
    uint64_t lite_write(uint32_t addr, uint32_t data) {
        auto& t = *top;
        t.S_AXIL_AWVALID = 1;
        t.S_AXIL_AWADDR = addr;
        t.S_AXIL_WVALID = 1;
        t.S_AXIL_WDATA = data;
        t.S_AXIL_WSTRB = 0xf;
        t.S_AXIL_BREADY = 1;
        bool awdone = false, wdone = false;
        uint64_t wat = 0;
        for (int n = 0; n < 100 && !(awdone && wdone); ++n) {
            t.S_AXI_ACLK = 0;
            t.eval();
            bool awh = t.S_AXIL_AWVALID && t.S_AXIL_AWREADY;
            bool wh = t.S_AXIL_WVALID && t.S_AXIL_WREADY;
            tick();
            if (awh) { awdone = true; t.S_AXIL_AWVALID = 0; }
            if (wh) { wdone = true; wat = cyc; t.S_AXIL_WVALID = 0; }
        }
        if (!(awdone && wdone)) { fprintf(stderr, "error: AXI-lite write hung\n"); exit(3); }
        for (int n = 0; n < 100 && !t.S_AXIL_BVALID; ++n) tick();
        tick();  // B accepted (BREADY = 1)
        return wat;
    }

    uint32_t lite_read(uint32_t addr) {
        auto& t = *top;
        t.S_AXIL_ARVALID = 1;
        t.S_AXIL_ARADDR = addr;
        t.S_AXIL_RREADY = 1;
        for (int n = 0; n < 100; ++n) {
            t.S_AXI_ACLK = 0;
            t.eval();
            bool arh = t.S_AXIL_ARVALID && t.S_AXIL_ARREADY;
            tick();
            if (arh) { t.S_AXIL_ARVALID = 0; break; }
        }
        for (int n = 0; n < 100; ++n) {
            if (t.S_AXIL_RVALID) {
                uint32_t v = t.S_AXIL_RDATA;
                tick();
                return v;
            }
            tick();
        }
        fprintf(stderr, "error: AXI-lite read hung\n");
        exit(3);
    }

    void put_be32(uint32_t a, uint32_t v) {
        // axilfetch (SWAP_ENDIANNESS = 1) reads table words big-endian
        mem[(a + 0) & kMemMask] = uint8_t(v >> 24);
        mem[(a + 1) & kMemMask] = uint8_t(v >> 16);
        mem[(a + 2) & kMemMask] = uint8_t(v >> 8);
        mem[(a + 3) & kMemMask] = uint8_t(v);
    }
};

void usage() {
    fprintf(stderr,
            "usage: Vaxisgdma --entries N --seg BYTES --rlat R --wlat W"
            " [--layout packed|scattered] [--seed S] [--timeout CYCLES]"
            " [--events] [--vcd FILE]\n");
    exit(2);
}

}  // namespace

int main(int argc, char** argv) {
    Verilated::commandArgs(argc, argv);
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> const char* {
            if (i + 1 >= argc) usage();
            return argv[++i];
        };
        if (a == "--entries") o.entries = atoi(next());
        else if (a == "--seg") o.seg = uint32_t(strtoul(next(), nullptr, 0));
        else if (a == "--rlat") o.rlat = atoi(next());
        else if (a == "--wlat") o.wlat = atoi(next());
        else if (a == "--layout") {
            std::string l = next();
            if (l == "scattered") o.scattered = true;
            else if (l == "packed") o.scattered = false;
            else usage();
        } else if (a == "--seed") o.seed = uint32_t(strtoul(next(), nullptr, 0));
        else if (a == "--timeout") o.timeout = strtoull(next(), nullptr, 0);
        else if (a == "--events") o.events = true;
        else if (a == "--vcd") o.vcd = next();
        else if (a.rfind("+verilator", 0) == 0) continue;
        else usage();
    }
    if (o.entries < 1 || o.entries > 256 || o.seg < 1 || o.seg > kPage || o.rlat < 1 ||
        o.wlat < 1)
        usage();

    Bench bench(o);
    Bench& B = bench;
    auto& t = *B.top;
    B.d_first_ar.assign(o.entries, -1);
    B.d_last_ar.assign(o.entries, -1);
    B.d_last_b.assign(o.entries, -1);
    B.d_first_aw.assign(o.entries, -1);
    B.d_last_r.assign(o.entries, -1);
    B.d_ars.assign(o.entries, 0);

    // ---- memory image -------------------------------------------------
    std::mt19937 rng(o.seed);
    for (uint32_t i = 0; i < uint32_t(o.entries) * kPage; ++i) {
        B.mem[kSrcBase + i] = uint8_t(rng());
        B.mem[kDstBase + i] = 0xa5;  // destination pre-filled, must be overwritten
    }
    // table: descriptor i at slot[i]
    std::vector<uint32_t> slot(o.entries);
    if (o.scattered) {
        // one 4 KiB page per descriptor (+ its jump entry), pages in a
        // seeded random order over a 1 MiB window
        std::vector<uint32_t> pages(256);
        for (uint32_t p = 0; p < 256; ++p) pages[p] = p;
        std::shuffle(pages.begin(), pages.end(), rng);
        for (int i = 0; i < o.entries; ++i) slot[i] = kTblBase + pages[i] * kPage;
    } else {
        for (int i = 0; i < o.entries; ++i) slot[i] = kTblBase + uint32_t(i) * kDescBytes;
    }
    for (int i = 0; i < o.entries; ++i) {
        uint32_t s = slot[i];
        bool last = (i == o.entries - 1);
        uint32_t src = kSrcBase + uint32_t(i) * kPage, dst = kDstBase + uint32_t(i) * kPage;
        // flags (axisgfsm.v lines 343-367): 00 continue, 01 last, 10 skip, 11 jump
        uint32_t flags = (last ? 1u : 0u) << 30;
        if (kWide) {
            B.put_be32(s + 0, src);            // source, low word
            B.put_be32(s + 4, flags);          // flags | source, high bits
            B.put_be32(s + 8, dst);            // destination, low word
            B.put_be32(s + 12, 0);             // int_en = 0 | destination, high bits
            B.put_be32(s + 16, o.seg);         // length in bytes
        } else {
            B.put_be32(s + 0, flags | src);    // flags | 30-bit source
            B.put_be32(s + 4, dst);            // int_en = 0 | 30-bit destination
            B.put_be32(s + 8, o.seg);          // length in bytes
        }
        if (o.scattered && !last) {
            // jump entry, flags 11: the FSM continues at the address in the
            // flags word (axisgfsm.v line 365, r_pf_pc <= i_pf_insn). With
            // five-word entries that is word 1, flag bits included, so the
            // target aliases through the memory's address decode.
            uint32_t j = s + kDescBytes;
            if (kWide) {
                B.put_be32(j, 0);
                B.put_be32(j + 4, (3u << 30) | (slot[i + 1] & 0x3fffffff));
            } else {
                B.put_be32(j, (3u << 30) | slot[i + 1]);
            }
        }
    }
    std::vector<uint8_t> expect = B.mem;
    for (int i = 0; i < o.entries; ++i)
        memcpy(&expect[kDstBase + uint32_t(i) * kPage], &B.mem[kSrcBase + uint32_t(i) * kPage], o.seg);

    // ---- reset --------------------------------------------------------
    B.idle_lite();
    t.S_AXI_ARESETN = 0;
    for (int i = 0; i < 10; ++i) B.tick();
    t.S_AXI_ARESETN = 1;
    for (int i = 0; i < 5; ++i) B.tick();

    // ---- program and start ---------------------------------------------
    B.lite_write(0x8, slot[0]);  // table address, low
    B.lite_write(0xc, 0);        // table address, high
    // control: START (bit 0) | interrupt enable (bit 2)
    uint64_t start = B.lite_write(0x0, 0x5);
    B.st.start = start;
    // lite_write already ran a few cycles past the start: check o_int from
    // now on, but the interrupt cannot come that early (it needs a fetch).
    uint64_t end = 0;
    while (B.cyc - start < o.timeout) {
        if (t.o_int) { end = B.cyc; break; }
        B.tick();
    }
    if (!end) {
        printf("status=timeout cycles_run=%" PRIu64 " rbeats=%" PRIu64 " wbeats=%" PRIu64
               " aws=%" PRIu64 " bs=%" PRIu64 "\n",
               B.cyc - start, B.st.rbeats, B.st.wbeats, B.st.aws, B.st.bs);
        int bad = 0;
        for (int i = 0; i < o.entries; ++i)
            if (memcmp(&expect[kDstBase + uint32_t(i) * kPage], &B.mem[kDstBase + uint32_t(i) * kPage], o.seg))
                bad++;
        printf("segments_wrong=%d of %d\n", bad, o.entries);
        return 1;
    }
    B.int_seen = true;
    // let anything still in flight drain, then check
    for (int i = 0; i < 1000 + 4 * (o.rlat + o.wlat); ++i) B.tick();
    uint32_t ctrl = B.lite_read(0x0);

    bool mem_ok = (B.mem == expect);
    int bad_segments = 0;
    uint64_t stray = 0;
    for (int i = 0; i < o.entries; ++i)
        if (memcmp(&expect[kDstBase + uint32_t(i) * kPage], &B.mem[kDstBase + uint32_t(i) * kPage], o.seg))
            bad_segments++;
    for (uint32_t a = 0; a < kMemSize; ++a)
        if (B.mem[a] != expect[a]) {
            uint32_t off = a - kDstBase;
            bool in_seg = a >= kDstBase && off / kPage < uint32_t(o.entries) && off % kPage < o.seg;
            if (!in_seg) stray++;
        }

    // ---- per-descriptor gaps -------------------------------------------
    // launch gap: last B of descriptor i -> first data AR of descriptor i+1
    int64_t gmin = INT64_MAX, gmax = INT64_MIN, gsum = 0;
    int gn = 0;
    int64_t rmin = INT64_MAX, rmax = INT64_MIN;  // last R of i -> first AR of i+1
    for (int i = 0; i + 1 < o.entries; ++i) {
        if (B.d_last_b[i] < 0 || B.d_first_ar[i + 1] < 0) continue;
        int64_t g = B.d_first_ar[i + 1] - B.d_last_b[i];
        gmin = std::min(gmin, g);
        gmax = std::max(gmax, g);
        gsum += g;
        gn++;
        int64_t r = B.d_first_ar[i + 1] - B.d_last_r[i];
        rmin = std::min(rmin, r);
        rmax = std::max(rmax, r);
    }
    // last B of the last descriptor -> interrupt
    int64_t b2int = B.d_last_b[o.entries - 1] >= 0 ? int64_t(end) - B.d_last_b[o.entries - 1] : -1;

    const Stats& s = B.st;
    bool ok = mem_ok && bad_segments == 0 && stray == 0 && (ctrl & 0x1f) == 0x06;
    printf("status=%s dw=%d aw=%d entries=%d seg=%u rlat=%d wlat=%d layout=%s cycles=%" PRIu64
           " start_to_fetch=%" PRId64 " fetch_to_read=%" PRId64 " read_to_out=%" PRId64
           " data_window=%" PRId64 " pf_ars=%" PRIu64 " dma_ars=%" PRIu64 " aws=%" PRIu64
           " max_arlen=%d max_awlen=%d max_rd_out=%d max_dma_rd_out=%d max_wr_out=%d"
           " gap_b_to_ar_min=%" PRId64 " gap_b_to_ar_max=%" PRId64 " gap_b_to_ar_mean=%.2f"
           " gap_r_to_ar_min=%" PRId64 " gap_r_to_ar_max=%" PRId64 " last_b_to_int=%" PRId64
           " ctrl=0x%02x bad_segments=%d stray_bytes=%" PRIu64 " writes_after_int=%" PRIu64 "\n",
           ok ? "ok" : "FAIL", DW, AW, o.entries, o.seg, o.rlat, o.wlat,
           o.scattered ? "scattered" : "packed", end - start, s.first_pf_ar - int64_t(start),
           s.first_dma_ar - s.first_pf_ar, s.first_w - s.first_dma_ar, s.last_w - s.first_dma_ar,
           s.pf_ars, s.dma_ars, s.aws, s.max_arlen, s.max_awlen, s.max_rd_out, s.max_dma_rd_out,
           s.max_wr_out, gn ? gmin : -1, gn ? gmax : -1, gn ? double(gsum) / gn : -1.0,
           gn ? rmin : -1, gn ? rmax : -1, b2int, ctrl & 0x1f, bad_segments, stray,
           s.writes_after_int);
    return ok ? 0 : 1;
}
