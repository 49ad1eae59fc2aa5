// gen_config_docs.cpp - prints docs/configuration.md from the key table, so
// the docs can be regenerated (target config-docs) without a simulator.
// libsystemc's main() calls this sc_main; no simulation is started.
#include <fmt/core.h>

#include "config_docs.h"

extern "C" int sc_main(int, char**) {
    fmt::print("{}", dmasim::sim::config_markdown());
    return 0;
}
