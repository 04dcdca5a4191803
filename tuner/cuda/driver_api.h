#pragma once
// Run-time binding to the CUDA driver API (libcuda.so.1).
//
// The driver is never linked: liftcc binaries must start on machines without
// an NVIDIA driver (CI, laptops), and the only build-time CUDA dependency is
// the toolkit's NVRTC. So the handful of driver types and entry points that the
// tuner needs are declared here rather than taken from cuda.h, which also keeps
// this layer compiling where the toolkit is absent. The declarations mirror
// CUDA 13's cuda.h; tests/cuda_driver_abi_test.cpp cross-checks the constants
// against cuda.h whenever the toolkit headers are available.
//
// A translation unit that also wants cuda.h must include this header first:
// cuda.h #defines some of the member names below to their versioned symbols
// (e.g. cuEventElapsedTime -> cuEventElapsedTime_v2), which would rename the
// members in that translation unit only.

#include "tuner/backend_error.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

// Opaque handle tags, declared at global scope under cuda.h's own tag names so
// that a translation unit which also includes cuda.h sees one and the same type.
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUevent_st;
struct CUstream_st;

namespace liftcc::cuda {

// Driver API types and constants (subset; values from CUDA 13 cuda.h).
namespace drv {
// cuda.h's CUresult and attribute types are C enums whose values all fit in an
// int; on the x86-64/aarch64 C ABIs they are passed exactly like int.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long; // CUdeviceptr_v2, 64-bit on all supported hosts
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUevent = CUevent_st *;
using CUstream = CUstream_st *;
using CUdevice_attribute = int;
using CUfunction_attribute = int;
using CUjit_option = int;

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
inline constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
inline constexpr CUresult CUDA_ERROR_NOT_READY = 600;

inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81;
inline constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

inline constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
inline constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
inline constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;
inline constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_NUM_REGS = 4;

inline constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER = 3;
inline constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
inline constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
inline constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

inline constexpr unsigned CU_EVENT_DEFAULT = 0;
} // namespace drv

// A failed driver call; what() names the call and the driver's error name.
class CudaError : public tuner::BackendError {
public:
  CudaError(drv::CUresult code, const std::string &message) : tuner::BackendError(message), code_(code) {}
  drv::CUresult code() const noexcept { return code_; }

private:
  drv::CUresult code_;
};

// Thrown by DriverApi::loadOrThrow when the driver cannot be used at all.
class CudaUnavailable : public tuner::BackendError {
public:
  using tuner::BackendError::BackendError;
};

struct DriverLoadResult;

// The resolved driver entry points plus the dlopen handle that keeps them
// valid. Cheap to copy: copies share the handle, which is closed when the last
// copy goes, so no global state is needed and every object that calls into the
// driver (Context, Buffer, ...) simply keeps a copy.
class DriverApi {
public:
  static constexpr const char *kDefaultLibrary = "libcuda.so.1";

  // dlopen()s `library`, resolves every entry point and calls cuInit(0).
  // Never throws for an absent or unusable driver; the reason is in `error`
  // ("no CUDA driver: cannot load libcuda.so.1: <dlerror>", a missing symbol,
  // or cuInit's error such as CUDA_ERROR_NO_DEVICE).
  static DriverLoadResult load(const char *library = kDefaultLibrary);
  // As load(), but throws CudaUnavailable carrying the reason.
  static DriverApi loadOrThrow(const char *library = kDefaultLibrary);

  // e.g. 13000 for CUDA 13.0 (cuDriverGetVersion).
  int driverVersion() const noexcept { return driverVersion_; }
  // Which versioned context-creation entry point is in use ("cuCtxCreate_v2"
  // or, on a driver without it, "cuCtxCreate_v4"), reported for diagnostics.
  const char *ctxCreateSymbol() const noexcept { return cuCtxCreate_v2 ? "cuCtxCreate_v2" : "cuCtxCreate_v4"; }

  // "CUDA_ERROR_INVALID_VALUE" etc., or "CUresult <n>" if the driver has no name.
  std::string errorName(drv::CUresult code) const;
  // Throws CudaError "<what> failed: <name> (<description>)" unless code is success.
  void check(drv::CUresult code, std::string_view what) const;
  // Creates a context with whichever cuCtxCreate version the driver has.
  drv::CUresult ctxCreate(drv::CUcontext *ctx, unsigned flags, drv::CUdevice dev) const;

