# cmake --install: the headers, the static libraries and liftc, with a CMake
# package (find_package(liftcc) gives liftcc::liftcc) and liftcc.pc.
# Included at the end of the top-level CMakeLists.txt, once every library
# exists.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

get_property(liftcc_libraries GLOBAL PROPERTY LIFTCC_LIBRARIES)
# The benchmark harness is liftc's own, and with Halide it links objects that
# exist only in the build tree.
list(REMOVE_ITEM liftcc_libraries liftcc_bench)
# Libraries of this project that those link but that were declared without
# liftcc_add_library must be exported too (install(EXPORT) fails otherwise).
set(liftcc_pending ${liftcc_libraries})
while(liftcc_pending)
  list(POP_FRONT liftcc_pending library)
  get_target_property(dependencies ${library} INTERFACE_LINK_LIBRARIES)
  foreach(dependency IN LISTS dependencies)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" dependency "${dependency}")
    if(TARGET ${dependency} AND NOT dependency IN_LIST liftcc_libraries)
      get_target_property(imported ${dependency} IMPORTED)
      get_target_property(aliased ${dependency} ALIASED_TARGET)
      if(NOT imported AND NOT aliased)
        list(APPEND liftcc_libraries ${dependency})
        list(APPEND liftcc_pending ${dependency})
      endif()
    endif()
  endforeach()
endwhile()

# The umbrella target consumers link: every library, C++20, and (in a
# sanitizer build) the sanitizer runtimes the instrumented archives need.
add_library(liftcc INTERFACE)
add_library(liftcc::liftcc ALIAS liftcc)
target_link_libraries(liftcc INTERFACE ${liftcc_libraries})
target_compile_features(liftcc INTERFACE cxx_std_20)
set(liftcc_sanitize_flags "")
if(LIFTCC_SANITIZE)
  set(liftcc_sanitize_flags -fsanitize=address,undefined)
  target_link_options(liftcc INTERFACE ${liftcc_sanitize_flags})
endif()

install(TARGETS ${liftcc_libraries} liftcc EXPORT liftccTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# liftc finds NVRTC (outside the system paths) where it was linked from.
set_target_properties(liftc PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)
install(TARGETS liftc RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Headers keep their paths below include/liftcc ("core/ir/expr.h").
foreach(library IN LISTS liftcc_libraries)
  get_target_property(directory ${library} SOURCE_DIR)
  file(RELATIVE_PATH relative "${PROJECT_SOURCE_DIR}" "${directory}")
  install(DIRECTORY "${directory}/" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/liftcc/${relative}"
    FILES_MATCHING PATTERN "*.h")
endforeach()
install(FILES "${PROJECT_SOURCE_DIR}/liftcc/version.h" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/liftcc/liftcc")

# The CMake package.
set(liftcc_cmake_dir "${CMAKE_INSTALL_LIBDIR}/cmake/liftcc")
set(LIFTCC_CONFIG_NVRTC 0)
if(TARGET liftcc_nvrtc)
  set(LIFTCC_CONFIG_NVRTC 1)
  get_target_property(LIFTCC_CONFIG_NVRTC_LIBRARY liftcc_nvrtc IMPORTED_LOCATION)
  get_target_property(LIFTCC_CONFIG_NVRTC_INCLUDE liftcc_nvrtc INTERFACE_INCLUDE_DIRECTORIES)
endif()
install(EXPORT liftccTargets NAMESPACE liftcc:: DESTINATION "${liftcc_cmake_dir}")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/liftccConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/liftccConfig.cmake" INSTALL_DESTINATION "${liftcc_cmake_dir}")
# 0.x: a minor version may change the API.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/liftccConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/liftccConfig.cmake" "${PROJECT_BINARY_DIR}/liftccConfigVersion.cmake"
  DESTINATION "${liftcc_cmake_dir}")

# pkg-config: the archives as one group (their order then does not matter).
set(LIFTCC_PC_LIBS "")
foreach(library IN LISTS liftcc_libraries)
  get_target_property(type ${library} TYPE)
  if(type STREQUAL "STATIC_LIBRARY")
    string(APPEND LIFTCC_PC_LIBS " -l${library}")
  endif()
endforeach()
string(STRIP "${LIFTCC_PC_LIBS}" LIFTCC_PC_LIBS)
get_target_property(liftcc_tuner_definitions liftcc_tuner INTERFACE_COMPILE_DEFINITIONS)
set(LIFTCC_PC_CFLAGS "")
foreach(definition IN LISTS liftcc_tuner_definitions)
  string(APPEND LIFTCC_PC_CFLAGS " -D${definition}")
endforeach()
set(LIFTCC_PC_EXTRA_LIBS "${CMAKE_DL_LIBS}")
if(LIFTCC_PC_EXTRA_LIBS)
  set(LIFTCC_PC_EXTRA_LIBS "-l${LIFTCC_PC_EXTRA_LIBS}")
endif()
if(LIFTCC_CONFIG_NVRTC)
  get_filename_component(nvrtc_dir "${LIFTCC_CONFIG_NVRTC_LIBRARY}" DIRECTORY)
  string(APPEND LIFTCC_PC_CFLAGS " -I${LIFTCC_CONFIG_NVRTC_INCLUDE}")
  string(APPEND LIFTCC_PC_EXTRA_LIBS " ${LIFTCC_CONFIG_NVRTC_LIBRARY} -Wl,-rpath,${nvrtc_dir}")
endif()
if(liftcc_sanitize_flags)
  string(APPEND LIFTCC_PC_EXTRA_LIBS " ${liftcc_sanitize_flags}")
endif()
string(STRIP "${LIFTCC_PC_CFLAGS}" LIFTCC_PC_CFLAGS)
configure_file("${PROJECT_SOURCE_DIR}/cmake/liftcc.pc.in" "${PROJECT_BINARY_DIR}/liftcc.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/liftcc.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
