// harness.cc - dmasim validation harness for iDMA desc64 + AXI backend.
// Our code (not iDMA's). Drives idma_desc64_dut (idma_desc64_dut.sv) through
// Verilator: a doorbell register write, an in-order AXI4 memory shared by
// descriptor and data traffic, a descriptor-chain writer; counts cycles from
// the doorbell write to irq_o and checks the copied bytes and the
// completion write-backs byte for byte.
//
// Memory model (one AXI4 port, after iDMA's bench mux):
//  - AR, AW, W always ready (no back-pressure, unbounded outstanding).
//  - reads in order: a burst's first R beat is valid RLAT cycles after its
//    AR handshake (RLAT=1: the next cycle), and never before the previous
//    burst's last beat has gone; then one beat a cycle while r_ready.
//  - writes in order: B is valid WLAT cycles after the burst's last W
//    handshake (and after its AW), one B at a time, in order.
//  - INCR and FIXED bursts honoured (the write-back is a FIXED burst).
//
// Usage: harness --entries 1,2,4 --seg 64,256 --rlat 1,10 --wlat 1,10
//                 --layout b2b,scattered [--seed N] [--trace]
// Prints one CSV row per point (cross product of the lists).
#include <verilated.h>
#include "Vidma_desc64_dut.h"
#if VM_TRACE
#include <verilated_vcd_c.h>
#endif

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <type_traits>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#ifndef DATA_WIDTH
#error "compile with -DDATA_WIDTH=<bits>"
#endif
static constexpr unsigned kBeatBytes = DATA_WIDTH / 8;

// ---- byte access to Verilator signals of any width -------------------------
static inline uint8_t get_byte(const uint32_t& v, unsigned i) { return (v >> (8 * i)) & 0xff; }
static inline uint8_t get_byte(const uint64_t& v, unsigned i) { return (v >> (8 * i)) & 0xff; }
template <std::size_t N> static inline uint8_t get_byte(const VlWide<N>& v, unsigned i) {
    return (v[i / 4] >> (8 * (i % 4))) & 0xff;
}
static inline void set_byte(uint32_t& v, unsigned i, uint8_t b) {
    v = (v & ~(0xffu << (8 * i))) | (uint32_t(b) << (8 * i));
}
static inline void set_byte(uint64_t& v, unsigned i, uint8_t b) {
    v = (v & ~(0xffull << (8 * i))) | (uint64_t(b) << (8 * i));
}
template <std::size_t N> static inline void set_byte(VlWide<N>& v, unsigned i, uint8_t b) {
    uint32_t& w = v[i / 4];
    w = (w & ~(0xffu << (8 * (i % 4)))) | (uint32_t(b) << (8 * (i % 4)));
}
static inline bool strb_bit(uint64_t s, unsigned i) { return (s >> i) & 1; }
static inline bool strb_bit(uint32_t s, unsigned i) { return (s >> i) & 1; }
static inline bool strb_bit(uint16_t s, unsigned i) { return (s >> i) & 1; }
static inline bool strb_bit(uint8_t s, unsigned i) { return (s >> i) & 1; }

// ---- sparse memory ---------------------------------------------------------
struct Memory {
    std::unordered_map<uint64_t, std::array<uint8_t, 4096>> pages;
    uint8_t* at(uint64_t a) {
        auto it = pages.find(a >> 12);
        if (it == pages.end()) {
            it = pages.emplace(a >> 12, std::array<uint8_t, 4096>{}).first;
            it->second.fill(0);
        }
        return &it->second[a & 4095];
    }
    uint8_t rd(uint64_t a) { return *at(a); }
    void wr(uint64_t a, uint8_t b) { *at(a) = b; }
    void wr64(uint64_t a, uint64_t v) { for (int i = 0; i < 8; ++i) wr(a + i, (v >> (8 * i)) & 0xff); }
    void wr32(uint64_t a, uint32_t v) { for (int i = 0; i < 4; ++i) wr(a + i, (v >> (8 * i)) & 0xff); }
};

struct Burst { uint64_t addr; unsigned len, size, burst, id; uint64_t t; };
static uint64_t beat_addr(const Burst& b, unsigned k) {
    if (b.burst == 0) return b.addr;                    // FIXED
    uint64_t step = 1ull << b.size;
    return (b.addr & ~(step - 1)) + uint64_t(k) * step; // INCR (aligned start assumed after beat 0)
}

