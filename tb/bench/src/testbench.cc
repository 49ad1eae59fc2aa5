// testbench.cc - see testbench.h.
#include "testbench.h"

#include <dmasim/model/clock.h>
#include <dmasim/model/device_port.h>
#include <dmasim/tb/validate.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "completion_path.h"
#include "host_memory.h"
#include "io_bind.h"
#include "submission_port.h"
#include "xfer_spec.h"

namespace dmasim::tb {
namespace {

// Registers sit at DMA_REGS_BASE; the driver learns nothing else up front.
constexpr uint64_t kRegsBase = DMA_REGS_BASE;

std::string errno_text(int err) {
    return err == -ENOMEM ? sim_mem_last_error() : fmt::format("error {}", err);
}

/// Data descriptors the driver wrote for `x` (its mapped segments).
unsigned mapped_descriptors(const dmasim_xfer& x) {
    return x.spec.dir == DMA_HW_DEV_TO_MEM ? x.dst.nents : x.src.nents;
}

/// Bytes of a source slice backed and then filled at once: small enough to
/// stay in the cache between the two.
constexpr uint64_t kSourceSliceBytes = 1ull << 20;

/// Calls visit(slice, offset) on consecutive runs of `sgt`'s entries of
/// about `bytes` each, offset the stream offset of the run's first byte.
template <typename Visit>
void for_each_slice(const sg_table& sgt, uint64_t bytes, Visit visit) {
    scatterlist* first = sgt.sgl;
    scatterlist* sg;
    unsigned int i;
    unsigned entries = 0;
    uint64_t offset = 0, slice_bytes = 0;
    for_each_sgtable_sg(&sgt, sg, i) {
        ++entries;
        slice_bytes += sg->length;
        if (slice_bytes < bytes && i + 1 < sgt.orig_nents) continue;
        const sg_table slice{first, entries, entries};
        visit(slice, offset);
        offset += slice_bytes;
        first = sg_next(sg);
        entries = 0;
        slice_bytes = 0;
    }
}

}  // namespace

// ---- Transfer --------------------------------------------------------------

Transfer::Transfer(dmasim_xfer* x, unsigned channel, const WorkloadConfig& w, uint64_t pattern_base)
    : xfer_(x), channel_(channel), workload_(w), pattern_base_(pattern_base) {}

uint64_t Transfer::bytes() const { return xfer_->bytes; }
uint64_t Transfer::bytes_done() const { return xfer_->bytes_done; }
uint32_t Transfer::descs_done() const { return xfer_->descs_done; }
uint32_t Transfer::status() const { return xfer_->status; }
unsigned Transfer::error() const { return dmasim_status_error(xfer_->status); }

void ScenarioBench::run(Transfer& t) {
    start(t);
    wait(t);
}

// ---- Testbench --------------------------------------------------------------

Testbench::Testbench(sc_core::sc_module_name name, const SimConfig& config,
                     model::Platform& platform, const ScenarioInfo& scenario)
    : sc_module(name),
      config_(config),
      platform_(platform),
      scenario_(scenario),
      cpu_("cpu", platform.irq()),
      scoreboard_(config.workload.seed),
      window_(platform),
      completions_(std::make_unique<CompletionPath>(config, platform, cpu_, dd_, ports_, window_)) {
    for (unsigned ch = 0; ch < DMA_MAX_CHANNELS; ++ch)
        ports_.push_back(std::make_unique<StartPort>(*this, ch));
    sim_device_init(&dma_device_, "dmasim-dma");
    cpu_.socket.bind(platform.cpu_target());
    cpu_.set_irq_handler(
        [this](sc_core::sc_time raised) { return completions_->on_interrupt(raised); });
    // A bus error is reported under the driver's C frames, which are not
    // unwound through: that thread waits for good instead.
    cpu_.set_bus_error_handler([this](const std::string& what) {
        record_stop(false, what);
        wait_forever();
    });
    SC_HAS_PROCESS(Testbench);
    SC_THREAD(scenario_thread);
    if (polling()) SC_THREAD(poll_thread);
}

Testbench::~Testbench() { release_all(); }

void Testbench::poll_thread() { completions_->poll_thread(); }

const model::CycleTimeline& Testbench::host_timeline() const {
    return completions_->host_timeline();
}

void Testbench::scenario_thread() {
    scenario_process_ = sc_core::sc_get_current_process_handle();
    bind_io(&cpu_);
    try {
        attach_iommu();
        if (dmasim_probe(&dd_, kRegsBase, &dma_device_) != 0)
            stop_scenario(false, fmt::format("no DMA controller at {:#x}{}", kRegsBase,
                                             config_.platform.iommu.enabled
                                                 ? ", or one without an IOMMU (CAPS)"
                                                 : ""));
        dmasim_set_polling(&dd_, polling());
        scenario_.run(*this);
        expect_all_waited();
        dmasim_remove(&dd_);
        finished_ = true;
    } catch (const sc_core::sc_unwind_exception&) {
        throw;  // SystemC killing the thread: not the scenario's
    } catch (const ScenarioStopped&) {
        return;  // stop_scenario() released everything and stopped the simulation
    } catch (...) {
        error_ = scenario_error(scenario_.name, std::current_exception());
    }
    release_all();
    sc_core::sc_stop();
}

// What a scenario body threw, as a dmasim error naming the scenario: a
// ConfigError stays one (exit status 2), anything else (even `throw 42`)
// is a simulation error (exit status 1), never SystemC's unknown exception.
std::exception_ptr Testbench::scenario_error(const std::string& scenario,
                                             std::exception_ptr thrown) {
    try {
        std::rethrow_exception(thrown);
    } catch (const ConfigError& e) {
        return std::make_exception_ptr(
            ConfigError(fmt::format("scenario {}: {}", scenario, e.what())));
    } catch (const std::exception& e) {
        return std::make_exception_ptr(
            std::runtime_error(fmt::format("scenario {} threw: {}", scenario, e.what())));
    } catch (...) {
        return std::make_exception_ptr(std::runtime_error(
            fmt::format("scenario {} threw an exception that is not a std::exception", scenario)));
    }
}

void Testbench::attach_iommu() {
    const model::IommuParams& iommu = config_.platform.iommu;
    if (!iommu.enabled) return;
    const IovaWindow w = iova_window(iommu.walk_levels);
    const int err =
        sim_iommu_attach_tables(&dma_device_, w.base, w.size, iommu.walk_levels, iommu.page_bytes);
    if (err != 0)
        stop_scenario(true, fmt::format("iommu.walk_levels = {}, iommu.page_size = {}: cannot "
                                        "attach the IOMMU ({})",
                                        iommu.walk_levels, iommu.page_bytes, errno_text(err)));
}

void Testbench::expect_all_waited() {
    for (const auto& t : transfers_)
        expect(!t->started_ || t->finished_, [&] {
            return fmt::format(
                "scenario {} returned with the transfer on channel {} still running "
                "(start() without wait())",
                scenario_.name, t->channel_);
        });
}

void Testbench::stop_scenario(bool config_error, std::string why) {
    record_stop(config_error, std::move(why));
    // Unwound, not left suspended: a suspended thread's frames are never
    // freed, and LeakSanitizer reports what they hold.
    if (scenario_process_.valid() && sc_core::sc_get_current_process_handle() == scenario_process_)
        throw ScenarioStopped{};
    wait_forever();
}

void Testbench::record_stop(bool config_error, std::string why) {
    stopped_ = Stop{config_error, std::move(why)};
    release_all();
    sc_core::sc_stop();
}

void Testbench::wait_forever() {
    for (;;) sc_core::wait(never_);
}

bool Testbench::finished() const {
    if (stopped_ && stopped_->config_error) throw ConfigError(stopped_->why);
    if (stopped_) throw std::runtime_error(stopped_->why);
    if (error_) std::rethrow_exception(error_);
    return finished_;
}

uint64_t Testbench::memory_bytes() const { return sim_mem_size(); }

uint64_t Testbench::next_pattern_base(uint64_t bytes) {
    // Each transfer continues the pattern where the previous one ended, so
    // no two transfers carry the same bytes.
    const uint64_t base = pattern_pos_;
    pattern_pos_ += bytes;
    return base;
}

std::string Testbench::prep_error(const WorkloadConfig& w, int err) const {
    const model::IommuParams& iommu = config_.platform.iommu;
    // With RAM to spare, an IOMMU mapping failed for want of IOVA space.
    if (iommu.enabled && err == -ENOMEM && *sim_mem_last_error() == '\0') {
        const IovaWindow iova = iova_window(iommu.walk_levels);
        return fmt::format(
            "cannot map the list of {} entries: the IOMMU's I/O address space [{:#x}, {:#x}) "
            "(iommu.walk_levels = {}; below 4 GiB with dma.descriptor_bytes = 16) is full: "
            "raise iommu.walk_levels or shrink the list",
            w.entries, iova.base, iova.base + iova.size, iommu.walk_levels);
    }
    return fmt::format("cannot build the list of {} entries in memory.size_mib = {}: {}", w.entries,
                       config_.memory_size_mib, errno_text(err));
}

Transfer& Testbench::prepare(const WorkloadConfig& w, unsigned channel) {
    if (channel >= channels())
        stop_scenario(true, fmt::format("scenario {} needs channel {}, but dma.channels = {}",
                                        scenario_.name, channel, channels()));
    if (auto problems = validate(w); !problems.empty())
        stop_scenario(true,
                      fmt::format("scenario {}: {}", scenario_.name, problems.front().message));
    dmasim_load_spec spec = make_load_spec(w, config_.descriptor_format, config_.platform.dma);
    // A ring writes its requests' descriptors itself: they get no chunks.
    spec.xfer.for_ring = ports_[channel]->for_ring();
    if (std::string why = fit_error(w, spec, config_.memory_size_mib); !why.empty())
        stop_scenario(true, why);
    dmasim_xfer* x = nullptr;
    if (const int err = dmasim_load_prep(&dd_, &spec, &x)) stop_scenario(true, prep_error(w, err));
    transfers_.push_back(
        std::unique_ptr<Transfer>(new Transfer(x, channel, w, next_pattern_base(x->bytes))));
    Transfer& t = *transfers_.back();
    if (!payload_checked()) return t;  // the buffers stay untouched
    // The buffers are backed in bulk, not a fault per page. The source a
    // slice at a time, each filled while the kernel's zeroing left it in
    // the cache (backing the whole list first had the fill read it back).
    if (x->src.sgl)
        for_each_slice(x->src, kSourceSliceBytes, [&](const sg_table& slice, uint64_t offset) {
            populate_buffers(slice);
            scoreboard_.fill_source(slice, t.pattern_base_ + offset);
        });
    if (x->dst.sgl) populate_buffers(x->dst);
    if (x->dst.sgl) Scoreboard::fill_destination(x->dst, w.buffers);
    return t;
}

void Testbench::start(Transfer& t) {
    if (!submit(t))
        stop_scenario(false, fmt::format("ScenarioBench::start: channel {}'s ring has no room for the "
                                         "request",
                                         t.channel_));
}

// START or a ring, as the channel's port says: the one way in.
bool Testbench::submit(Transfer& t) {
    if (t.started_) stop_scenario(false, "ScenarioBench::submit: transfer already started");
    Port& p = port(t);
    const int err = p.submit(t);
    if (err == -ENOSPC) return false;
    if (err != 0) stop_scenario(err == -E2BIG, p.submit_error(t, err));
    t.started_ = true;
    completions_->work_arrived();
    // The START or TAIL write has just completed: the measured window opens here.
    window_.open(t, completions_->tally());
    return true;
}

void Testbench::open_ring(unsigned slots, dma_hw_direction dir, unsigned channel) {
    // The trait is what lets dma.submission tail_pointer through validation.
    if (!(scenario_.traits & kKeepsRing))
        stop_scenario(false, fmt::format("scenario {} calls ScenarioBench::open_ring but does not declare "
                                         "the trait kKeepsRing: add "
                                         "DMASIM_SCENARIO_TRAITS({}, dmasim::tb::kKeepsRing)",
                                         scenario_.name, scenario_.name));
    if (channel >= channels())
        stop_scenario(true, fmt::format("scenario {} needs channel {}, but dma.channels = {}",
                                        scenario_.name, channel, channels()));
    if (ports_[channel]->for_ring())
        stop_scenario(false, "ScenarioBench::open_ring: the channel has a ring already");
    dmasim_xfer_spec spec =
        make_load_spec(config_.workload, config_.descriptor_format, config_.platform.dma).xfer;
    spec.dir = dir;
    dmasim_ring* ring = nullptr;
    if (const int err = dmasim_ring_alloc(&dd_, channel, &spec, slots, &ring))
        stop_scenario(true, err == -ENODEV
                                ? fmt::format("scenario {} opens a descriptor ring, which needs "
                                              "dma.submission = tail_pointer (dma.submission = "
                                              "start has no TAIL registers)",
                                              scenario_.name)
                                : fmt::format("cannot build a descriptor ring of {} slots in "
                                              "memory.size_mib = {}: {}",
                                              slots, config_.memory_size_mib, errno_text(err)));
    // The START port has nothing to hand over: a busy channel fails the start below.
    ports_[channel] = std::make_unique<RingPort>(*this, channel, ring);
    if (dmasim_ring_start(ring) != 0)
        stop_scenario(false, fmt::format("ScenarioBench::open_ring: channel {} is busy", channel));
}

void Testbench::close_ring(unsigned channel) {
    auto* ring = channel < channels() ? dynamic_cast<RingPort*>(ports_[channel].get()) : nullptr;
    if (!ring)
        stop_scenario(false, fmt::format("ScenarioBench::close_ring: channel {} has no ring", channel));
    ring->close(window_.counts());
    ports_[channel] = std::make_unique<StartPort>(*this, channel);
}

Transfer* Testbench::oldest(unsigned channel) {
    if (channel >= channels())
        stop_scenario(false, fmt::format("ScenarioBench::oldest: no channel {}", channel));
    return ports_[channel]->oldest();
}

void Testbench::wait(Transfer& t) {
    if (!t.started_ || t.finished_) stop_scenario(false, "ScenarioBench::wait: transfer not in flight");
    Port& p = port(t);
    p.await(t);
    completions_->await(t);
    t.finished_ = true;
    p.take(t);
    if (!t.measured_) return;
    p.count(t, window_.counts());
    window_.add(t);
}

void Testbench::abort(Transfer& t) { dmasim_chan_abort(&dd_.chan[t.channel_]); }

// The driver takes the page's translation away (dmasim_xfer_revoke()),
// so the IOMMU, not the bus, faults: counted from each START of the
// channel, like the model's injected bus errors.
void Testbench::inject_translation_fault(Transfer& t) {
    const model::FaultParams& f = config_.platform.dma.fault;
    if (f.kind != model::FaultKind::translation || t.channel_ != f.channel) return;
    const int err =
        f.index <= UINT32_MAX ? dmasim_xfer_revoke(&dd_, t.xfer_, unsigned(f.index)) : -EINVAL;
    expect(err == 0, [&] {
        return fmt::format(
            "fault.kind = translation: cannot revoke data descriptor "
            "fault.index = {} of the list on channel {} (it maps to {} "
            "descriptors{})",
            f.index, t.channel_, mapped_descriptors(*t.xfer_),
            err == -ENODEV ? ", and iommu.enabled is false" : "");
    });
}

void Testbench::fail(const Mismatch& m) {
    if (!failure_) failure_ = m;
}

bool Testbench::record(const std::optional<Mismatch>& m) {
    if (m) fail(*m);
    return !m;
}

bool Testbench::expect(bool ok, std::string_view what) {
    if (!ok && !failure_) failure_ = Mismatch{std::nullopt, std::string(what)};
    return ok;
}

bool Testbench::check(const Transfer& t) {
    const dmasim_xfer& x = *t.xfer_;
    bool ok = expect(t.finished_ && t.error() == DMA_ERR_NONE, [&] {
        return fmt::format("transfer on channel {} stopped with status {:#x} (error {})",
                           t.channel_, t.status(), dmasim_error_name(t.error()));
    });
    ok = expect(t.bytes_done() == x.bytes,
                [&] {
                    return fmt::format("channel {} moved {} bytes, the list holds {}",
                                       t.channel_, t.bytes_done(), x.bytes);
                }) &&
         ok;
    const unsigned descriptors = mapped_descriptors(x);
    ok = expect(t.descs_done() == descriptors,
                [&] {
                    return fmt::format("channel {} completed {} descriptors, the list maps to {}",
                                       t.channel_, t.descs_done(), descriptors);
                }) &&
         ok;
    if (!payload_checked()) return ok;
    if (x.spec.dir == DMA_HW_MEM_TO_MEM)
        ok = record(scoreboard_.compare(x.dst, t.pattern_base_, "destination")) && ok;
    return check_device(t) && check_untouched(t) && ok;
}

// The device's stream can be attributed to one transfer only if no other
// transfer in the same direction ran at the same time.
void Testbench::note_device_start(Transfer& t) {
    const dma_hw_direction dir = t.xfer_->spec.dir;
    if (dir == DMA_HW_MEM_TO_MEM) return;
    const bool to_device = dir == DMA_HW_MEM_TO_DEV;
    if (device_in_flight_[to_device]++ > 0) {
        for (const auto& other : transfers_)
            if (other->started_ && !other->finished_ && other->xfer_->spec.dir == dir)
                other->device_pos_.reset();
        return;
    }
    const model::DevicePort& device = platform_.device();
    t.device_pos_ = to_device ? device.consumed() : device.produced();
    t.device_digest_ = device.sink_digest();
}

bool Testbench::check_device(const Transfer& t) {
    const dmasim_xfer& x = *t.xfer_;
    if (!t.device_pos_) return true;
    if (x.spec.dir == DMA_HW_DEV_TO_MEM)
        return record(Scoreboard::compare_device(x.dst, *t.device_pos_));
    if (x.spec.dir != DMA_HW_MEM_TO_DEV) return true;
    const model::DevicePort& device = platform_.device();
    const uint64_t expected = Scoreboard::digest(x.src, t.device_digest_);
    return expect(device.sink_digest() == expected, [&] {
        return fmt::format("the device received {} bytes whose FNV-1a digest {:#x} differs "
                           "from the source list's {:#x}",
                           device.consumed() - *t.device_pos_, device.sink_digest(), expected);
    });
}

bool Testbench::check_untouched(const Transfer& t) {
    const dmasim_xfer& x = *t.xfer_;
    bool ok = true;
    if (!payload_checked()) return ok;
    if (x.src.sgl) ok = record(scoreboard_.compare(x.src, t.pattern_base_, "source")) && ok;
    if (x.dst.sgl)
        ok = record(Scoreboard::compare_fill(x.dst, !t.started_, t.workload_.buffers)) && ok;
    return ok;
}

void Testbench::exclude_from_measurement(Transfer& t) { t.measured_ = false; }

void Testbench::release(Transfer& t) {
    if (t.started_ && !t.finished_)
        stop_scenario(false, "ScenarioBench::release: transfer still in flight");
    auto it = std::find_if(transfers_.begin(), transfers_.end(),
                           [&](const auto& p) { return p.get() == &t; });
    dmasim_load_free(&dd_, t.xfer_, t.workload_.buffers);
    transfers_.erase(it);
}

void Testbench::release_all() {
    // Teardown needs no IOTLB invalidation (no bus access, as it may run
    // after sc_start() returned): nothing translates any more.
    dd_.iommu = 0;
    for (auto& t : transfers_) dmasim_load_free(&dd_, t->xfer_, t->workload_.buffers);
    transfers_.clear();
    for (unsigned ch = 0; ch < ports_.size(); ++ch)
        ports_[ch] = std::make_unique<StartPort>(*this, ch);
    sim_iommu_detach(&dma_device_);
}

void Testbench::delay_cycles(uint64_t cycles) { sc_core::wait(platform_.clock().at(cycles)); }

uint64_t Testbench::now_cycles() const {
    return platform_.clock().cycle_of(sc_core::sc_time_stamp());
}

void Testbench::wait_for_completion_until(uint64_t until) { completions_->await_until(until); }

void Testbench::count_queued(int64_t delta, unsigned channel) {
    if (trace_) trace_->counter(model::TraceCounter::requests_queued, channel, now_cycles(), delta);
}

void Testbench::add_result(const std::string& name, double value, const std::string& unit,
                           const std::string& description) {
    // A report holds one finite number per name: JSON has no NaN or
    // infinity (they would be written as null, which dmasim diff refuses),
    // and a second value would silently replace the first.
    if (!std::isfinite(value))
        stop_scenario(false, fmt::format("scenario {}: result {} = {} is not a finite number",
                                         scenario_.name, name, value));
    const bool taken = std::any_of(results_.begin(), results_.end(),
                                   [&](const ScenarioResult& r) { return r.name == name; });
    if (taken)
        stop_scenario(false,
                      fmt::format("scenario {}: result {} is added twice", scenario_.name, name));
    results_.push_back({name, value, unit, description});
}

}  // namespace dmasim::tb
