// config_schema.h - `dmasim config --schema`: a JSON Schema of every config
// key, so editors (e.g. yaml-language-server) validate and complete configs.
#pragma once

#include <string>

namespace dmasim::sim {

/// The schema (JSON Schema draft-07) as indented JSON text.
std::string config_schema();

}  // namespace dmasim::sim
