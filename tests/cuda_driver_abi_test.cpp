// driver_api.h declares the driver's types and constants itself (so that
// liftcc builds without cuda.h); this checks them against cuda.h at compile
// time wherever the toolkit headers are on the include path.

// Ours first: cuda.h #defines some member names of DriverApi (see driver_api.h).
#include "tuner/cuda/driver_api.h"

#include <doctest/doctest.h>

#include <type_traits>

#if __has_include(<cuda.h>)
#include <cuda.h>
#define LIFTCC_HAVE_CUDA_H 1

namespace drv = liftcc::cuda::drv;

// The handle types must be the very same types, not just the same size, so
// that code mixing both headers can pass handles without casts.
static_assert(std::is_same_v<drv::CUcontext, ::CUcontext>);
static_assert(std::is_same_v<drv::CUmodule, ::CUmodule>);
static_assert(std::is_same_v<drv::CUfunction, ::CUfunction>);
static_assert(std::is_same_v<drv::CUevent, ::CUevent>);
static_assert(std::is_same_v<drv::CUstream, ::CUstream>);
static_assert(std::is_same_v<drv::CUdevice, ::CUdevice>);
static_assert(std::is_same_v<drv::CUdeviceptr, ::CUdeviceptr>);
// The enums are declared as int: same size and an int underlying type.
static_assert(sizeof(::CUresult) == sizeof(drv::CUresult));
static_assert(sizeof(::CUdevice_attribute) == sizeof(drv::CUdevice_attribute));
static_assert(sizeof(::CUfunction_attribute) == sizeof(drv::CUfunction_attribute));
static_assert(sizeof(::CUjit_option) == sizeof(drv::CUjit_option));

#define LIFTCC_SAME_VALUE(name) static_assert(drv::name == static_cast<int>(::name), #name)
LIFTCC_SAME_VALUE(CUDA_SUCCESS);
LIFTCC_SAME_VALUE(CUDA_ERROR_OUT_OF_MEMORY);
LIFTCC_SAME_VALUE(CUDA_ERROR_STUB_LIBRARY);
LIFTCC_SAME_VALUE(CUDA_ERROR_NO_DEVICE);
LIFTCC_SAME_VALUE(CUDA_ERROR_UNSUPPORTED_PTX_VERSION);
LIFTCC_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
LIFTCC_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
LIFTCC_SAME_VALUE(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
LIFTCC_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
LIFTCC_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
LIFTCC_SAME_VALUE(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
LIFTCC_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
LIFTCC_SAME_VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
LIFTCC_SAME_VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
LIFTCC_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
LIFTCC_SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
LIFTCC_SAME_VALUE(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
LIFTCC_SAME_VALUE(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
LIFTCC_SAME_VALUE(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
LIFTCC_SAME_VALUE(CU_FUNC_ATTRIBUTE_NUM_REGS);
LIFTCC_SAME_VALUE(CU_JIT_INFO_LOG_BUFFER);
LIFTCC_SAME_VALUE(CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES);
LIFTCC_SAME_VALUE(CU_JIT_ERROR_LOG_BUFFER);
LIFTCC_SAME_VALUE(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
LIFTCC_SAME_VALUE(CU_EVENT_DEFAULT);
#undef LIFTCC_SAME_VALUE
#else
#define LIFTCC_HAVE_CUDA_H 0
#endif

TEST_CASE("cuda.driver: declarations match cuda.h") {
  if (!LIFTCC_HAVE_CUDA_H) {
    MESSAGE("skipping: cuda.h is not on the include path");
    return;
  }
  CHECK(true); // the static_asserts above did the checking
}
