#include "tuner/cuda/driver_api.h"

#include <dlfcn.h>

#include <initializer_list>
#include <utility>

namespace liftcc::cuda {
namespace {

// Resolves the first of `names` that the library exports into `fn`. Several
// names are tried where CUDA versioned an entry point: the newest first, so
// that a current driver gets the version its headers select.
template <typename Fn>
bool resolve(void *handle, Fn &fn, std::initializer_list<const char *> names, std::string &missing) {
  for (const char *name : names) {
    if (void *sym = ::dlsym(handle, name)) {
      // POSIX guarantees that a dlsym result converts to a function pointer.
      fn = reinterpret_cast<Fn>(sym);
      return true;
    }
  }
  if (!missing.empty()) missing += ", ";
  missing += *names.begin();
  return false;
}

// Extra hint for a cuInit failure whose usual cause is not obvious.
std::string initHint(drv::CUresult code) {
#if defined(__SANITIZE_ADDRESS__)
  // The driver maps memory inside the range that AddressSanitizer reserves as
  // its shadow gap, so under ASan cuInit fails with OUT_OF_MEMORY.
  if (code == drv::CUDA_ERROR_OUT_OF_MEMORY)
    return " (built with AddressSanitizer: run with ASAN_OPTIONS=protect_shadow_gap=0)";
#endif
  if (code == drv::CUDA_ERROR_STUB_LIBRARY) return " (this is the toolkit's link stub, not a real driver)";
  return {};
}

} // namespace

DriverLoadResult DriverApi::load(const char *library) {
  DriverLoadResult result;
  // dlopen(nullptr) would hand out the main program, whose missing symbols
  // would then be reported instead of the real mistake.
  if (library == nullptr || *library == '\0') {
    result.error = "no CUDA driver: empty library name";
    return result;
  }
  // RTLD_NODELETE: once cuInit has run, the driver owns helper threads and
  // exit-time handlers that point into its code, so unmapping it when our last
  // handle closes could crash the process later. The handle still records
  // ownership (and balances dlopen's reference count); the mapping stays.
  void *raw = ::dlopen(library, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!raw) {
    const char *why = ::dlerror();
    result.error = std::string("no CUDA driver: cannot load ") + library + ": " + (why ? why : "unknown dlopen error");
    return result;
  }

  DriverApi api;
  api.handle_ = std::shared_ptr<void>(raw, [](void *h) { ::dlclose(h); });

  std::string missing;
  void *h = raw;
  resolve(h, api.cuInit, {"cuInit"}, missing);
  resolve(h, api.cuDriverGetVersion, {"cuDriverGetVersion"}, missing);
  resolve(h, api.cuGetErrorName, {"cuGetErrorName"}, missing);
  resolve(h, api.cuGetErrorString, {"cuGetErrorString"}, missing);
  resolve(h, api.cuDeviceGetCount, {"cuDeviceGetCount"}, missing);
  resolve(h, api.cuDeviceGet, {"cuDeviceGet"}, missing);
  resolve(h, api.cuDeviceGetName, {"cuDeviceGetName"}, missing);
  resolve(h, api.cuDeviceGetAttribute, {"cuDeviceGetAttribute"}, missing);
  resolve(h, api.cuDeviceTotalMem_v2, {"cuDeviceTotalMem_v2"}, missing);
  // cuCtxCreate_v2 has been exported since CUDA 3.2 and stays exported so that
  // old binaries keep running, and its meaning is fully specified. CUDA 13's
  // cuda.h maps cuCtxCreate to cuCtxCreate_v4 (an extra CUctxCreateParams*,
  // for execution affinity and graphics interop, neither of which we use), so
  // _v4 is the fallback should a future driver drop _v2. One is enough.
  std::string ignored;
  if (!resolve(h, api.cuCtxCreate_v2, {"cuCtxCreate_v2"}, ignored) &&
      !resolve(h, api.cuCtxCreate_v4, {"cuCtxCreate_v4"}, ignored))
    missing += std::string(missing.empty() ? "" : ", ") + "cuCtxCreate_v2 (or _v4)";
  resolve(h, api.cuCtxDestroy_v2, {"cuCtxDestroy_v2"}, missing);
  resolve(h, api.cuCtxSetCurrent, {"cuCtxSetCurrent"}, missing);
  resolve(h, api.cuCtxSynchronize, {"cuCtxSynchronize"}, missing);
  resolve(h, api.cuModuleLoadDataEx, {"cuModuleLoadDataEx"}, missing);
  resolve(h, api.cuModuleUnload, {"cuModuleUnload"}, missing);
  resolve(h, api.cuModuleGetFunction, {"cuModuleGetFunction"}, missing);
  resolve(h, api.cuFuncGetAttribute, {"cuFuncGetAttribute"}, missing);
  resolve(h, api.cuMemAlloc_v2, {"cuMemAlloc_v2"}, missing);
  resolve(h, api.cuMemFree_v2, {"cuMemFree_v2"}, missing);
  resolve(h, api.cuMemcpyHtoD_v2, {"cuMemcpyHtoD_v2"}, missing);
  resolve(h, api.cuMemcpyDtoH_v2, {"cuMemcpyDtoH_v2"}, missing);
  resolve(h, api.cuMemcpyDtoD_v2, {"cuMemcpyDtoD_v2"}, missing);
  resolve(h, api.cuLaunchKernel, {"cuLaunchKernel"}, missing);
  resolve(h, api.cuEventCreate, {"cuEventCreate"}, missing);
  resolve(h, api.cuEventDestroy_v2, {"cuEventDestroy_v2"}, missing);
  resolve(h, api.cuEventRecord, {"cuEventRecord"}, missing);
  resolve(h, api.cuEventSynchronize, {"cuEventSynchronize"}, missing);
  resolve(h, api.cuEventQuery, {"cuEventQuery"}, missing);
  // _v2 (CUDA 12.8+) computes the same value with the same signature; it only
  // stops reporting errors of unrelated pending work, which we never rely on
  // because timing synchronizes on the end event first.
  resolve(h, api.cuEventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, missing);
  if (!missing.empty()) {
    result.error = std::string("CUDA driver ") + library + " is missing required entry points: " + missing;
    return result;
  }

  if (drv::CUresult rc = api.cuInit(0); rc != drv::CUDA_SUCCESS) {
    result.error =
        std::string("CUDA driver ") + library + " unusable: cuInit failed: " + api.errorName(rc) + initHint(rc);
    return result;
  }
  if (api.cuDriverGetVersion(&api.driverVersion_) != drv::CUDA_SUCCESS) api.driverVersion_ = 0;

  result.api = std::move(api);
  return result;
}

DriverApi DriverApi::loadOrThrow(const char *library) {
  DriverLoadResult r = load(library);
  if (!r) throw CudaUnavailable(r.error);
  return std::move(*r.api);
}

std::string DriverApi::errorName(drv::CUresult code) const {
  const char *name = nullptr;
  if (cuGetErrorName && cuGetErrorName(code, &name) == drv::CUDA_SUCCESS && name) return name;
  return "CUresult " + std::to_string(code);
}

void DriverApi::check(drv::CUresult code, std::string_view what) const {
  if (code == drv::CUDA_SUCCESS) return;
  std::string message(what);
  message += " failed: " + errorName(code);
  const char *description = nullptr;
  if (cuGetErrorString && cuGetErrorString(code, &description) == drv::CUDA_SUCCESS && description)
    message += std::string(" (") + description + ")";
  throw CudaError(code, message);
}

drv::CUresult DriverApi::ctxCreate(drv::CUcontext *ctx, unsigned flags, drv::CUdevice dev) const {
  if (cuCtxCreate_v2) return cuCtxCreate_v2(ctx, flags, dev);
  // No params: neither execution affinity nor graphics interop, i.e. the
  // context cuCtxCreate_v2 would have created.
  return cuCtxCreate_v4(ctx, nullptr, flags, dev);
}

} // namespace liftcc::cuda
