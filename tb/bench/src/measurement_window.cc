// measurement_window.cc - see measurement_window.h.
#include "measurement_window.h"

#include <dmasim/driver/dmasim_dma.h>
#include <dmasim/model/clock.h>

namespace dmasim::tb {

model::BusBusy MeasurementWindow::bus_busy_before(sc_core::sc_time at) const {
    return platform_.bus_busy_before(platform_.clock().cycle_at_or_after(at));
}

void MeasurementWindow::open(const Transfer& t, const CpuTally& tally) {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (t.measured_ && (!first_start_ || now < *first_start_)) {
        first_start_ = now;
        bus_at_first_start_ = bus_busy_before(now);
        tally_at_first_start_ = tally;
    }
}

void MeasurementWindow::stamp(Transfer& t, sc_core::sc_time done_at, const CpuTally& tally) const {
    t.completed_at_ = done_at;
    t.cpu_at_completion_ = tally;
    // Taken now, while every booking before `done_at` is still exact.
    t.bus_at_completion_ = bus_busy_before(done_at);
}

void MeasurementWindow::add(const Transfer& t) {
    counts_.bytes += t.bytes_done();
    if (t.xfer_->spec.dir != DMA_HW_DEV_TO_MEM) counts_.bytes_read += t.bytes_done();
    if (t.xfer_->spec.dir != DMA_HW_MEM_TO_DEV) counts_.bytes_written += t.bytes_done();
    if (!last_completion_ || t.completed_at_ > *last_completion_) {
        last_completion_ = t.completed_at_;
        bus_at_last_completion_ = t.bus_at_completion_;
        tally_at_last_completion_ = t.cpu_at_completion_;
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
    w.busy = {bus_at_last_completion_.read - bus_at_first_start_.read,
              bus_at_last_completion_.write - bus_at_first_start_.write};
    return w;
}

}  // namespace dmasim::tb