  // Entry points, named after the exact symbol resolved. Where CUDA versioned
  // an entry point, load() picks one of the versions (see driver_api.cpp) and
  // the member is named after the preferred one, except cuEventElapsedTime,
  // which holds cuEventElapsedTime_v2 where the driver has it.
  drv::CUresult (*cuInit)(unsigned flags) = nullptr;
  drv::CUresult (*cuDriverGetVersion)(int *version) = nullptr;
  drv::CUresult (*cuGetErrorName)(drv::CUresult error, const char **str) = nullptr;
  drv::CUresult (*cuGetErrorString)(drv::CUresult error, const char **str) = nullptr;
  drv::CUresult (*cuDeviceGetCount)(int *count) = nullptr;
  drv::CUresult (*cuDeviceGet)(drv::CUdevice *device, int ordinal) = nullptr;
  drv::CUresult (*cuDeviceGetName)(char *name, int len, drv::CUdevice dev) = nullptr;
  drv::CUresult (*cuDeviceGetAttribute)(int *value, drv::CUdevice_attribute attrib, drv::CUdevice dev) = nullptr;
  drv::CUresult (*cuDeviceTotalMem_v2)(std::size_t *bytes, drv::CUdevice dev) = nullptr;
  // Exactly one of the two context-creation entry points is set; use ctxCreate().
  drv::CUresult (*cuCtxCreate_v2)(drv::CUcontext *ctx, unsigned flags, drv::CUdevice dev) = nullptr;
  // Second parameter is CUctxCreateParams*; only nullptr is ever passed.
  drv::CUresult (*cuCtxCreate_v4)(drv::CUcontext *ctx, void *params, unsigned flags, drv::CUdevice dev) = nullptr;
  drv::CUresult (*cuCtxDestroy_v2)(drv::CUcontext ctx) = nullptr;
  drv::CUresult (*cuCtxSetCurrent)(drv::CUcontext ctx) = nullptr;
  drv::CUresult (*cuCtxSynchronize)() = nullptr;
  drv::CUresult (*cuModuleLoadDataEx)(drv::CUmodule *module, const void *image, unsigned numOptions,
                                      drv::CUjit_option *options, void **optionValues) = nullptr;
  drv::CUresult (*cuModuleUnload)(drv::CUmodule module) = nullptr;
  drv::CUresult (*cuModuleGetFunction)(drv::CUfunction *fn, drv::CUmodule module, const char *name) = nullptr;
  drv::CUresult (*cuFuncGetAttribute)(int *value, drv::CUfunction_attribute attrib, drv::CUfunction fn) = nullptr;
  drv::CUresult (*cuMemAlloc_v2)(drv::CUdeviceptr *ptr, std::size_t bytes) = nullptr;
  drv::CUresult (*cuMemFree_v2)(drv::CUdeviceptr ptr) = nullptr;
  drv::CUresult (*cuMemcpyHtoD_v2)(drv::CUdeviceptr dst, const void *src, std::size_t bytes) = nullptr;
  drv::CUresult (*cuMemcpyDtoH_v2)(void *dst, drv::CUdeviceptr src, std::size_t bytes) = nullptr;
  drv::CUresult (*cuMemcpyDtoD_v2)(drv::CUdeviceptr dst, drv::CUdeviceptr src, std::size_t bytes) = nullptr;
  drv::CUresult (*cuLaunchKernel)(drv::CUfunction fn, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
                                  unsigned blockY, unsigned blockZ, unsigned sharedMemBytes, drv::CUstream stream,
                                  void **params, void **extra) = nullptr;
  drv::CUresult (*cuEventCreate)(drv::CUevent *event, unsigned flags) = nullptr;
  drv::CUresult (*cuEventDestroy_v2)(drv::CUevent event) = nullptr;
  drv::CUresult (*cuEventRecord)(drv::CUevent event, drv::CUstream stream) = nullptr;
  drv::CUresult (*cuEventSynchronize)(drv::CUevent event) = nullptr;
  // CUDA_SUCCESS once the event completed, CUDA_ERROR_NOT_READY before.
  drv::CUresult (*cuEventQuery)(drv::CUevent event) = nullptr;
  // cuEventElapsedTime_v2, or cuEventElapsedTime on drivers older than 12.8.
  drv::CUresult (*cuEventElapsedTime)(float *ms, drv::CUevent start, drv::CUevent end) = nullptr;

private:
  DriverApi() = default;

  std::shared_ptr<void> handle_; // the dlopen handle; dlclose'd with the last copy
  int driverVersion_ = 0;
};

// Outcome of DriverApi::load: the API, or why there is none. Tests and the
// tuner check available() and skip (printing `error`) when it is false.
struct DriverLoadResult {
  std::optional<DriverApi> api;
  std::string error; // empty exactly when api holds a value
  bool available() const noexcept { return api.has_value(); }
  explicit operator bool() const noexcept { return available(); }
};

} // namespace liftcc::cuda
