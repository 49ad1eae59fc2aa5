# The installable package: headers, static libraries, dmasimConfig.cmake
# with the imported targets dmasim::sglist, dmasim::hw, dmasim::model and
# dmasim::driver, and sglist.pc for plain C users (docs/embedding.md).
include(CMakePackageConfigHelpers)

set_target_properties(dmasim_hw PROPERTIES EXPORT_NAME hw)
set_target_properties(dmasim_params PROPERTIES EXPORT_NAME params)
set_target_properties(dmasim_model PROPERTIES EXPORT_NAME model)
set_target_properties(dmasim_driver PROPERTIES EXPORT_NAME driver)
install(TARGETS sglist dmasim_hw dmasim_params dmasim_model dmasim_driver EXPORT dmasimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sglist/include/ ${PROJECT_SOURCE_DIR}/model/include/
                  ${PROJECT_SOURCE_DIR}/tb/driver/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

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
