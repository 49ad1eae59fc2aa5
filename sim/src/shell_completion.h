// shell_completion.h - `dmasim completion bash`: a bash completion script whose
// key and value lists come from the config key table, so it never lags
// behind the keys dmasim accepts.
#pragma once

#include <string>

namespace dmasim::sim {

/// The script; `source <(dmasim completion bash)` enables it.
std::string bash_completion();

}  // namespace dmasim::sim
