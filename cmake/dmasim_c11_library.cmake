# dmasim_c11_library(NAME [INCLUDE_DIR DIR] SOURCES...)
# One of dmasim's C11 libraries (sglist, the driver, the testbench's
# workloads): a static library built as strict C11 (no GNU extensions),
# its public headers in DIR (default: include/ beside the calling
# CMakeLists.txt), installed under the install tree's include folder.
function(dmasim_c11_library name)
  cmake_parse_arguments(ARG "" "INCLUDE_DIR" "" ${ARGN})
  if(NOT ARG_INCLUDE_DIR)
    set(ARG_INCLUDE_DIR include)
  endif()
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  target_include_directories(${name} PUBLIC
                             $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/${ARG_INCLUDE_DIR}>
                             $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  set_target_properties(${name} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON
                                           C_EXTENSIONS OFF)
endfunction()
