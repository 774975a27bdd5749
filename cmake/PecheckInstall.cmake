# `cmake --install` puts the libraries, their headers and a CMake package in
# the prefix, so a consumer writes
#   find_package(pecheck REQUIRED)
#   target_link_libraries(app PRIVATE pecheck::properties)
# exactly as when it vendors pecheck. pecheck_options and pecheck_native are
# linked as $<BUILD_INTERFACE:...> only: pecheck's warnings and -march=native
# never reach a consumer.
include(CMakePackageConfigHelpers)

set(PECHECK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/pecheck)
set(pecheck_installed_targets pecheck_core pecheck_reference)
foreach(part IN ITEMS properties validate bench reports)
  if(TARGET pecheck_${part})
    list(APPEND pecheck_installed_targets pecheck_${part})
  endif()
endforeach()

install(TARGETS ${pecheck_installed_targets}
        EXPORT pecheckTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(part IN ITEMS lib reference properties validate bench reports)
  if(EXISTS ${PROJECT_SOURCE_DIR}/${part}/include)
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/${part}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  endif()
endforeach()
if(TARGET pecheck)
  install(TARGETS pecheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

install(EXPORT pecheckTargets NAMESPACE pecheck:: DESTINATION ${PECHECK_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pecheckConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/pecheckConfig.cmake
                              INSTALL_DESTINATION ${PECHECK_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pecheckConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pecheckConfig.cmake ${PROJECT_BINARY_DIR}/pecheckConfigVersion.cmake
        DESTINATION ${PECHECK_INSTALL_CMAKEDIR})
