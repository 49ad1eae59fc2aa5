// platform.cc - elaborates and wires the SoC, and gathers statistics.
#include <dmasim/model/clock.h>
#include <dmasim/model/device_port.h>
#include <dmasim/model/dma_controller.h>
#include <dmasim/model/platform.h>
#include <fmt/format.h>

#include "dma_channel.h"
#include "interconnect.h"
#include "memory.h"
#include "traffic_generator.h"

namespace dmasim::model {

struct Platform::Impl {
    Impl(const PlatformParams& p)
        : params(p),
          clock(p.clock_mhz),
          memory("memory", p.memory, p.bus.width_bytes, clock),
          interconnect("interconnect", p.memory.size_bytes, p.bus.interconnect_latency_cycles,
                       clock),
          device(p.device),
          dma("dma", p.dma, p.bus, p.quantum_cycles, clock, device, p.iommu),
          irq("irq"),
          busy("busy", p.dma.channels),
          traffic(
              "traffic", p.traffic, p.bus.width_bytes, p.memory.size_bytes, clock,
              [this] { return dma.any_busy(); }, dma.activity()) {
        interconnect.mem_out.bind(memory.socket);
        interconnect.regs_out.bind(dma.regs);
        dma.master.bind(interconnect.dma_in);
        dma.irq.bind(irq);
        for (unsigned i = 0; i < p.dma.channels; ++i) dma.busy[i].bind(busy[i]);
        traffic.socket.bind(interconnect.traffic_in);
        // The engine books behind SystemC time (and its channels not in
        // time order among them); the traffic master and the CPU, loosely
        // timed, never do.
        memory.set_request_floor([this] { return dma.earliest_request(); });
        device.set_request_floor(
            [this](bool source) { return dma.earliest_stream_request(source); });
        // The traffic master's quantum keeper reads the global quantum; the
        // default (zero) would make it wait() after every burst.
        tlm::tlm_global_quantum::instance().set(clock.at(p.quantum_cycles));
    }

