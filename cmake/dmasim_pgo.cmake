# dmasim_pgo.cmake - profile-guided optimisation (GCC), driven by
# scripts/build-pgo: a `train` build writes a profile of dmasim's own runs
# into DMASIM_PGO_PROFILE, a `use` build compiles with it. A run's time is
# many small, well-predicted branches across the libraries; laid out by
# the profile they take about a seventh less CPU (docs/performance.md).
set(DMASIM_PGO OFF CACHE STRING "Profile-guided optimisation: OFF, train or use (scripts/build-pgo)")
set_property(CACHE DMASIM_PGO PROPERTY STRINGS OFF train use)
set(DMASIM_PGO_PROFILE "" CACHE PATH "Folder of the profile a train build writes and a use build reads")

if(NOT DMASIM_PGO STREQUAL "OFF")
  if(NOT DMASIM_PGO MATCHES "^(train|use)$")
    message(FATAL_ERROR "DMASIM_PGO=${DMASIM_PGO}: expected OFF, train or use")
  endif()
  if(NOT CMAKE_C_COMPILER_ID STREQUAL "GNU" OR NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    message(FATAL_ERROR "DMASIM_PGO=${DMASIM_PGO} needs GCC (the profile's format is GCC's)")
  endif()
  if(NOT IS_ABSOLUTE "${DMASIM_PGO_PROFILE}")
    message(FATAL_ERROR "DMASIM_PGO=${DMASIM_PGO} needs DMASIM_PGO_PROFILE, an absolute folder")
  endif()
  # Profile files are named after the objects' paths below the build
  # folder, so a train and a use build in different folders share them.
  set(pgo_naming -fprofile-prefix-path=${CMAKE_BINARY_DIR})
  if(DMASIM_PGO STREQUAL "train")
    # Atomic counts: a checked run compares its buffers on several threads,
    # and counts they race on make an inconsistent profile, which GCC
    # refuses.
    add_compile_options(-fprofile-generate=${DMASIM_PGO_PROFILE} ${pgo_naming}
                        -fprofile-update=atomic)
    add_link_options(-fprofile-generate=${DMASIM_PGO_PROFILE})
  else()
    # Code the training did not run is optimised as usual, not for size;
    # a source edited since the training compiles without its profile (a
    # warning) instead of failing the build, and counts that still
    # disagree are smoothed rather than refused.
    add_compile_options(-fprofile-use=${DMASIM_PGO_PROFILE} ${pgo_naming}
                        -fprofile-partial-training -fprofile-correction
                        -Wno-missing-profile -Wno-error=coverage-mismatch)
  endif()
endif()
