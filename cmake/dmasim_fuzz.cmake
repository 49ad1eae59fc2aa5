# dmasim_add_fuzzer(NAME SOURCES... LIBS... [CORPUS DIR])
# A libFuzzer harness (clang only): -fsanitize=fuzzer on top of
# AddressSanitizer and UndefinedBehaviorSanitizer, built when DMASIM_FUZZ
# is on (a no-op otherwise). CORPUS is the seed corpus in the source tree
# (default: corpus/ beside the caller). Every harness is listed in
# ${CMAKE_BINARY_DIR}/fuzzers.txt, one "name<TAB>binary<TAB>corpus" line
# each, and the target `fuzzers` builds them all, so scripts/fuzz runs
# harnesses added later without being edited.

if(DMASIM_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang" OR NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "DMASIM_FUZZ needs clang: configure with CC=clang CXX=clang++")
  endif()
  if(NOT DMASIM_SANITIZE)
    message(WARNING "DMASIM_FUZZ without DMASIM_SANITIZE: only the harnesses "
                    "themselves get ASan/UBSan, not the libraries they test")
  endif()
  # Coverage feedback must come from the code under test, not only from
  # the harness, so every target in this build is instrumented.
  add_compile_options(-fsanitize=fuzzer-no-link)
  add_custom_target(fuzzers)

  # Written once all directories are processed, with each binary's path.
  function(_dmasim_write_fuzzer_list)
    get_property(lines GLOBAL PROPERTY DMASIM_FUZZERS)
    list(JOIN lines "\n" content)
    file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/fuzzers.txt CONTENT "${content}\n")
  endfunction()
  cmake_language(DEFER CALL _dmasim_write_fuzzer_list)
endif()

function(dmasim_add_fuzzer name)
  cmake_parse_arguments(ARG "" "CORPUS" "SOURCES;LIBS" ${ARGN})
  if(NOT DMASIM_FUZZ)
    return()
  endif()
  if(NOT ARG_CORPUS)
    set(ARG_CORPUS ${CMAKE_CURRENT_SOURCE_DIR}/corpus)
  endif()
  set(flags -fsanitize=fuzzer,address,undefined)
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS})
  target_compile_options(${name} PRIVATE ${flags} -fno-sanitize-recover=undefined
                                         -fno-omit-frame-pointer)
  target_link_options(${name} PRIVATE ${flags})
  add_dependencies(fuzzers ${name})
  set_property(GLOBAL APPEND PROPERTY DMASIM_FUZZERS
               "${name}\t$<TARGET_FILE:${name}>\t${ARG_CORPUS}")
endfunction()
