// main.cc - entry point of the dmasim executable.
//
// SystemC prints its banner when it starts unless this variable is set, so
// it is set before handing over to SystemC's own entry, which then calls
// sc_main below with the command line.
#include <fmt/format.h>

#include <cstdlib>
#include <systemc>

#include "cli.h"
#include "scenario_keys.h"

extern "C" int sc_main(int argc, char* argv[]) {
    const auto mistakes = dmasim::sim::register_scenario_keys();
    for (const auto& why : mistakes) fmt::print(stderr, "dmasim: error: {}\n", why);
    return mistakes.empty() ? dmasim::sim::cli_main(argc, argv) : 2;
}

int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