struct Point { unsigned entries, seg, rlat, wlat; bool scattered; };
struct Result {
    uint64_t cycles = 0, last_data_w = 0;
    bool ok = false; std::string err;
    unsigned desc_ars = 0, desc_ar_wasted = 0, data_ars = 0, data_aws = 0, wb_aws = 0;
    unsigned max_data_ar_out = 0, max_desc_ar_out = 0, max_data_aw_out = 0;
};

static const uint64_t kSrc = 0x10000000, kDst = 0x20000000, kDesc = 0x30000000;
static bool g_trace = false;

// In-memory descriptor layout of v0.6.5's idma_desc64_reader: the 256-bit
// descriptor_t {flags, length, next, src, dest} (MSB first) is assembled from
// the R beats differently per DataWidth (reader.sv gen_*_data_path):
//   >=64 bit: beat b is bits [W*(n-b)-1 : W*(n-b-1)] (first beat most significant)
//   32 bit:   word k<7 is D32[k+1], word 7 is D32[0]
static void write_descriptor(Memory& m, uint64_t base, uint32_t flags, uint32_t len,
                             uint64_t next, uint64_t src, uint64_t dst) {
    uint32_t d32[8];  // D32[j] = descriptor bits [32j+31:32j]
    d32[7] = flags; d32[6] = len;
    d32[5] = next >> 32; d32[4] = uint32_t(next);
    d32[3] = src >> 32;  d32[2] = uint32_t(src);
    d32[1] = dst >> 32;  d32[0] = uint32_t(dst);
    if (DATA_WIDTH == 32) {
        if (getenv("DESC32_MSB_FIRST"))  // word k = D32[7-k] (flags first), the order the reader's
            for (unsigned k = 0; k < 8; ++k) m.wr32(base + 4 * k, d32[7 - k]);  // irq/next taps assume
        else
            for (unsigned k = 0; k < 8; ++k) m.wr32(base + 4 * k, d32[k < 7 ? k + 1 : 0]);
    } else {
        unsigned wpb = DATA_WIDTH / 32, n = 256 / DATA_WIDTH;  // 32-bit words per beat, beats
        for (unsigned b = 0; b < n; ++b) {
            unsigned chunk = n - 1 - b;
            for (unsigned w = 0; w < wpb; ++w) m.wr32(base + b * kBeatBytes + 4 * w, d32[chunk * wpb + w]);
        }
    }
}

