# The installable CMake package of the C++ client: `find_package(ktune)` and link
# `ktune::client` (clients/cpp/README.md). It carries the static libraries the client is made
# of (the families' host code in kernels/ and workload/, which the daemon links too; gpu/ for
# NVRTC and the run-time loaded driver; the HTTP client) and their headers under
# include/ktune, keeping their folders so that the headers' own includes resolve.
include(CMakePackageConfigHelpers)

set(ktune_package_dir lib/cmake/ktune)
set_target_properties(ktune_workload PROPERTIES EXPORT_NAME workload)
set_target_properties(ktune_kernels PROPERTIES EXPORT_NAME kernels)
set_target_properties(ktune_gpu PROPERTIES EXPORT_NAME gpu)
set_target_properties(ktune_client PROPERTIES EXPORT_NAME http_client)
set_target_properties(nvrtc_only PROPERTIES EXPORT_NAME nvrtc)
set_target_properties(httplib_shared PROPERTIES EXPORT_NAME httplib)

install(TARGETS ktune_cpp_client ktune_client ktune_gpu ktune_kernels ktune_workload nvrtc_only httplib_shared
        EXPORT ktuneTargets ARCHIVE DESTINATION lib)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/clients/cpp/include/ DESTINATION include)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/workload ${PROJECT_SOURCE_DIR}/kernels DESTINATION include/ktune
        FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_SOURCE_DIR}/clients/ktune_client.h DESTINATION include/ktune/clients)
install(EXPORT ktuneTargets NAMESPACE ktune:: DESTINATION ${ktune_package_dir})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ktuneConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/ktuneConfig.cmake INSTALL_DESTINATION ${ktune_package_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ktuneConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ktuneConfig.cmake ${PROJECT_BINARY_DIR}/ktuneConfigVersion.cmake
        DESTINATION ${ktune_package_dir})
