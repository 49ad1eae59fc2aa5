// submission_port.cc - see submission_port.h.
#include "submission_port.h"

#include <dmasim/model/device_port.h>
#include <fmt/format.h>

#include "scoreboard.h"

namespace dmasim::tb {

void Testbench::Port::add(Reaped& reaped, const Transfer& t, uint64_t done) {
    reaped.descriptors += done;
    if (!t.measured_) return;
    reaped.for_measured = true;
    reaped.measured_descriptors += done;
}

// ---- START ------------------------------------------------------------------

int Testbench::StartPort::submit(Transfer& t) {
    bench_.inject_translation_fault(t);
    bench_.note_device_start(t);
    t.stats_at_start_ = bench_.platform_.channel_stats(channel_);
    // Active before the submit's register writes, during which the handler
    // may run: whatever it completes from START on is this transfer.
    active_ = &t;
    return dmasim_xfer_submit(&bench_.dd_.chan[channel_], t.xfer_);
}

std::string Testbench::StartPort::submit_error(const Transfer& t, int err) const {
    (void)t;
    if (bench_.dd_.tail_pointer)
        return "ScenarioBench::start: the controller runs its channels to TAIL (dma.submission: "
               "tail_pointer): open_ring() on the channel first";
    if (err == -EBUSY) return fmt::format("ScenarioBench::start: channel {} is busy", channel_);
    return fmt::format(
        "ScenarioBench::start: a request prepared for a ring cannot START on channel {} "
        "(error {})",
        channel_, err);
}

void Testbench::StartPort::await(Transfer& t) {
    dmasim_xfer_wait(&bench_.dd_.chan[channel_]);
    // The driver reads STATUS once it takes the transfer as done: a
    // channel still BUSY then was completed early (a stale interrupt).
    bench_.expect(!(t.status() & DMA_STATUS_BUSY), [&] {
        return fmt::format("transfer on channel {} taken as done while its STATUS ({:#x}) is BUSY",
                           channel_, t.status());
    });
}

void Testbench::StartPort::take(Transfer& t) {
    active_ = nullptr;
    if (t.xfer_->spec.dir != DMA_HW_MEM_TO_MEM)
        --bench_.device_in_flight_[t.xfer_->spec.dir == DMA_HW_MEM_TO_DEV];
}

Transfer* Testbench::StartPort::oldest() const { return active_; }

const Transfer* Testbench::StartPort::unreaped() const {
    return active_ && !active_->completed_ ? active_ : nullptr;
}

void Testbench::StartPort::interrupt(bool acknowledged, bool completed, Reaped& reaped,
                                     std::vector<Transfer*>& done) {
    Transfer* t = active_;
    if (!t || !acknowledged) return;
    const uint64_t descriptors =
        bench_.platform_.channel_stats(channel_).descriptors - t->stats_at_start_.descriptors;
    add(reaped, *t, descriptors - t->descs_reaped_);
    t->descs_reaped_ = descriptors;
    // The handler's register accesses let the scenario run, so a waiter may
    // have consumed its completion already: the seq tells t from a
    // transfer completed earlier on the channel.
    if (completed && !t->completed_ && bench_.dd_.chan[channel_].completed_seq == t->xfer_->seq)
        done.push_back(t);
}

bool Testbench::StartPort::poll_found() { return dmasim_chan_poll(&bench_.dd_.chan[channel_]); }

void Testbench::StartPort::count(const Transfer& t, Window& counts) const {
    const model::ChannelStats& now = bench_.platform_.channel_stats(channel_);
    counts.descriptors += now.descriptors - t.stats_at_start_.descriptors;
    counts.chain_links += now.chain_links - t.stats_at_start_.chain_links;
    counts.descriptor_bytes_fetched +=
        now.descriptor_bytes_fetched - t.stats_at_start_.descriptor_bytes_fetched;
}

// ---- Descriptor ring ----------------------------------------------------------

Testbench::RingPort::RingPort(Testbench& bench, unsigned channel, dmasim_ring* ring)
    : Port(bench, channel, true), ring_(ring), at_open_(bench.platform_.channel_stats(channel)) {
    const model::DevicePort& device = bench.platform_.device();
    device_pos_ = ring->spec.dir == DMA_HW_MEM_TO_DEV ? device.consumed() : device.produced();
    device_digest_ = device.sink_digest();
}

Testbench::RingPort::~RingPort() { dmasim_ring_free(&bench_.dd_, ring_); }

// A ring's requests move through the device one after another, so each
// dev_to_mem request's share of the stream is known at submission; a
// mem_to_dev ring's whole stream is checked when it closes.
int Testbench::RingPort::submit(Transfer& t) {
    t.xfer_->context = &t;
    if (const int err = dmasim_ring_submit(ring_, t.xfer_)) return err;
    if (t.xfer_->spec.dir == DMA_HW_DEV_TO_MEM) t.device_pos_ = device_pos_;
    device_pos_ += t.xfer_->bytes;
    if (t.xfer_->spec.dir == DMA_HW_MEM_TO_DEV && bench_.payload_checked())
        device_digest_ = Scoreboard::digest(t.xfer_->src, device_digest_);
    return 0;
}

std::string Testbench::RingPort::submit_error(const Transfer& t, int err) const {
    if (err == -EINVAL)
        return fmt::format(
            "ScenarioBench::submit: the request was prepared before channel {} had its "
            "ring, or for another direction",
            channel_);
    return fmt::format("a request of {} descriptors cannot go in a ring of {} slots (error {})",
                       dmasim_described_list(t.xfer_)->nents, ring_->slots, err);
}

void Testbench::RingPort::take(Transfer& t) {
    // The driver's ring hands its requests back oldest first.
    bench_.expect(dmasim_ring_pop(ring_) == t.xfer_, [&] {
        return fmt::format(
            "ScenarioBench::wait: the requests of channel {}'s ring are waited oldest first",
            channel_);
    });
    --handed_;
}

Transfer* Testbench::RingPort::oldest() const {
    const dmasim_xfer* x = dmasim_ring_peek(ring_, 0);
    return x ? static_cast<Transfer*>(x->context) : nullptr;
}

// In the ring from the driver's queueing on; pending() counts it as work
// only once its TAIL write is done, as a START.
const Transfer* Testbench::RingPort::unreaped() const {
    const dmasim_xfer* x = dmasim_ring_peek(ring_, handed_);
    return x ? static_cast<const Transfer*>(x->context) : nullptr;
}

// A ring's requests complete in order, reaped by the status words the
// hardware writes back into their descriptors (dmasim_ring_reap()).
void Testbench::RingPort::interrupt(bool, bool completed, Reaped& reaped,
                                    std::vector<Transfer*>& done) {
    // A stopping ring is done with: close() frees it once woken.
    if (!completed || ring_->stopping) return;
    dmasim_ring_reap(ring_);
    while (dmasim_xfer* x = dmasim_ring_peek(ring_, handed_)) {
        if (x->status == DMA_STATUS_BUSY) break;
        Transfer* t = static_cast<Transfer*>(x->context);
        done.push_back(t);
        add(reaped, *t, x->descs_done);
        reaped.by_ring_reads = true;
        ++handed_;
    }
}

void Testbench::RingPort::count(const Transfer& t, Window& counts) const {
    // Fetches and links are the ring's, counted when it closes.
    counts.descriptors += t.descs_done();
}

void Testbench::RingPort::close(Window& counts) {
    if (const int err = dmasim_ring_stop(ring_))
        bench_.stop_scenario(
            false, fmt::format("ScenarioBench::close_ring: channel {} {}", channel_,
                               err == -EBUSY ? "has requests in its ring" : "did not stop"));
    const model::ChannelStats& now = bench_.platform_.channel_stats(channel_);
    counts.chain_links += now.chain_links - at_open_.chain_links;
    counts.descriptor_bytes_fetched +=
        now.descriptor_bytes_fetched - at_open_.descriptor_bytes_fetched;
    const model::DevicePort& device = bench_.platform_.device();
    if (ring_->spec.dir == DMA_HW_MEM_TO_DEV && bench_.payload_checked())
        bench_.expect(device.sink_digest() == device_digest_, [&] {
            return fmt::format(
                "the device received a stream whose FNV-1a digest {:#x} "
                "differs from the ring's requests' sources' {:#x}",
                device.sink_digest(), device_digest_);
        });
}

}  // namespace dmasim::tb
