// dma_controller.cc - register access, the planning engine and interrupts.
#include <dmasim/model/dma_controller.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "bus_port.h"
#include "dma_channel.h"
#include "dma_registers.h"
#include "iommu.h"

namespace dmasim::model {

namespace {
void check_params(const DmaParams& p, const BusParams& bus, const IommuParams& iommu) {
    std::vector<ParamProblem> problems = validate(p, bus, iommu);
    if (!problems.empty()) throw std::invalid_argument(problems.front().message);
}
}  // namespace

DmaController::DmaController(sc_core::sc_module_name name, const DmaParams& params,
                             const BusParams& bus, uint64_t quantum_cycles, const Clock& clock,
                             StreamDevice& device, const IommuParams& iommu)
    : sc_module(name),
      regs("regs"),
      master("master"),
      irq("irq"),
      busy("busy", params.channels),
      params_(params),
      mmio_latency_(bus.mmio_latency_cycles),
      quantum_(std::max<uint64_t>(1, quantum_cycles)),
      window_(quantum_),
      clock_(clock),
      bus_(std::make_unique<BusPort>(master, clock, bus)) {
    check_params(params, bus, iommu);
    iommu_ = std::make_unique<Iommu>(iommu, *bus_);
    for (unsigned i = 0; i < params.channels; ++i)
        channels_.push_back(
            std::make_unique<DmaChannel>(i, params_, *bus_, *iommu_, device, &trace_));
    master.register_invalidate_direct_mem_ptr(this, &DmaController::invalidate_dmi);
    regs.register_b_transport(this, &DmaController::b_transport);
    regs.register_transport_dbg(this, &DmaController::transport_dbg);
    SC_THREAD(engine);
}

DmaController::~DmaController() = default;

bool DmaController::any_busy() const {
    for (const auto& c : channels_)
        if (c->status & DMA_STATUS_BUSY) return true;
    return false;
}

// A channel started later asks from its START on, which is no earlier
// than now.
template <typename Floor>
uint64_t DmaController::earliest(Floor floor) const {
    uint64_t earliest = clock_.now();
    for (const auto& c : channels_) earliest = std::min(earliest, floor(*c));
    return earliest;
}

uint64_t DmaController::earliest_request() const {
    return earliest([](const DmaChannel& c) { return c.earliest_request(); });
}

uint64_t DmaController::earliest_stream_request(bool source) const {
    return earliest([source](const DmaChannel& c) { return c.earliest_stream_request(source); });
}

void DmaController::reset_stats() {
    for (auto& c : channels_) c->reset_stats();
    iommu_->reset_stats();
}

const IommuStats& DmaController::iommu_stats() const { return iommu_->stats(); }

const ChannelStats& DmaController::channel_stats(unsigned i) const { return channels_[i]->stats(); }

const CycleTimeline& DmaController::channel_timeline(unsigned i) const {
    return channels_[i]->timeline();
}

// ---- bus master side ---------------------------------------------------

void DmaController::invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end) {
    bus_->invalidate(start, end);
}

// ---- registers -----------------------------------------------------------

const RegisterInfo* DmaController::find_register(uint32_t offset, unsigned* channel) const {
    bool in_channels = offset >= DMA_CH_BASE(0) && offset < DMA_CH_BASE(channels());
    *channel = in_channels ? (offset - DMA_CH_BASE(0)) / (DMA_CH_BASE(1) - DMA_CH_BASE(0)) : 0;
    uint32_t rel = in_channels ? offset - DMA_CH_BASE(*channel) : offset;
    for (const RegisterInfo& r : register_table())
        if (r.per_channel == in_channels && r.offset == rel && (!r.iommu || iommu_->present()))
            return &r;
    return nullptr;
}

uint32_t DmaController::caps() const {
    return channels() | DMA_CAPS_CHAINED_PAGES | DMA_CAPS_LINKED_LIST |
           (params_.descriptor_bytes << DMA_CAPS_DESC_SIZE_SHIFT) |
           (static_cast<uint32_t>(params_.status_writeback) << DMA_CAPS_WRITEBACK_SHIFT) |
           (iommu_->present() ? DMA_CAPS_IOMMU : 0) |
           (params_.descriptor_next == DescriptorNext::in_slot ? DMA_CAPS_NEXT_IN_SLOT : 0) |
           (params_.descriptor_app_words << DMA_CAPS_APP_WORDS_SHIFT) |
           (params_.submission == Submission::tail_pointer ? DMA_CAPS_TAIL_POINTER : 0);
}

// START on an idle channel begins a walk; ABORT on a busy one stops it.
// Both take effect at the cycle the write arrives.
void DmaController::write_ctrl(DmaChannel& c, uint32_t value, uint64_t cycle) {
    bool busy = c.status & DMA_STATUS_BUSY;
    if (!busy) c.ctrl = value & (DMA_CTRL_IRQ_EN | DMA_CTRL_DIR_MASK | DMA_CTRL_FORMAT_MASK);
    if (busy && (value & DMA_CTRL_ABORT)) {
        c.abort(cycle);
    } else if (!busy && (value & DMA_CTRL_START)) {
        bus_->connect();
        c.start(cycle);
        activity_.notify(sc_core::SC_ZERO_TIME);
    }
}

