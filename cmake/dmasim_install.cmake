# The installable package: headers, static libraries, dmasimConfig.cmake
# with the imported targets dmasim::sglist, dmasim::hw, dmasim::model,
# dmasim::driver and dmasim::workload, and sglist.pc for plain C users (docs/embedding.md); and
# what dmasim_add_scenarios() links into a user's own dmasim: the testbench
# and the command as objects (scenarios register from static initialisers,
# which an archive would drop), and the command line's libraries
# (docs/scenarios.md).
include(CMakePackageConfigHelpers)

foreach(name hw params model driver workload files tb_config traces process cli tb scenario_keys
             command
             scenario_test_main)
  set_target_properties(dmasim_${name} PROPERTIES EXPORT_NAME ${name})
endforeach()
install(TARGETS sglist dmasim_hw dmasim_params dmasim_model dmasim_driver dmasim_workload
                dmasim_files
                dmasim_tb_config dmasim_traces dmasim_process dmasim_cli dmasim_tb dmasim_scenario_keys
                dmasim_command dmasim_scenario_test_main
        EXPORT dmasimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/dmasim/objects
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/hw/include/ ${PROJECT_SOURCE_DIR}/sglist/include/
                  ${PROJECT_SOURCE_DIR}/model/include/
                  ${PROJECT_SOURCE_DIR}/driver/include/ ${PROJECT_SOURCE_DIR}/files/include/
                  ${PROJECT_SOURCE_DIR}/tb/workload/include/ ${PROJECT_SOURCE_DIR}/tb/config/include/
                  ${PROJECT_SOURCE_DIR}/tb/bench/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# Release builds compile fat LTO objects so that dmasim's own links optimise
# across its libraries. A user's link must not re-optimise them (lto-wrapper
# warnings, minutes of LTO per link), so the installed archives and objects
# keep only their machine code.
if(DMASIM_LTO_OBJECTS)
  set(archives "")
  foreach(target sglist dmasim_params dmasim_model dmasim_driver dmasim_workload dmasim_files
                 dmasim_tb_config dmasim_traces
                 dmasim_process dmasim_cli)
    list(APPEND archives "$<TARGET_FILE_NAME:${target}>")
  endforeach()
  install(CODE "
    set(lib \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}\")
    file(GLOB_RECURSE objects \"\${lib}/dmasim/objects/*.o\")
    foreach(archive ${archives})
      list(APPEND objects \"\${lib}/\${archive}\")
    endforeach()
    foreach(file \${objects})
      execute_process(COMMAND \"${CMAKE_OBJCOPY}\" -R .gnu.lto_* -R .gnu.debuglto_*
                              -N __gnu_lto_v1 \${file} RESULT_VARIABLE failed)
      if(failed)
        message(FATAL_ERROR \"cannot strip the LTO sections of \${file}\")
      endif()
    endforeach()")
endif()

set(DMASIM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dmasim)
install(EXPORT dmasimTargets NAMESPACE dmasim:: DESTINATION ${DMASIM_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/dmasimConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/dmasimConfig.cmake
                              INSTALL_DESTINATION ${DMASIM_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dmasimConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/dmasimConfig.cmake
              ${PROJECT_BINARY_DIR}/dmasimConfigVersion.cmake
        DESTINATION ${DMASIM_CMAKE_DIR})

# Relocatable: the prefix is found from the .pc file's own folder, so the
# tree works wherever `cmake --install --prefix` puts it.
file(RELATIVE_PATH SGLIST_PC_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
configure_file(${CMAKE_CURRENT_LIST_DIR}/sglist.pc.in ${PROJECT_BINARY_DIR}/sglist.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/sglist.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