static Result run_point(const Point& p, uint64_t seed) {
    Result res;
    auto ctx = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vidma_desc64_dut>(ctx.get());
#if VM_TRACE
    std::unique_ptr<VerilatedVcdC> vcd;
    uint64_t ts = 0;
    if (getenv("VCD")) {
        ctx->traceEverOn(true);
        vcd = std::make_unique<VerilatedVcdC>();
        top->trace(vcd.get(), 99);
        vcd->open(getenv("VCD"));
    }
#define DUMP_NOW() do { if (vcd) vcd->dump(ts++); } while (0)
#else
#define DUMP_NOW() do {} while (0)
#endif
    Memory mem;
    std::mt19937_64 rng(seed ^ (uint64_t(p.entries) << 32) ^ p.seg);

    // descriptor addresses
    std::vector<uint64_t> da(p.entries);
    if (!p.scattered) {
        for (unsigned i = 0; i < p.entries; ++i) da[i] = kDesc + 32ull * i;
    } else {
        // each descriptor in a 256-byte slot of its own, slots in random order
        // over a region 4x the list: next is never base + 32k (k = 1..4), so
        // every speculative read is wrong.
        std::vector<uint64_t> slots(4 * p.entries + 4);
        for (size_t i = 0; i < slots.size(); ++i) slots[i] = i;
        std::shuffle(slots.begin(), slots.end(), rng);
        for (unsigned i = 0; i < p.entries; ++i) da[i] = kDesc + 256ull * slots[i];
    }
    // flags: src/dst INCR (bits 2:1, 4:3 = 01), irq (bit 0) on the last only
    for (unsigned i = 0; i < p.entries; ++i) {
        uint32_t flags = (1u << 1) | (1u << 3) | (i + 1 == p.entries ? 1u : 0u);
        uint64_t next = (i + 1 == p.entries) ? ~0ull : da[i + 1];
        write_descriptor(mem, da[i], flags, p.seg, next, kSrc + uint64_t(i) * p.seg,
                         kDst + uint64_t(i) * p.seg);
    }
    std::vector<uint8_t> golden(uint64_t(p.entries) * p.seg);
    for (auto& b : golden) b = rng() & 0xff;
    for (uint64_t i = 0; i < golden.size(); ++i) { mem.wr(kSrc + i, golden[i]); mem.wr(kDst + i, 0x5a); }
    std::vector<std::array<uint8_t, 32>> desc_before(p.entries);
    for (unsigned i = 0; i < p.entries; ++i)
        for (unsigned k = 0; k < 32; ++k) desc_before[i][k] = mem.rd(da[i] + k);
    auto is_desc = [&](uint64_t a) { return a >= kDesc && a < kDesc + 0x10000000; };

    // reset
    top->clk_i = 0; top->rst_ni = 0;
    top->aw_ready_i = 1; top->w_ready_i = 1; top->ar_ready_i = 1;
    top->r_valid_i = 0; top->b_valid_i = 0; top->reg_valid_i = 0;
    for (int i = 0; i < 10; ++i) { top->clk_i = 0; top->eval(); top->clk_i = 1; top->eval(); }
    top->rst_ni = 1;
    for (int i = 0; i < 5; ++i) { top->clk_i = 0; top->eval(); top->clk_i = 1; top->eval(); }

    std::deque<Burst> rq;        // accepted ARs, in order
    unsigned r_beat = 0;         // beat index within rq.front()
    uint64_t r_free = 0;         // first cycle the R channel is free for the next burst's first beat
    std::deque<Burst> awq;       // accepted AWs awaiting data
    unsigned w_beat = 0;
    struct Wb { std::remove_reference_t<decltype(top->w_data_o)> data; std::remove_reference_t<decltype(top->w_strb_o)> strb; bool last; uint64_t t; };
    std::deque<Wb> wq;           // W beats not yet matched to an AW
    std::deque<std::pair<uint64_t, unsigned>> bq;  // (ready cycle, id)
    uint64_t b_free = 0;
    unsigned desc_ar_out = 0, data_ar_out = 0, data_aw_out = 0;
    std::vector<bool> wb_seen(p.entries, false);

    bool doorbell_done = false;
    uint64_t t0 = 0, cyc = 0;
    const uint64_t limit = 4000000;
    uint64_t r_first_ready = 0;  // cycle the current front burst's first beat may go
    for (cyc = 0; cyc < limit; ++cyc) {
        // ---- drive memory outputs for this cycle
        top->reg_addr_i = 0; top->reg_write_i = 1; top->reg_wstrb_i = 0xff;
        top->reg_wdata_i = da[0]; top->reg_valid_i = !doorbell_done;
        bool rv = false;
        if (!rq.empty()) {
            const Burst& b = rq.front();
            if (r_beat > 0 || cyc >= r_first_ready) {
                rv = true;
                uint64_t a = beat_addr(b, r_beat);
                uint64_t lane0 = a & ~uint64_t(kBeatBytes - 1);
                for (unsigned i = 0; i < kBeatBytes; ++i) set_byte(top->r_data_i, i, mem.rd(lane0 + i));
                top->r_last_i = (r_beat == b.len);
                top->r_id_i = b.id;
                top->r_resp_i = 0;
            }
        }
        top->r_valid_i = rv;
        bool bv = !bq.empty() && cyc >= bq.front().first;
        top->b_valid_i = bv;
        if (bv) { top->b_id_i = bq.front().second; top->b_resp_i = 0; }
        top->clk_i = 0;
        top->eval();
        DUMP_NOW();

        // ---- sample handshakes (before the rising edge)
        bool reg_hs = top->reg_valid_i && top->reg_ready_o;
        bool irq = top->irq_o;
        bool ar_hs = top->ar_valid_o && top->ar_ready_i;
        Burst ar{top->ar_addr_o, top->ar_len_o, top->ar_size_o, top->ar_burst_o, top->ar_id_o, cyc};
        bool aw_hs = top->aw_valid_o && top->aw_ready_i;
        Burst aw{top->aw_addr_o, top->aw_len_o, top->aw_size_o, top->aw_burst_o, top->aw_id_o, cyc};
        bool w_hs = top->w_valid_o && top->w_ready_i;
        Wb wb{top->w_data_o, top->w_strb_o, bool(top->w_last_o), cyc};
        bool r_hs = rv && top->r_ready_o;
        bool b_hs = bv && top->b_ready_o;

        top->clk_i = 1;
        top->eval();
        DUMP_NOW();

        // ---- update the memory model
        if (reg_hs && !doorbell_done) {
            if (top->reg_error_o) { res.err = "doorbell register write error"; return res; }
            doorbell_done = true; t0 = cyc;
        }
        if (irq) {
            res.cycles = cyc - t0;
            break;
        }
        if (r_hs) {
            const Burst& b = rq.front();
            if (r_beat == b.len) {
                if (is_desc(b.addr)) --desc_ar_out; else --data_ar_out;
                rq.pop_front(); r_beat = 0;
                r_free = cyc + 1;
                if (!rq.empty()) r_first_ready = std::max(rq.front().t + p.rlat, r_free);
            } else ++r_beat;
        }
        if (ar_hs) {
            if (g_trace) fprintf(stderr, "%6llu AR %llx len %u\n", (unsigned long long)(cyc - t0), (unsigned long long)ar.addr, ar.len);
            if (is_desc(ar.addr)) {
                ++res.desc_ars; ++desc_ar_out;
                res.max_desc_ar_out = std::max(res.max_desc_ar_out, desc_ar_out);
            } else {
                ++res.data_ars; ++data_ar_out;
                res.max_data_ar_out = std::max(res.max_data_ar_out, data_ar_out);
            }
            rq.push_back(ar);
            if (rq.size() == 1) r_first_ready = std::max(ar.t + p.rlat, r_free);
        }
        if (aw_hs) {
            if (g_trace) fprintf(stderr, "%6llu AW %llx len %u\n", (unsigned long long)(cyc - t0), (unsigned long long)aw.addr, aw.len);
            if (is_desc(aw.addr)) ++res.wb_aws; else { ++res.data_aws; ++data_aw_out; }
            res.max_data_aw_out = std::max(res.max_data_aw_out, data_aw_out);
            awq.push_back(aw);
        }
        if (w_hs) wq.push_back(wb);
        if (g_trace && w_hs) fprintf(stderr, "%6llu W %016llx last %d\n", (unsigned long long)(cyc - t0), (unsigned long long)get_byte(wb.data, 0), wb.last);
        if (g_trace && r_hs) fprintf(stderr, "%6llu R beat %u byte0 %02x\n", (unsigned long long)(cyc - t0), r_beat, get_byte(top->r_data_i, 0));
        if (b_hs) {
            bq.pop_front();
        }
        // match W beats to AWs in order
        while (!awq.empty() && !wq.empty()) {
            const Burst& b = awq.front();
            Wb w = wq.front(); wq.pop_front();
            uint64_t a = beat_addr(b, w_beat);
            uint64_t lane0 = a & ~uint64_t(kBeatBytes - 1);
            for (unsigned i = 0; i < kBeatBytes; ++i) {
                if (!strb_bit(w.strb, i)) continue;
                uint64_t ba = lane0 + i;
                bool in_dst = ba >= kDst && ba < kDst + golden.size();
                bool in_wb = false;
                for (unsigned d = 0; d < p.entries && !in_wb; ++d)
                    if (ba >= da[d] && ba < da[d] + 8) { in_wb = true; wb_seen[d] = true; }
                if (!in_dst && !in_wb) {
                    char buf[128]; snprintf(buf, sizeof buf, "stray write at %#llx", (unsigned long long)ba);
                    res.err = buf; return res;
                }
                if (in_dst) res.last_data_w = cyc - t0;
                mem.wr(ba, get_byte(w.data, i));
            }
            bool last = (w_beat == b.len);
            if (last != w.last) { res.err = "w_last mismatch"; return res; }
            if (last) {
                uint64_t t = std::max(w.t, b.t) + p.wlat;
                t = std::max(t, b_free);
                b_free = t + 1;
                if (!is_desc(b.addr)) --data_aw_out;
                bq.push_back({t, b.id});
                awq.pop_front(); w_beat = 0;
            } else ++w_beat;
        }
    }
    if (cyc >= limit) { res.err = "timeout: no irq"; return res; }

    // ---- checks
    if (getenv("DUMP")) {
        for (int i = 0; i < 24; ++i) fprintf(stderr, "%02x/%02x ", mem.rd(kDst + i), golden[i]);
        fprintf(stderr, "\n");
    }
    for (uint64_t i = 0; i < golden.size(); ++i)
        if (mem.rd(kDst + i) != golden[i]) {
            char buf[128]; snprintf(buf, sizeof buf, "data mismatch at dst+%llu: %02x want %02x", (unsigned long long)i, mem.rd(kDst + i), golden[i]);
            res.err = buf; return res;
        }
    // completion write-back: 64 bits of ones at the descriptor's base
    // (DataWidth 32: a 2-beat FIXED burst, so the same 4 bytes twice)
    unsigned wb_bytes = DATA_WIDTH == 32 ? 4 : 8;
    for (unsigned d = 0; d < p.entries; ++d) {
        for (unsigned k = 0; k < 32; ++k) {
            uint8_t want = k < wb_bytes ? 0xff : desc_before[d][k];
            if (mem.rd(da[d] + k) != want) {
                char buf[128]; snprintf(buf, sizeof buf, "write-back mismatch desc %u byte %u", d, k);
                res.err = buf; return res;
            }
        }
    }
    // the last descriptor's write-back B raises irq (irq_o is b_valid && b_ready)
    if (res.wb_aws != p.entries) { res.err = "write-back count != entries"; return res; }
    // descriptor reads beyond one per descriptor: speculative reads thrown away
    res.desc_ar_wasted = res.desc_ars - p.entries;  // every read beyond one per descriptor
    res.ok = true;
    top->final();
    return res;
}

