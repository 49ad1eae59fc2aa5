# dmasim_add_gtest(NAME SOURCES... LIBS... [LABELS...] [TIMEOUT SECONDS])
# One GoogleTest binary whose cases ctest runs one per process, which is
# what SystemC needs (it elaborates only once per process).
function(dmasim_add_gtest name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  # Cases that once hung get a TIMEOUT so a regression fails, not stalls.
  set(timeout)
  if(ARG_TIMEOUT)
    set(timeout TIMEOUT ${ARG_TIMEOUT})
  endif()
  add_executable(${name} ${ARG_SOURCES})
  # gtest_main must come before libsystemc so that its main() is the one
  # linked; libsystemc's main() would otherwise call sc_main and run no test.
  target_link_libraries(${name} PRIVATE GTest::gtest_main GTest::gtest ${ARG_LIBS})
  gtest_discover_tests(${name}
    DISCOVERY_TIMEOUT 60
    PROPERTIES ${timeout} LABELS "${ARG_LABELS}" ENVIRONMENT
      "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1;ASAN_OPTIONS=detect_stack_use_after_return=0:detect_leaks=1;UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
endfunction()
