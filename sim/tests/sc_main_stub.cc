// sc_main_stub.cc - libsystemc's main() refers to sc_main, so every binary
// linking SystemC must define one; these tests run from gtest's main() and
// never start a simulation, so this one is never called.
extern "C" int sc_main(int, char**) { return 1; }
