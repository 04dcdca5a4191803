# NVRTC detection for the CUDA backend (included from tuner/CMakeLists.txt
# after liftcc_tuner exists).
#
# LIFTCC_NVRTC = AUTO (default): use NVRTC if it is found
#                ON: require it (configure fails without it)
#                OFF: compile CUDA kernel compilation out
# liftcc_tuner always gets LIFTCC_HAVE_NVRTC=0|1 as a PUBLIC definition, so
# tests can tell a build without NVRTC (and skip) from a broken one.
#
# Search order: find_package(CUDAToolkit), then nvrtc.h / libnvrtc under
# $CUDA_PATH and /usr/local/cuda (CUDA_PATH is what NVIDIA's installers set;
# the fallback covers toolkits that FindCUDAToolkit misses, e.g. no nvcc on
# PATH and no CUDAToolkit_ROOT).
#
# Only NVRTC is linked. The driver (libcuda.so.1) is dlopen'ed at run time by
# tuner/cuda/driver_api.cpp, so liftcc binaries start on machines without an
# NVIDIA driver. That is also why the CUDA::nvrtc target is not used: in
# FindCUDAToolkit it depends on CUDA::cuda_driver, which links the toolkit's
# libcuda stub and so would make every binary need libcuda.so.1 at start-up.
# We take the library path FindCUDAToolkit found and wrap it ourselves.
set(LIFTCC_NVRTC AUTO CACHE STRING "Compile CUDA kernels with NVRTC: AUTO, ON or OFF")
set_property(CACHE LIFTCC_NVRTC PROPERTY STRINGS AUTO ON OFF)

set(liftcc_have_nvrtc 0)
if(NOT LIFTCC_NVRTC STREQUAL "OFF")
  find_package(CUDAToolkit QUIET)
  if(CUDAToolkit_FOUND AND CUDA_nvrtc_LIBRARY)
    set(liftcc_nvrtc_library "${CUDA_nvrtc_LIBRARY}")
    set(liftcc_nvrtc_include "${CUDAToolkit_INCLUDE_DIRS}")
    set(liftcc_nvrtc_via "CUDAToolkit ${CUDAToolkit_VERSION}")
  else()
    # HINTS, not PATHS: the toolkit's own copy wins over any in system paths.
    find_library(LIFTCC_NVRTC_LIBRARY NAMES nvrtc
      HINTS ENV CUDA_PATH /usr/local/cuda PATH_SUFFIXES lib64 lib)
    find_path(LIFTCC_NVRTC_INCLUDE_DIR NAMES nvrtc.h
      HINTS ENV CUDA_PATH /usr/local/cuda PATH_SUFFIXES include)
    if(LIFTCC_NVRTC_LIBRARY AND LIFTCC_NVRTC_INCLUDE_DIR)
      set(liftcc_nvrtc_library "${LIFTCC_NVRTC_LIBRARY}")
      set(liftcc_nvrtc_include "${LIFTCC_NVRTC_INCLUDE_DIR}")
      set(liftcc_nvrtc_via "find_library")
    endif()
  endif()

  if(liftcc_nvrtc_library)
    add_library(liftcc_nvrtc SHARED IMPORTED GLOBAL)
    set_target_properties(liftcc_nvrtc PROPERTIES
      IMPORTED_LOCATION "${liftcc_nvrtc_library}"
      INTERFACE_INCLUDE_DIRECTORIES "${liftcc_nvrtc_include}")
    target_link_libraries(liftcc_tuner PUBLIC liftcc_nvrtc)
    set(liftcc_have_nvrtc 1)
  elseif(LIFTCC_NVRTC STREQUAL "ON")
    message(FATAL_ERROR "LIFTCC_NVRTC=ON but no NVRTC was found (tried "
      "find_package(CUDAToolkit), then $CUDA_PATH and /usr/local/cuda)")
  endif()
endif()

target_compile_definitions(liftcc_tuner PUBLIC LIFTCC_HAVE_NVRTC=${liftcc_have_nvrtc})
if(liftcc_have_nvrtc)
  message(STATUS "liftcc: CUDA kernels via NVRTC (${liftcc_nvrtc_via}: ${liftcc_nvrtc_library})")
else()
  message(STATUS "liftcc: built without NVRTC (LIFTCC_NVRTC=${LIFTCC_NVRTC}); CUDA compilation disabled")
endif()
