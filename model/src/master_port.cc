// master_port.cc - translation, page splitting, the descriptor port and
// fault classification of a channel's accesses.
#include "master_port.h"

#include <algorithm>
#include <cstring>

namespace dmasim::model {

namespace {

PortAccess ended(uint64_t issue, const BusAccess& r, Carries what) {
    const dma_hw_error error = r.fault == BusFault::none
                                   ? DMA_ERR_NONE
                                   : BusPort::error_of(r.fault, what == Carries::descriptor);
    return {issue, r.data, r.done, error, 0, r.dram_wait};
}

}  // namespace

MasterPort::MasterPort(const DmaParams& params, BusPort& bus, Iommu& iommu,
                       const ChannelTracks& tracks)
    : bus_(bus),
      iommu_(iommu),
      tracks_(tracks),
      descriptor_port_(params, bus.width),
      word_fetch_(params.descriptor_fetch == DescriptorFetch::word) {}

PortAccess MasterPort::failed(uint64_t at, dma_hw_error error, uint64_t iova) {
    return {at, at, at, error, iova};
}

// An untranslated access is one piece; an IOVA's pages follow one another,
// each translated once the previous one is done.
template <typename Access>
PortAccess MasterPort::paged(uint64_t t, uint64_t addr, uint64_t bytes, bool write, Carries what,
                             Access access) {
    if (!translating_ && bytes > 0) {  // one piece: no loop, no translation
        const PortAccess ready = reach(t, addr, bytes, write, what);
        return ready.error != DMA_ERR_NONE ? ready : access(ready.done, addr, 0, bytes);
    }
    PortAccess last{t, t, t};
    for (uint64_t off = 0; off < bytes;) {
        const uint64_t piece = page_piece(addr + off, bytes - off);
        uint64_t phys = 0;
        const PortAccess ready = place(last.done, addr + off, piece, write, what, &phys);
        if (ready.error != DMA_ERR_NONE) return ready;
        last = access(ready.done, phys, off, piece);
        if (last.error != DMA_ERR_NONE) return last;
        off += piece;
    }
    return last;
}

PortAccess MasterPort::read(uint64_t t, uint64_t addr, uint64_t bytes, uint8_t* into,
                            Carries what) {
    return paged(t, addr, bytes, false, what,
                 [&](uint64_t issue, uint64_t phys, uint64_t off, uint64_t piece) {
                     return read_piece(issue, phys, piece, into ? into + off : nullptr, what);
                 });
}

PortAccess MasterPort::write(uint64_t t, uint64_t addr, uint64_t bytes, const uint8_t* from,
                             Carries what, WriteGate* gate) {
    return write_pieces(t, addr, bytes, from, what, gate, nullptr);
}

PortAccess MasterPort::post(uint64_t t, uint64_t addr, uint64_t bytes, const uint8_t* from,
                            Carries what, PostedWrites& later) {
    return write_pieces(t, addr, bytes, from, what, nullptr, &later);
}

PortAccess MasterPort::write_pieces(uint64_t t, uint64_t addr, uint64_t bytes, const uint8_t* from,
                                    Carries what, WriteGate* gate, PostedWrites* later) {
    PortAccess last = paged(t, addr, bytes, true, what,
                            [&](uint64_t issue, uint64_t phys, uint64_t off, uint64_t piece) {
                                if (gate) gate->before_write(issue);
                                const uint8_t* bytes_at = from ? from + off : nullptr;
                                if (later && bytes_at && bus_.fast()) {
                                    later->add(bus_.host(phys), bytes_at, piece);
                                    bytes_at = nullptr;
                                }
                                return ended(issue, bus_write(issue, phys, piece, bytes_at), what);
                            });
    // A narrower descriptor port delivers the whole access in more beats.
    if (what == Carries::descriptor) last.done += descriptor_port_.write_extra(addr, bytes);
    return last;
}

PortAccess MasterPort::check(uint64_t t, uint64_t addr, uint64_t bytes, bool write, Carries what) {
    if (translating_) return {t, t, t};
    return reach(t, addr, bytes, write, what);
}

PortAccess MasterPort::place(uint64_t t, uint64_t addr, uint64_t bytes, bool write, Carries what,
                             uint64_t* phys) {
    *phys = addr;
    if (translating_) {
        const Iommu::Translation tr = iommu_.translate(addr, write, t, tracks_);
        if (tr.error != DMA_ERR_NONE) return failed(tr.ready, tr.error, addr);
        *phys = tr.phys;
        t = tr.ready;
    }
    return reach(t, *phys, bytes, write, what);
}

// A bus address outside the DMI region is never accessed: a probe of its
// first byte out tells an address error from another bus error.
PortAccess MasterPort::out_of_reach(uint64_t t, uint64_t phys, bool write, Carries what) {
    uint64_t cycles = 0;
    const dma_hw_error error = bus_.classify(phys, write, what == Carries::descriptor, &cycles);
    return failed(t + cycles, error);
}

BusAccess MasterPort::bus_read(uint64_t t, uint64_t addr, uint64_t bytes, uint8_t* into) {
    const BusAccess r = bus_.read(t, addr, bytes, into);
    if (tracks_.on() && bus_.fast() && !bus_.over_link())
        tracks_.port_burst(bus_.handshakes(false, t, addr, bytes, r));
    return r;
}

BusAccess MasterPort::bus_write(uint64_t t, uint64_t addr, uint64_t bytes, const uint8_t* from) {
    const BusAccess w = bus_.write(t, addr, bytes, from);
    if (tracks_.on() && bus_.fast() && !bus_.over_link())
        tracks_.port_burst(bus_.handshakes(true, t, addr, bytes, w));
    return w;
}

// A descriptor burst's last byte still has to cross the descriptor port.
PortAccess MasterPort::read_piece(uint64_t t, uint64_t addr, uint64_t bytes, uint8_t* into,
                                  Carries what) {
    if (what == Carries::data) return ended(t, bus_read(t, addr, bytes, into), what);
    if (word_fetch_) return word_reads(t, addr, bytes, into);
    BusAccess r = bus_read(t, addr, bytes, into);
    r.done = descriptor_port_.read_done(addr, bytes, r.data, r.done);
    return ended(t, r, what);
}

// One port word after another, each once the previous one is done.
// dmasim's Memory times whole aligned port words (the bytes are copied at
// once); a foreign target is sent exactly the descriptor's bytes.
PortAccess MasterPort::word_reads(uint64_t t, uint64_t addr, uint64_t bytes, uint8_t* into) {
    const unsigned w = descriptor_port_.width();
    if (bus_.fast() && into) std::memcpy(into, bus_.host(addr), bytes);
    BusAccess r{t, t};
    for (uint64_t off = 0; off < bytes && r.fault == BusFault::none; off += w) {
        if (bus_.fast())
            r = bus_read(r.done, addr / w * w + off, w, nullptr);
        else
            r = bus_read(r.done, addr + off, std::min<uint64_t>(w, bytes - off), into + off);
    }
    return ended(t, r, Carries::descriptor);
}

}  // namespace dmasim::model
