# `cmake --install` puts the libraries, their headers and a CMake package in
# the prefix, so a consumer writes
#   find_package(pecheck REQUIRED)
#   target_link_libraries(app PRIVATE pecheck::properties)
# exactly as when it vendors pecheck. pecheck_options and pecheck_native are
# linked as $<BUILD_INTERFACE:...> only: pecheck's warnings and -march=native
# never reach a consumer.
include(CMakePackageConfigHelpers)

if(PECHECK_NATIVE)
  install(CODE "message(WARNING \"pecheck was built with PECHECK_NATIVE=ON: the installed libraries use this machine's vector instructions and may not run elsewhere; configure with -DPECHECK_NATIVE=OFF for a portable install\")")
endif()

set(PECHECK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/pecheck)
# The parts are those pecheck_add_part made (PecheckParts.cmake), all in one
# export set: install(EXPORT) refuses a part that links a part left out of it.
# Each one's headers are its include/ directory.
get_property(pecheck_parts GLOBAL PROPERTY PECHECK_PARTS)
install(TARGETS ${pecheck_parts}
        EXPORT pecheckTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(part IN LISTS pecheck_parts)
  get_target_property(part_dir ${part} SOURCE_DIR)
  install(DIRECTORY ${part_dir}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
if(TARGET pecheck)
  install(TARGETS pecheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
# The training family's executable goes beside pecheck, where `pecheck report
# --training` and `pecheck check training/...` look for it. Its library is
# linked into it and not exported: a consumer of the libraries need not have
# libtorch (the family exists only where it was found, training/CMakeLists.txt).
if(TARGET pecheck-training)
  install(TARGETS pecheck-training RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

install(EXPORT pecheckTargets NAMESPACE pecheck:: DESTINATION ${PECHECK_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pecheckConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/pecheckConfig.cmake
                              INSTALL_DESTINATION ${PECHECK_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pecheckConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pecheckConfig.cmake ${PROJECT_BINARY_DIR}/pecheckConfigVersion.cmake
        DESTINATION ${PECHECK_INSTALL_CMAKEDIR})
