// platform.cc - elaborates and wires the SoC, and gathers statistics.
#include <dmasim/model/clock.h>
#include <dmasim/model/device_port.h>
#include <dmasim/model/dma_controller.h>
#include <dmasim/model/interconnect.h>
#include <dmasim/model/memory.h>
#include <dmasim/model/platform.h>
#include <dmasim/model/traffic_generator.h>
#include <fmt/format.h>

namespace dmasim::model {

struct Platform::Impl {
    Impl(const PlatformParams& p)
        : params(p),
          clock(p.clock_mhz),
          memory("memory", p.memory, p.bus.width_bytes, clock),
          interconnect("interconnect", p.memory.size_bytes, p.bus.interconnect_latency_cycles,
                       clock),
          device(p.device),
          dma("dma", p.dma, p.bus, p.quantum_cycles, clock, memory, device),
          traffic(
              "traffic", p.traffic, p.bus.width_bytes, p.memory.size_bytes, clock,
              [this] { return dma.any_busy(); }, dma.activity()) {
        interconnect.mem_out.bind(memory.socket);
        interconnect.regs_out.bind(dma.regs);
        dma.master.bind(interconnect.dma_in);
        traffic.socket.bind(interconnect.traffic_in);
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
    TrafficGenerator traffic;
};

namespace {

StatGroup channel_group(unsigned i, const ChannelStats& s) {
    auto d = [](uint64_t v) { return static_cast<double>(v); };
    return {fmt::format("dma.ch{}", i),
            {{"bytes", d(s.bytes), "B"},
             {"read_bursts", d(s.read_bursts), "bursts"},
             {"write_bursts", d(s.write_bursts), "bursts"},
             {"descriptors", d(s.descriptors), "descriptors"},
             {"chain_links", d(s.chain_links), "links"},
             {"descriptor_bytes_fetched", d(s.descriptor_bytes_fetched), "B"},
             {"max_reads_in_flight", d(s.max_reads_in_flight), "transactions"},
             {"max_writes_in_flight", d(s.max_writes_in_flight), "transactions"},
             {"setup_cycles", d(s.setup_cycles), "cycles"},
             {"descriptor_stall_cycles", d(s.descriptor_stall_cycles), "cycles"},
             {"data_cycles", d(s.data_cycles), "cycles"},
             {"writeback_cycles", d(s.writeback_cycles), "cycles"},
             {"irq_latency_cycles", d(s.irq_latency_cycles), "cycles"}}};
}

StatGroup resource_group(const std::string& name, const ResourceStats& s) {
    auto d = [](uint64_t v) { return static_cast<double>(v); };
    return {name,
            {{"bytes", d(s.bytes), "B"},
             {"bursts", d(s.bursts), "bursts"},
             {"busy_cycles", d(s.busy_cycles), "cycles"}}};
}

}  // namespace

Platform::Platform(sc_core::sc_module_name name, const PlatformParams& params)
    : sc_module(name), impl_(new Impl(params)) {}

Platform::~Platform() { delete impl_; }

tlm::tlm_target_socket<>& Platform::cpu_target() { return impl_->interconnect.cpu_in; }

const sc_core::sc_signal<bool>& Platform::irq() const { return impl_->dma.irq(); }

const sc_core::sc_signal<bool>& Platform::busy(unsigned channel) const {
    return impl_->dma.busy(channel);
}

ChannelStats Platform::channel_stats(unsigned channel) const {
    return impl_->dma.channel(channel).stats();
}

ResourceStats Platform::read_channel_stats() const { return impl_->memory.read_channel().stats(); }

ResourceStats Platform::write_channel_stats() const {
    return impl_->memory.write_channel().stats();
}

BusBusy Platform::bus_busy_before(uint64_t cycle) const {
    return {impl_->memory.read_channel().busy_before(cycle),
            impl_->memory.write_channel().busy_before(cycle)};
}

const Clock& Platform::clock() const { return impl_->clock; }

std::vector<StatGroup> Platform::statistics() const {
    std::vector<StatGroup> groups;
    for (unsigned i = 0; i < impl_->dma.channels(); ++i)
        groups.push_back(channel_group(i, impl_->dma.channel(i).stats()));
    groups.push_back(resource_group("bus.read", read_channel_stats()));
    groups.push_back(resource_group("bus.write", write_channel_stats()));
    groups.push_back(resource_group("device.source", impl_->device.source_stream().stats()));
    groups.push_back(resource_group("device.sink", impl_->device.sink_stream().stats()));
    groups.push_back({"traffic",
                      {{"bytes", static_cast<double>(impl_->traffic.bytes()), "B"},
                       {"bursts", static_cast<double>(impl_->traffic.bursts()), "bursts"}}});
    return groups;
}

void Platform::set_trace(TraceSink* sink) { impl_->dma.set_trace(sink); }

const PlatformParams& Platform::params() const { return impl_->params; }

void Platform::reset_statistics() {
    impl_->dma.reset_stats();
    impl_->memory.reset_stats();
}

Memory& Platform::memory() { return impl_->memory; }
DevicePort& Platform::device() { return impl_->device; }
DmaController& Platform::controller() { return impl_->dma; }

}  // namespace dmasim::model
