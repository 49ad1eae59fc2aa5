// param_table.cc - the rows of workload_rows.h, and with the model's rows
// lifted into SimConfig, every configuration parameter in one table.
#include <dmasim/tb/validate.h>

#include <algorithm>
#include <iterator>
#include <string_view>

namespace dmasim::tb {
namespace {

using model::param;
using model::ParamDef;

// One row over RowConfig; DMASIM_PATH(c) names the struct of it that holds the field.
#define DMASIM_ROW(type, name, default_value, key, unit, values, what_if, description)             \
    rows.push_back(model::with_what_if(                                                            \
        param<RowConfig>(                                                                          \
            key, unit, values, description, [](auto& c) -> auto& { return DMASIM_PATH(c).name; }), \
        what_if));

#define DMASIM_PATH(c) c
std::vector<ParamDef<WorkloadConfig>> build_workload_rows() {
    using RowConfig = WorkloadConfig;
    std::vector<ParamDef<RowConfig>> rows;
    DMASIM_WORKLOAD_PARAMS(DMASIM_ROW)
    return rows;
}

std::vector<ParamDef<SimConfig>> own_rows() {
    using RowConfig = SimConfig;
    std::vector<ParamDef<RowConfig>> rows;
    DMASIM_SIM_PARAMS(DMASIM_ROW)
#undef DMASIM_PATH
#define DMASIM_PATH(c) c.cpu
    DMASIM_CPU_PARAMS(DMASIM_ROW)
#undef DMASIM_PATH
    for (const auto& row : workload_param_rows())
        rows.push_back(model::lift<SimConfig>(row, [](auto& c) -> auto& { return c.workload; }));
    return rows;
}
#undef DMASIM_ROW

/// Sections in documentation order; a key's section is its first part.
constexpr std::string_view kSections[] = {"clock_mhz", "bus",    "pcie",    "memory",
                                          "dma",       "cpu",    "iommu",   "device",
                                          "traffic",   "workload", "fault"};
size_t section_of(const std::string& key) {
    const std::string_view first = std::string_view(key).substr(0, key.find('.'));
    return static_cast<size_t>(std::find(std::begin(kSections), std::end(kSections), first) -
                               std::begin(kSections));
}

std::vector<ParamDef<SimConfig>> build() {
    std::vector<ParamDef<SimConfig>> rows;
    for (const auto& row : model::param_table())
        rows.push_back(model::lift<SimConfig>(row, [](auto& c) -> auto& { return c.platform; }));
    for (auto& row : own_rows()) rows.push_back(std::move(row));
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return section_of(a.key) < section_of(b.key);
    });
    return rows;
}

}  // namespace

const std::vector<ParamDef<WorkloadConfig>>& workload_param_rows() {
    static const std::vector<ParamDef<WorkloadConfig>> rows = build_workload_rows();
    return rows;
}

const std::vector<ParamDef<SimConfig>>& testbench_rows() {
    static const std::vector<ParamDef<SimConfig>> rows = own_rows();
    return rows;
}

const std::vector<ParamDef<SimConfig>>& param_table() {
    static const std::vector<ParamDef<SimConfig>> table = build();
    return table;
}

}  // namespace dmasim::tb