bool DmaController::access(tlm::tlm_generic_payload& trans, uint64_t cycle) {
    uint64_t offset = trans.get_address();
    if (trans.get_data_length() != 4 || (offset & 3) != 0 || trans.get_byte_enable_ptr()) {
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return false;
    }
    unsigned ch = 0;
    const RegisterInfo* r = find_register(static_cast<uint32_t>(offset), &ch);
    if (r == nullptr) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return false;
    }
    uint32_t value = 0;
    if (trans.is_read()) {
        // The CPU sees the system as of this cycle: every channel's
        // counters, and the status words written back to memory by then.
        for (const auto& c : channels_) c->settle(cycle);
        value = r->read(*this, *channels_[ch]);
        std::memcpy(trans.get_data_ptr(), &value, 4);
    } else {
        std::memcpy(&value, trans.get_data_ptr(), 4);
        if (r->write) r->write(*this, *channels_[ch], value, cycle);
        // Software is active: plan only a little ahead, so a channel it
        // starts next does not queue behind a whole quantum of another's
        // bursts.
        window_ = std::max(1u, mmio_latency_);
        wake_.notify(sc_core::SC_ZERO_TIME);  // the engine drives irq and busy
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
}

void DmaController::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    delay += clock_.period() * static_cast<double>(mmio_latency_);
    access(trans, clock_.cycle_at_or_after(sc_core::sc_time_stamp() + delay));
}

unsigned DmaController::transport_dbg(tlm::tlm_generic_payload& trans) {
    // Debug access may read registers but never starts or stops anything.
    if (!trans.is_read()) return 0;
    return access(trans, clock_.now()) ? 4 : 0;
}

// Only the engine thread drives the outputs (a signal allows one writer).
void DmaController::update_signals() {
    bool level = (irq_status_ & irq_mask_) != 0;
    if (irq.read() != level) irq.write(level);
    for (unsigned i = 0; i < channels(); ++i) {
        bool on = channels_[i]->status & DMA_STATUS_BUSY;
        if (busy[i].size() && busy[i]->read() != on) busy[i]->write(on);
    }
}

// ---- engine ----------------------------------------------------------------

void DmaController::retire_events(uint64_t now) {
    for (unsigned i = 0; i < channels(); ++i) {
        DmaChannel& c = *channels_[i];
        for (;;) {
            DmaChannel::Event e = c.take_event(now);
            if (e == DmaChannel::Event::none) break;
            if (e == DmaChannel::Event::stop && c.error() == DMA_ERR_TRANSLATION)
                iommu_->fault_iova = c.translation_fault;
            if (e == DmaChannel::Event::irq) {
                irq_status_ |= 1u << i;
                c.tracks().instant(TraceTrack::irq, "irq", now);
            }
        }
    }
    update_signals();
}

// Plans the channel furthest behind first, one read burst at a time when
// several channels compete, so they share the bus fairly; among equals the
// round-robin pointer decides.
// (This runs once per descriptor: indices wrap by comparison, not division.)
void DmaController::plan_until(uint64_t horizon) {
    const unsigned n = channels();
    uint64_t step = n > 1 ? 1 : DmaChannel::kNever;
    for (;;) {
        unsigned pick = n;
        uint64_t best = DmaChannel::kNever;
        for (unsigned k = 0, i = rr_next_; k < n; ++k, i = i + 1 == n ? 0 : i + 1) {
            uint64_t f = channels_[i]->frontier();
            if (f <= horizon && f < best) {
                best = f;
                pick = i;
            }
        }
        if (pick == n) return;
        channels_[pick]->plan(horizon, step);
        rr_next_ = pick + 1 == n ? 0 : pick + 1;
    }
}

// The next cycle the engine must run: a status event, or the point where
// a channel's next burst enters the planning window. Never before
// `horizon`, the cycle already planned to, unless an event is due.
uint64_t DmaController::next_wakeup(uint64_t horizon) const {
    uint64_t next = DmaChannel::kNever;
    for (const auto& c : channels_) {
        next = std::min(next, c->next_event());
        uint64_t f = c->frontier();
        if (f == DmaChannel::kNever) continue;
        next = std::min(next, std::max(horizon, f > window_ ? f - window_ : 0));
    }
    return next;
}

void DmaController::engine() {
    for (;;) {
        uint64_t now = clock_.now();
        retire_events(now);
        uint64_t horizon = now + window_;
        plan_until(horizon);
        window_ = std::min(quantum_, 2 * window_);
        uint64_t next = next_wakeup(horizon);
        if (next <= now) continue;
        if (next == DmaChannel::kNever)
            sc_core::wait(wake_);
        else
            sc_core::wait(clock_.at(next) - sc_core::sc_time_stamp(), wake_);
    }
}

}  // namespace dmasim::model