static std::vector<unsigned> parse_list(const char* s) {
    std::vector<unsigned> v; std::string t(s); size_t pos = 0;
    while (pos <= t.size()) {
        size_t c = t.find(',', pos); if (c == std::string::npos) c = t.size();
        v.push_back(std::stoul(t.substr(pos, c - pos))); pos = c + 1;
    }
    return v;
}

int main(int argc, char** argv) {
    std::vector<unsigned> entries{1}, seg{64}, rlat{1}, wlat{1};
    std::vector<bool> layouts{false};
    uint64_t seed = 1;
    bool header = true;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() { if (i + 1 >= argc) { fprintf(stderr, "%s needs a value\n", a.c_str()); exit(2); } return argv[++i]; };
        if (a == "--entries") entries = parse_list(next());
        else if (a == "--seg") seg = parse_list(next());
        else if (a == "--rlat") rlat = parse_list(next());
        else if (a == "--wlat") wlat = parse_list(next());
        else if (a == "--lat") { rlat = parse_list(next()); wlat.clear(); }  // wlat = rlat, zipped
        else if (a == "--layout") {
            layouts.clear(); std::string v = next();
            if (v.find("b2b") != std::string::npos) layouts.push_back(false);
            if (v.find("scattered") != std::string::npos) layouts.push_back(true);
        }
        else if (a == "--seed") seed = std::stoull(next());
        else if (a == "--no-header") header = false;
        else if (a == "--trace") g_trace = true;
        else { fprintf(stderr, "unknown option %s\n", a.c_str()); return 2; }
    }
    if (header)
        printf("data_width,entries,segment_bytes,read_latency,write_latency,layout,cycles,"
               "cycles_per_desc,last_data_w,desc_ars,desc_ars_wasted,data_ars,data_aws,"
               "max_desc_ar_out,max_data_ar_out,max_data_aw_out,check\n");
    int fails = 0;
    for (bool sc : layouts)
        for (unsigned rl : rlat)
            for (unsigned wl : (wlat.empty() ? std::vector<unsigned>{rl} : wlat))
                for (unsigned s : seg)
                    for (unsigned e : entries) {
                        Point p{e, s, rl, wl, sc};
                        Result r = run_point(p, seed);
                        printf("%u,%u,%u,%u,%u,%s,%llu,%.2f,%llu,%u,%u,%u,%u,%u,%u,%u,%s\n", DATA_WIDTH, e, s, rl,
                               wl, sc ? "scattered" : "b2b", (unsigned long long)r.cycles,
                               r.ok ? double(r.cycles) / e : 0.0, (unsigned long long)r.last_data_w, r.desc_ars,
                               r.desc_ar_wasted, r.data_ars, r.data_aws, r.max_desc_ar_out, r.max_data_ar_out,
                               r.max_data_aw_out, r.ok ? "ok" : r.err.c_str());
                        fflush(stdout);
                        if (!r.ok) ++fails;
                    }
    return fails ? 1 : 0;
}
