// what_if.h - where a key's what-if step (model/param_def.h, WhatIf) moves
// its value: the one change `dmasim advise` tries for it.
#pragma once

#include <optional>

#include "config_keys.h"

namespace dmasim::sim {

/// The value `key`'s what-if step moves `current` to, within the key's
/// range; nothing if the key is not advised or the step changes nothing
/// (already at the bound or at the value tried, or 0 doubled or halved).
/// Throws std::invalid_argument if a row's set_to value is not one the
/// key takes (a mistake in the table, which a test guards).
std::optional<Value> what_if_value(const KeyDef& key, const Value& current);

}  // namespace dmasim::sim
