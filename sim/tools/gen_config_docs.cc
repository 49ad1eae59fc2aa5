// gen_config_docs.cc - prints docs/configuration.md from the key table, so
// the docs can be regenerated (target config-docs) without a simulator;
// scenario parameters are part of the table.
// libsystemc's main() calls this sc_main; no simulation is started.
#include <fmt/core.h>

#include "config_docs.h"
#include "scenario_keys.h"

extern "C" int sc_main(int, char**) {
    if (!dmasim::sim::register_scenario_keys().empty()) return 2;  // dmasim names them
    fmt::print("{}", dmasim::sim::config_markdown());
    return 0;
}
