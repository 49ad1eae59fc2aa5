// config_keys.cc - the key table, made of the parameter tables of the
// layers that own the fields (model/param_rows.h, tb/workload_rows.h):
// this file adds no key, range or description of its own.
#include "config_keys.h"

#include <dmasim/tb/validate.h>

#include <utility>

namespace dmasim::sim {
namespace {

/// One key per row of the parameter tables, in their order.
std::vector<KeyDef> build_table() {
    std::vector<KeyDef> table;
    for (const model::ParamDef<tb::SimConfig>& row : tb::param_table()) {
        KeyDef k;
        k.name = row.key;
        k.type = row.kind;
        k.unit = row.unit;
        k.int_min = row.int_range.min;
        k.int_max = row.int_range.max;
        k.power_of_two = row.int_range.power_of_two;
        k.int_values = row.int_range.values;
        k.real_min = row.real_range.min;
        k.real_max = row.real_range.max;
        k.choices = row.choices;
        k.path = row.path;
        k.description = row.description;
        k.what_if = row.what_if;
        k.get = row.get;
        k.set = row.set;
        table.push_back(std::move(k));
    }
    return table;
}

}  // namespace

std::vector<KeyDef>& mutable_table() {
    static std::vector<KeyDef> table = build_table();
    return table;
}

const std::vector<KeyDef>& config_keys() { return mutable_table(); }

void add_config_keys(std::vector<KeyDef> keys) {
    for (auto& key : keys) mutable_table().push_back(std::move(key));
}

const KeyDef* find_key(std::string_view name) {
    for (const auto& key : config_keys())
        if (key.name == name) return &key;
    for (const model::RenamedKey& r : model::kRenamedKeys)
        if (name == r.old_name) return find_key(r.name);
    return nullptr;
}

}  // namespace dmasim::sim
