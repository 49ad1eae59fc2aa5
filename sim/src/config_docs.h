// config_docs.h - renderings of the key table: `dmasim config --explain`,
// docs/configuration.md, and a fully resolved config as YAML.
#pragma once

#include <dmasim/tb/sim_config.h>

#include <string>
#include <vector>

#include "config_keys.h"

namespace dmasim::sim {

/// Plain-text listing of the keys for the terminal: every key, or those
/// `names` select (a key, or a section such as "dma"). Throws ConfigError
/// with a did-you-mean for a name that is neither.
std::string explain_text(const std::vector<std::string>& names = {});

/// The whole of docs/configuration.md.
std::string config_markdown();

/// A key's canonical value text (format_value) as a YAML scalar that reads
/// back to the same value: text values quoted, the rest as they are.
std::string yaml_scalar(const KeyDef& key, const std::string& text);

/// Every key of `config` as a flat "key: value" YAML document, loadable by
/// `dmasim run` and equal to `config` when loaded.
std::string resolved_yaml(const tb::SimConfig& config);

}  // namespace dmasim::sim
