// what_if.cc - see what_if.h.
#include "what_if.h"

#include <algorithm>

namespace dmasim::sim {
namespace {

using Step = model::WhatIf::Step;

std::optional<Value> scaled(const KeyDef& key, const Value& current, Step step) {
    if (const auto* v = std::get_if<uint64_t>(&current)) {
        if (*v == 0) return std::nullopt;
        if (step == Step::halved) return std::max(*v / 2, key.int_min);
        return *v > key.int_max / 2 ? key.int_max : *v * 2;
    }
    if (const auto* v = std::get_if<double>(&current)) {
        if (*v == 0) return std::nullopt;
        if (step == Step::halved) return std::max(*v / 2, key.real_min);
        return std::min(*v * 2, key.real_max);
    }
    return std::nullopt;
}

}  // namespace

std::optional<Value> what_if_value(const KeyDef& key, const Value& current) {
    std::optional<Value> to;
    switch (key.what_if.step) {
        case Step::none:
            return std::nullopt;
        case Step::set_to:
            to = parse_value(key, key.what_if.value);
            break;
        case Step::doubled:
        case Step::halved:
            to = scaled(key, current, key.what_if.step);
            break;
    }
    if (!to || *to == current) return std::nullopt;
    return to;
}

}  // namespace dmasim::sim
