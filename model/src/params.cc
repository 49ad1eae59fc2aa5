// params.cc - the model's own rules on its parameters, stated once: the
// controller enforces them and sim/ reports them (docs/configuration.md).
#include <dmasim/hw/dma_hw.h>
#include <dmasim/model/params.h>
#include <fmt/format.h>

#include <algorithm>

namespace dmasim::model {

std::vector<ParamProblem> validate(const DmaParams& p, const BusParams& bus) {
    std::vector<ParamProblem> problems;
    auto require = [&problems](bool ok, std::vector<std::string> keys, std::string message) {
        if (!ok) problems.push_back({std::move(keys), std::move(message)});
    };
    require(p.channels >= 1 && p.channels <= DMA_MAX_CHANNELS, {"dma.channels"},
            fmt::format("dma.channels = {} is outside 1 .. {}", p.channels, DMA_MAX_CHANNELS));
    const unsigned w = bus.width_bytes;
    require(w >= 1 && w <= 128 && (w & (w - 1)) == 0, {"bus.width_bytes"},
            fmt::format("bus.width_bytes = {} must be a power of two 1 .. 128", w));
    require(p.max_burst_beats >= 1, {"dma.max_burst_beats"}, "dma.max_burst_beats must be >= 1");
    require(p.max_outstanding_reads >= 1, {"dma.max_outstanding_reads"},
            "dma.max_outstanding_reads must be >= 1");
    require(p.max_outstanding_writes >= 1, {"dma.max_outstanding_writes"},
            "dma.max_outstanding_writes must be >= 1");
    require(p.descriptor_prefetch >= 1, {"dma.descriptor_prefetch"},
            "dma.descriptor_prefetch must be >= 1");
    require(p.descriptor_bytes == 16 || p.descriptor_bytes == 32 || p.descriptor_bytes == 64,
            {"dma.descriptor_bytes"},
            fmt::format("dma.descriptor_bytes = {} must be 16, 32 or 64", p.descriptor_bytes));

    // Two bursts, so one can fill while the previous one drains.
    const uint64_t largest_burst = std::min<uint64_t>(uint64_t{p.max_burst_beats} * w, 4096);
    require(p.buffer_bytes >= 2 * largest_burst,
            {"dma.buffer_bytes", "dma.max_burst_beats", "bus.width_bytes"},
            fmt::format("dma.buffer_bytes = {} must hold two bursts of {} bytes "
                        "(dma.max_burst_beats x bus.width_bytes, at most 4096)",
                        p.buffer_bytes, largest_burst));
    require(p.read_refill_bytes <= p.buffer_bytes, {"dma.read_refill_bytes", "dma.buffer_bytes"},
            fmt::format("dma.read_refill_bytes = {} must be at most dma.buffer_bytes = {} "
                        "(0 = one burst)",
                        p.read_refill_bytes, p.buffer_bytes));
    require(p.fault.kind == FaultKind::none || p.fault.channel < p.channels,
            {"fault.channel", "dma.channels"},
            fmt::format("fault.channel = {} names no channel: dma.channels = {}", p.fault.channel,
                        p.channels));
    return problems;
}

}  // namespace dmasim::model