    PlatformParams params;
    Clock clock;
    Memory memory;
    Interconnect interconnect;
    DevicePort device;
    DmaController dma;
    sc_core::sc_signal<bool> irq;
    sc_core::sc_vector<sc_core::sc_signal<bool>> busy;
    TrafficGenerator traffic;
};

namespace {

template <size_t N>
StatGroup table_group(std::string name, const StatDef (&defs)[N],
                      const std::vector<double>& values) {
    StatGroup group{std::move(name), {}};
    for (size_t i = 0; i < N; ++i)
        group.counters.push_back({defs[i].name, values[i], defs[i].unit});
    return group;
}

StatGroup channel_group(unsigned i, const ChannelStats& s) {
    StatGroup group =
        table_group(fmt::format("dma.ch{}", i), kChannelCounterDefs, counter_values(s));
    for (const auto& p : kLatencyPercentiles)
        group.counters.push_back(
            {p.def.name, static_cast<double>(s.descriptor_latencies.percentile(p.percentile)),
             p.def.unit});
    return group;
}

StatGroup dram_group(const DramStats& s) {
    StatGroup group = table_group("dram", kDramCounterDefs, counter_values(s));
    const double achieved =
        s.span_cycles ? static_cast<double>(s.bytes) / static_cast<double>(s.span_cycles) : 0;
    const double parallelism =
        s.active_cycles ? static_cast<double>(s.bank_busy_cycles) / s.active_cycles : 0;
    const double values[] = {parallelism, s.peak_bytes_per_cycle, achieved,
                             100.0 * achieved / s.peak_bytes_per_cycle};
    static_assert(std::size(values) == std::size(kDramDerivedDefs));
    for (size_t i = 0; i < std::size(values); ++i)
        group.counters.push_back({kDramDerivedDefs[i].name, values[i], kDramDerivedDefs[i].unit});
    return group;
}

StatGroup resource_group(const std::string& name, const ResourceStats& s) {
    return table_group(name, kResourceCounterDefs, counter_values(s));
}

}  // namespace

Platform::Platform(sc_core::sc_module_name name, const PlatformParams& params)
    : sc_module(name), impl_(new Impl(params)) {}

Platform::~Platform() { delete impl_; }

tlm::tlm_target_socket<>& Platform::cpu_target() { return impl_->interconnect.cpu_in; }

const sc_core::sc_signal<bool>& Platform::irq() const { return impl_->irq; }

const sc_core::sc_signal<bool>& Platform::busy(unsigned channel) const {
    return impl_->busy[channel];
}

const ChannelStats& Platform::channel_stats(unsigned channel) const {
    return impl_->dma.channel_stats(channel);
}

const CycleTimeline& Platform::channel_timeline(unsigned channel) const {
    return impl_->dma.channel_timeline(channel);
}

IommuStats Platform::iommu_stats() const { return impl_->dma.iommu_stats(); }

uint64_t Platform::late_bookings() const {
    return impl_->memory.late_bookings() + impl_->device.late_bookings();
}

ResourceStats Platform::read_channel_stats() const { return impl_->memory.read_channel().stats(); }

ResourceStats Platform::write_channel_stats() const {
    return impl_->memory.write_channel().stats();
}

Platform::BusMark Platform::mark_bus(uint64_t cycle) {
    return {impl_->memory.read_channel().mark(cycle), impl_->memory.write_channel().mark(cycle)};
}

BusBusy Platform::bus_busy_before(BusMark mark) const {
    const Memory& memory = impl_->memory;
    return {memory.read_channel().busy_before_mark(mark.read),
            memory.write_channel().busy_before_mark(mark.write)};
}

void Platform::unmark_bus(BusMark mark) {
    impl_->memory.read_channel().unmark(mark.read);
    impl_->memory.write_channel().unmark(mark.write);
}

Platform::BusHold::BusHold(Platform& platform, uint64_t cycle)
    : platform_(platform), cycle_(cycle) {
    platform_.impl_->memory.read_channel().hold(cycle);
    platform_.impl_->memory.write_channel().hold(cycle);
}

Platform::BusHold::~BusHold() {
    platform_.impl_->memory.read_channel().release(cycle_);
    platform_.impl_->memory.write_channel().release(cycle_);
}

const Clock& Platform::clock() const { return impl_->clock; }

std::vector<StatGroup> Platform::statistics() const {
    std::vector<StatGroup> groups;
    for (unsigned i = 0; i < impl_->dma.channels(); ++i)
        groups.push_back(channel_group(i, impl_->dma.channel_stats(i)));
    groups.push_back(resource_group("bus.read", read_channel_stats()));
    groups.push_back(resource_group("bus.write", write_channel_stats()));
    groups.push_back(resource_group("device.source", impl_->device.source_stats()));
    groups.push_back(resource_group("device.sink", impl_->device.sink_stats()));
    groups.push_back(table_group("traffic", kTrafficDefs,
                                 {static_cast<double>(impl_->traffic.bytes()),
                                  static_cast<double>(impl_->traffic.bursts())}));
    // Only a platform with an IOMMU reports it: other runs' reports and
    // CSV columns stay as they were.
    if (impl_->params.iommu.enabled)
        groups.push_back(table_group("iommu", kIommuCounterDefs, counter_values(iommu_stats())));
    if (const DramController* dram = impl_->memory.dram())
        groups.push_back(dram_group(dram->stats()));
    return groups;
}

void Platform::set_trace(TraceSink* sink) {
    impl_->dma.set_trace(sink);
    impl_->memory.set_trace(sink);
    impl_->device.set_trace(sink);
    impl_->traffic.set_trace(sink);
}

const PlatformParams& Platform::params() const { return impl_->params; }

void Platform::reset_statistics() {
    impl_->dma.reset_stats();
    impl_->memory.reset_stats();
}

DevicePort& Platform::device() { return impl_->device; }
DmaController& Platform::controller() { return impl_->dma; }

}  // namespace dmasim::model
