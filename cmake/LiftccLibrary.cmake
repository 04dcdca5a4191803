# liftcc_add_library(<name> DEPS <targets...> [EXCLUDE <subdirs...>] [INCLUDE_DIRS <dirs...>])
# Builds every .cpp below the current source directory into a static library,
# except those below the EXCLUDE subdirectories, plus every .cpp below the
# INCLUDE_DIRS (paths relative to the project root): that is how a directory
# is built into the library whose layer it belongs to.
# A directory without sources yet becomes an INTERFACE library so that the
# dependency graph can be declared before the code exists.
# Every library is recorded in the global property LIFTCC_LIBRARIES, which
# cmake/LiftccInstall.cmake installs (headers included) and exports.
function(liftcc_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPS;EXCLUDE;INCLUDE_DIRS" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.cpp")
  foreach(dir IN LISTS ARG_EXCLUDE)
    list(FILTER sources EXCLUDE REGEX "^${CMAKE_CURRENT_SOURCE_DIR}/${dir}/")
  endforeach()
  foreach(dir IN LISTS ARG_INCLUDE_DIRS)
    file(GLOB_RECURSE extra CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/${dir}/*.cpp")
    list(APPEND sources ${extra})
  endforeach()
  # Sources include "dir/file.h" from the project root; installed, the same
  # paths are below include/liftcc.
  set(includes $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}> $<INSTALL_INTERFACE:include/liftcc>)
  if(sources)
    add_library(${name} STATIC ${sources})
    target_include_directories(${name} PUBLIC ${includes})
    target_link_libraries(${name} PUBLIC ${ARG_DEPS})
    if(LIFTCC_PRECOMPILED_HEADERS)
      # The standard headers every layer uses and the IR every layer is
      # built on (the top-level CMakeLists.txt says which builds use this).
      target_precompile_headers(${name} PRIVATE <algorithm> <functional> <map> <memory> <optional> <set> <sstream>
                                <stdexcept> <string> <vector> "${PROJECT_SOURCE_DIR}/core/ir/expr.h")
    endif()
  else()
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE ${includes})
    target_link_libraries(${name} INTERFACE ${ARG_DEPS})
  endif()
  set_property(GLOBAL APPEND PROPERTY LIFTCC_LIBRARIES ${name})
endfunction()
