// param_table.cc - the rows of param_rows.h as a table over PlatformParams.
#include <dmasim/model/params.h>

namespace dmasim::model {
namespace {

std::vector<ParamDef<PlatformParams>> build() {
    std::vector<ParamDef<PlatformParams>> rows;
    // One row; DMASIM_PATH(p) names the struct that holds the field, and is
    // redefined before each struct's rows are expanded.
#define DMASIM_ROW(type, name, default_value, key, unit, values, what_if, description)             \
    rows.push_back(with_what_if(                                                                   \
        param<PlatformParams>(                                                                     \
            key, unit, values, description, [](auto& p) -> auto& { return DMASIM_PATH(p).name; }), \
        what_if));
#define DMASIM_PATH(p) p
    DMASIM_PLATFORM_PARAMS(DMASIM_ROW)
#undef DMASIM_PATH
#define DMASIM_PATH(p) p.bus
    DMASIM_BUS_PARAMS(DMASIM_ROW)
#undef DMASIM_PATH
#define DMASIM_PATH(p) p.bus.pcie
    DMASIM_PCIE_PARAMS(DMASIM_ROW)
#undef DMASIM_PATH
#define DMASIM_PATH(p) p.memory
    DMASIM_MEMORY_PARAMS(DMASIM_ROW)
#undef DMASIM_PATH
#define DMASIM_PATH(p) p.dma
    DMASIM_DMA_PARAMS(DMASIM_ROW)
#undef DMASIM_PATH
#define DMASIM_PATH(p) p.iommu
    DMASIM_IOMMU_PARAMS(DMASIM_ROW)
#undef DMASIM_PATH
#define DMASIM_PATH(p) p.device
    DMASIM_DEVICE_PARAMS(DMASIM_ROW)
#undef DMASIM_PATH
#define DMASIM_PATH(p) p.traffic
    DMASIM_TRAFFIC_PARAMS(DMASIM_ROW)
#undef DMASIM_PATH
#define DMASIM_PATH(p) p.dma.fault
    DMASIM_FAULT_PARAMS(DMASIM_ROW)
#undef DMASIM_PATH
#undef DMASIM_ROW
    return rows;
}

}  // namespace

const std::vector<ParamDef<PlatformParams>>& param_table() {
    static const std::vector<ParamDef<PlatformParams>> table = build();
    return table;
}

}  // namespace dmasim::model
