// platform_keys.h - which config keys describe the platform an engine sits
// on (clock, interconnect, link, memory, IOMMU, device, other masters), as
// opposed to the engine, the driver and the workload: the keys a platform
// file (`dmasim run --platform`, a sweep's `platform:`) may set.
#pragma once

#include <string>
#include <string_view>

namespace dmasim::sim {

/// Whether `name` (a key, or a section such as "memory") belongs to the
/// platform: decided by its section, so a key added to a platform section
/// is a platform key with no list to update.
bool is_platform_key(std::string_view name);

/// The platform sections as a message lists them: "clock_mhz, bus.*, ...".
std::string platform_sections_text();

}  // namespace dmasim::sim
