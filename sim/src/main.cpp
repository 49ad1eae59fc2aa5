// main.cpp - entry point of the dmasim executable.
//
// SystemC prints its banner when it starts unless this variable is set, so
// it is set before handing over to SystemC's own entry, which then calls
// sc_main below with the command line.
#include <cstdlib>
#include <systemc>

#include "cli.h"

extern "C" int sc_main(int argc, char* argv[]) { return dmasim::sim::cli_main(argc, argv); }

int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
