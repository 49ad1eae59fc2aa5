// platform_keys.cc - the platform's sections of the key table.
#include "platform_keys.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <vector>

namespace dmasim::sim {
namespace {

/// The sections `dmasim advise` calls the platform around the engine
/// (model/param_def.h, KnobGroup): clock, bus, PCIe link, memory, the
/// IOMMU between the engine and memory, the stream device and the other
/// masters on the bus. dma.*, cpu.*, workload.*, fault.* and scenario
/// keys belong to the engine, the driver or the experiment.
constexpr std::string_view kPlatformSections[] = {"clock_mhz", "bus",    "pcie",   "memory",
                                                  "iommu",     "device", "traffic"};

}  // namespace

bool is_platform_key(std::string_view name) {
    const std::string_view section = name.substr(0, name.find('.'));
    return std::find(std::begin(kPlatformSections), std::end(kPlatformSections), section) !=
           std::end(kPlatformSections);
}

std::string platform_sections_text() {
    std::vector<std::string> parts;
    for (const std::string_view section : kPlatformSections)
        parts.push_back(section == "clock_mhz" ? std::string(section)
                                               : fmt::format("{}.*", section));
    return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace dmasim::sim
