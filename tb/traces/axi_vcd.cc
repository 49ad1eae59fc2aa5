// axi_vcd.cc - see axi_vcd.h.
//
// A port's address channel presents its bursts in the order the memory
// accepts them (AXI's in-order handshake): burst i's valid rises at its
// request, or the cycle after burst i-1's handshake if that is later, and
// falls after its own handshake, the one cycle its ready is high. Its beats
// hold the data channel's valid (and a write's ready) for [data, data_end),
// last on the final cycle; a write's response is one cycle of bvalid. The
// master never stalls R or B, so rready and bready stay high.
//
// Bursts arrive in planning order, which runs ahead of SystemC time and
// only a little behind it. So at a cycle H far enough behind SystemC time
// every burst accepted before H is known and its order settled, and
// nothing still to come starts before H or before the earliest request of
// a burst not yet placed: changes before that cycle are final and are
// written, the rest wait. A burst that still comes too late is shown from
// the first cycle not yet written, and cap_note() says how many did.
#include "axi_vcd.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace dmasim::tb {
namespace {

struct SignalDef {
    const char* name;
    unsigned width;
};
constexpr SignalDef kSignalDefs[AxiVcd::kSignals] = {
    {"arvalid", 1}, {"arready", 1}, {"araddr", 64}, {"arlen", 32},  {"rvalid", 1}, {"rready", 1},
    {"rlast", 1},   {"awvalid", 1}, {"awready", 1}, {"awaddr", 64}, {"awlen", 32}, {"wvalid", 1},
    {"wready", 1},  {"wlast", 1},   {"bvalid", 1},  {"bready", 1}};

// Bursts between two flushes: often enough to keep the waiting changes
// few, rarely enough to cost nothing per burst.
constexpr uint64_t kBurstsPerFlush = 1024;
// The model plans a little behind SystemC time as well as ahead of it: a
// burst may ask for a cycle already past. Only cycles this far behind (or
// twice the furthest behind seen, if more) are taken as settled; what
// waits meanwhile is what the bus moves in that many cycles.
constexpr uint64_t kMinLagCycles = 1u << 16;

// VCD identifiers: base 94 over the printable characters '!' to '~'.
std::string identifier(unsigned index) {
    std::string id;
    do {
        id += static_cast<char>('!' + index % 94);
        index /= 94;
    } while (index);
    return id;
}

std::string binary(uint64_t v) {
    std::string bits;
    do {
        bits += static_cast<char>('0' + (v & 1));
        v >>= 1;
    } while (v);
    std::reverse(bits.begin(), bits.end());
    return bits;
}

}  // namespace

AxiVcd::AxiVcd(const std::string& path, const model::Clock& clock, unsigned channels,
               uint64_t max_bytes)
    : file_(path),
      clock_(clock),
      period_ps_(static_cast<uint64_t>(std::llround(clock.period().to_seconds() * 1e12))),
      max_bytes_(output_target(path).in_place ? UINT64_MAX : max_bytes),
      lanes_(2 * channels),
      level_(channels * kSignals, 0),
      shown_(channels * kSignals, 0) {
    declare(channels);
}

void AxiVcd::declare(unsigned channels) {
    std::string head = fmt::format(
        "$version dmasim --vcd-axi $end\n$timescale 1ps $end\n"
        "$comment one cycle = {} ps; len = beats - 1 $end\n$scope module dmasim $end\n",
        period_ps_);
    std::string values;
    for (unsigned ch = 0; ch < channels; ++ch) {
        head += fmt::format("$scope module ch{} $end\n", ch);
        for (unsigned s = 0; s < kSignals; ++s) {
            const unsigned i = ch * kSignals + s;
            const SignalDef& def = kSignalDefs[s];
            ids_.push_back(identifier(i));
            head += def.width == 1 ? fmt::format("$var wire 1 {} {} $end\n", ids_[i], def.name)
                                   : fmt::format("$var wire {} {} {} [{}:0] $end\n", def.width,
                                                 ids_[i], def.name, def.width - 1);
            if (s == rready || s == bready) level_[i] = shown_[i] = 1;
            values += def.width == 1 ? fmt::format("{}{}\n", shown_[i], ids_[i])
                                     : fmt::format("b0 {}\n", ids_[i]);
        }
        head += "$upscope $end\n";
    }
    emit(head + "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n" + values + "$end\n");
}

void AxiVcd::emit(const std::string& text) {
    file_.write(text);
    written_bytes_ += text.size();
}

void AxiVcd::port_burst(unsigned channel, const model::PortBurst& burst) {
    if (capped_at_) return;
    lanes_[2 * channel + burst.write].waiting.push_back(burst);
    const uint64_t now = clock_.cycle_of(sc_core::sc_time_stamp());
    if (burst.request < now) max_lag_ = std::max(max_lag_, now - burst.request);
    if (++arrivals_ % kBurstsPerFlush != 0) return;
    const uint64_t lag = std::max(kMinLagCycles, 2 * max_lag_);
    if (now > lag) flush(now - lag);
}

