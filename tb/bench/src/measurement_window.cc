// measurement_window.cc - see measurement_window.h.
#include "measurement_window.h"

#include <dmasim/driver/dmasim_dma.h>
#include <dmasim/model/clock.h>

namespace dmasim::tb {

model::Platform::BusMark MeasurementWindow::mark_bus(sc_core::sc_time at) {
    return platform_.mark_bus(platform_.clock().cycle_at_or_after(at));
}

model::Platform::BusHold MeasurementWindow::hold_from(sc_core::sc_time began) {
    return {platform_, platform_.clock().cycle_at_or_after(began)};
}

void MeasurementWindow::open(const Transfer& t, const CpuTally& tally) {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (t.measured_ && (!first_start_ || now < *first_start_)) {
        if (first_start_) platform_.unmark_bus(bus_at_first_start_);
        first_start_ = now;
        bus_at_first_start_ = mark_bus(now);
        tally_at_first_start_ = tally;
    }
}

void MeasurementWindow::stamp(Transfer& t, sc_core::sc_time done_at, const CpuTally& tally) {
    t.completed_at_ = done_at;
    t.cpu_at_completion_ = tally;
    // The caller's hold_from() its work's start lets a mark go at `done_at`.
    if (t.measured_) t.bus_at_completion_ = mark_bus(done_at);
}

void MeasurementWindow::add(const Transfer& t) {
    counts_.bytes += t.bytes_done();
    if (t.xfer_->spec.dir != DMA_HW_DEV_TO_MEM) counts_.bytes_read += t.bytes_done();
    if (t.xfer_->spec.dir != DMA_HW_MEM_TO_DEV) counts_.bytes_written += t.bytes_done();
    if (!last_completion_ || t.completed_at_ > *last_completion_) {
        if (last_completion_) platform_.unmark_bus(bus_at_last_completion_);
        last_completion_ = t.completed_at_;
        bus_at_last_completion_ = t.bus_at_completion_;
        tally_at_last_completion_ = t.cpu_at_completion_;
    } else {
        platform_.unmark_bus(t.bus_at_completion_);
    }
}

std::optional<Window> MeasurementWindow::measured() const {
    if (!first_start_ || !last_completion_) return std::nullopt;
    Window w = counts_;
    w.first_start = *first_start_;
    w.last_completion = *last_completion_;
    w.interrupts = tally_at_last_completion_.interrupts - tally_at_first_start_.interrupts;
    w.polls = tally_at_last_completion_.polls - tally_at_first_start_.polls;
    w.cpu_busy_cycles = tally_at_last_completion_.busy_cycles - tally_at_first_start_.busy_cycles;
    const model::BusBusy open = platform_.bus_busy_before(bus_at_first_start_);
    const model::BusBusy close = platform_.bus_busy_before(bus_at_last_completion_);
    w.busy = {close.read - open.read, close.write - open.write};
    return w;
}

}  // namespace dmasim::tb
