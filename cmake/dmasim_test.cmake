# The environment every test that runs a dmasim binary gets, declared once.
# - SystemC needs detect_stack_use_after_return=0 (its coroutines switch stacks).
# - LSAN use_stacks=0: libsystemc tells ASan about each coroutine switch
#   (__sanitizer_start_switch_fiber), so at exit ASan may still hold a
#   coroutine's stack as the main thread's; LeakSanitizer then scans that
#   range after the coroutine's mapping is gone or partly reused, and its
#   tracer dies ("Tracer caught signal 11": 14 of 20 runs of one model case
#   on Linux 6.18). The leak check runs after main has returned, when no
#   stack holds a pointer that matters, so stacks are not needed as roots.
# - The rest makes every sanitizer finding fail its case.
set(DMASIM_TEST_ENV
    "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1"
    "ASAN_OPTIONS=detect_stack_use_after_return=0:detect_leaks=1"
    "LSAN_OPTIONS=use_stacks=0"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")

# dmasim_add_gtest(NAME SOURCES... LIBS... [LABELS...] [TIMEOUT SECONDS])
# One GoogleTest binary whose cases ctest runs one per process, which is
# what SystemC needs (it elaborates only once per process).
#
# The cases' properties are set by a file ctest reads after the discovered
# cases, not through gtest_discover_tests(PROPERTIES): that flattens every
# list value into separate arguments, so ENVIRONMENT kept only its first
# variable, and an empty LABELS took ENVIRONMENT as its value.
function(dmasim_add_gtest name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  # gtest_main must come before libsystemc so that its main() is the one
  # linked; libsystemc's main() would otherwise call sc_main and run no test.
  target_link_libraries(${name} PRIVATE GTest::gtest_main GTest::gtest ${ARG_LIBS})
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 TEST_LIST ${name}_TESTS)

  string(JOIN ";" environment ${DMASIM_TEST_ENV})
  set(properties "ENVIRONMENT \"${environment}\"")
  if(ARG_LABELS)
    string(APPEND properties " LABELS \"${ARG_LABELS}\"")
  endif()
  # Cases that once hung get a TIMEOUT so a regression fails, not stalls.
  if(ARG_TIMEOUT)
    string(APPEND properties " TIMEOUT ${ARG_TIMEOUT}")
  endif()
  set(file ${CMAKE_CURRENT_BINARY_DIR}/${name}_properties.cmake)
  file(WRITE ${file}
       "if(${name}_TESTS)\n  set_tests_properties(\${${name}_TESTS} PROPERTIES ${properties})\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${file})
endfunction()