// A late burst's changes move to the first cycle not yet written, so the
// file stays in time order (cap_note() says so).
void AxiVcd::change(uint64_t at, unsigned channel, Signal s, int64_t value) {
    changes_.push({std::max(at, written_until_), channel * kSignals + s, value});
}

void AxiVcd::place_burst(unsigned channel, Lane& lane, const model::PortBurst& b) {
    if (b.request < written_until_) ++late_;
    const uint64_t shown = std::max(b.request, lane.any ? lane.last_accepted + 1 : 0);
    lane.last_accepted = b.accepted;
    lane.any = true;
    const bool w = b.write;
    change(shown, channel, w ? awaddr : araddr, static_cast<int64_t>(b.address));
    change(shown, channel, w ? awlen : arlen, static_cast<int64_t>(b.beats - 1));
    change(shown, channel, w ? awvalid : arvalid, +1);
    change(b.accepted + 1, channel, w ? awvalid : arvalid, -1);
    change(b.accepted, channel, w ? awready : arready, +1);
    change(b.accepted + 1, channel, w ? awready : arready, -1);
    change(b.data, channel, w ? wvalid : rvalid, +1);
    change(b.data_end, channel, w ? wvalid : rvalid, -1);
    if (w) {  // the memory takes each write beat as it comes
        change(b.data, channel, wready, +1);
        change(b.data_end, channel, wready, -1);
    }
    change(b.data_end - 1, channel, w ? wlast : rlast, +1);
    change(b.data_end, channel, w ? wlast : rlast, -1);
    if (w) {
        change(b.response, channel, bvalid, +1);
        change(b.response + 1, channel, bvalid, -1);
    }
}

// Places the lane's bursts accepted before `horizon`, in acceptance order.
void AxiVcd::place(unsigned channel, Lane& lane, uint64_t horizon) {
    std::vector<model::PortBurst>& w = lane.waiting;
    std::sort(w.begin(), w.end(), [](const model::PortBurst& a, const model::PortBurst& b) {
        return a.accepted < b.accepted;
    });
    size_t n = 0;
    for (; n < w.size() && w[n].accepted < horizon; ++n) place_burst(channel, lane, w[n]);
    w.erase(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(n));
}

void AxiVcd::flush(uint64_t horizon) {
    uint64_t until = horizon;
    for (size_t i = 0; i < lanes_.size(); ++i) {
        place(static_cast<unsigned>(i / 2), lanes_[i], horizon);
        for (const model::PortBurst& b : lanes_[i].waiting) until = std::min(until, b.request);
    }
    write_until(until);
}

// Writes the changes before cycle `until`, one time step per cycle that
// changes a shown value.
void AxiVcd::write_until(uint64_t until) {
    std::vector<unsigned> touched;
    while (!changes_.empty() && changes_.top().at < until && !capped_at_) {
        const uint64_t at = changes_.top().at;
        touched.clear();
        for (; !changes_.empty() && changes_.top().at == at; changes_.pop()) {
            const Change& c = changes_.top();
            const bool bus = kSignalDefs[c.signal % kSignals].width > 1;
            level_[c.signal] = bus ? c.value : level_[c.signal] + c.value;
            touched.push_back(c.signal);
        }
        std::string step;
        for (unsigned i : touched) {
            const bool bus = kSignalDefs[i % kSignals].width > 1;
            const int64_t value = bus ? level_[i] : level_[i] > 0;
            if (value == shown_[i]) continue;
            shown_[i] = value;
            step += bus ? fmt::format("b{} {}\n", binary(static_cast<uint64_t>(value)), ids_[i])
                        : fmt::format("{}{}\n", value, ids_[i]);
        }
        if (step.empty()) continue;
        emit(fmt::format("#{}\n", at * period_ps_) + step);
        if (written_bytes_ >= max_bytes_) capped_at_ = at;
    }
    written_until_ = std::max(written_until_, until);
}

std::string AxiVcd::finish() {
    if (!capped_at_) flush(UINT64_MAX);
    return file_.commit();
}

std::string AxiVcd::cap_note() const {
    std::string note;
    if (capped_at_)
        note = fmt::format(
            "the AXI VCD reached its size cap ({} MiB, --trace-max-mib) and ends at cycle {}",
            max_bytes_ >> 20, capped_at_);
    if (late_)
        note += fmt::format(
            "{}{} bursts of the AXI VCD came after their cycle was written and "
            "are shown late",
            note.empty() ? "" : "; ", late_);
    return note;
}

}  // namespace dmasim::tb
