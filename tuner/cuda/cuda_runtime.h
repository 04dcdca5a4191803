#pragma once
// RAII wrappers over the dlopen'ed driver API: device queries, a context per
// device, modules loaded from PTX, kernels, device buffers and launches.
//
// Lifetimes: Module, Function and Buffer each keep the context they were
// created in alive (shared ownership of the context state), so destroying a
// Context handle first is safe; the CUDA context goes with its last user.
// Every operation makes its context current on the calling thread first, so
// several contexts (and threads) can be used without manual cuCtxSetCurrent.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "tuner/cuda/driver_api.h"

namespace liftcc::cuda {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int computeMajor = 0;
  int computeMinor = 0;
  int multiprocessorCount = 0;
  int maxThreadsPerBlock = 0;
  int maxThreadsPerMultiprocessor = 0;
  int warpSize = 0;
  int sharedMemPerBlock = 0;      // bytes available without opt-in
  int sharedMemPerBlockOptin = 0; // bytes with cuFuncSetAttribute opt-in
  int sharedMemPerMultiprocessor = 0;
  int registersPerBlock = 0;
  int l2CacheBytes = 0;
  std::size_t totalMemoryBytes = 0;

  // NVRTC architecture for this device, e.g. "sm_90".
  std::string arch() const;
};

// Number of CUDA devices visible to the driver.
int deviceCount(const DriverApi &api);
// Queries device `index`; throws CudaError for an invalid index.
DeviceInfo queryDevice(const DriverApi &api, int index);

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  std::uint64_t count() const { return std::uint64_t{x} * y * z; }
};

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  unsigned dynamicSharedBytes = 0;
};

namespace detail {
struct ContextState;
struct ModuleState;
} // namespace detail

class Buffer;
class Module;

// A CUDA context on one device.
class Context {
public:
  explicit Context(DriverApi api, int deviceIndex = 0);

  const DriverApi &api() const;
  const DeviceInfo &device() const;
  void makeCurrent() const;
  // Waits for all work queued in this context; rethrows asynchronous errors.
  void synchronize() const;

  // Loads PTX (or a cubin) into this context; the driver JIT-compiles PTX for
  // the device. Throws CudaError with the JIT's error log on failure.
  Module loadModule(std::string_view ptx) const;
  Buffer allocate(std::size_t bytes) const;

private:
  friend class Function;
  explicit Context(std::shared_ptr<detail::ContextState> state) : state_(std::move(state)) {}

  std::shared_ptr<detail::ContextState> state_;
};

// A kernel entry point of a loaded module. Copyable; keeps the module loaded.
class Function {
public:
  const std::string &name() const { return name_; }
  drv::CUfunction handle() const { return fn_; }
  // Limits of this compiled kernel (registers and shared memory use can make
  // maxThreadsPerBlock smaller than the device's).
  int maxThreadsPerBlock() const { return maxThreadsPerBlock_; }
  int numRegisters() const { return numRegisters_; }
  int staticSharedBytes() const { return staticSharedBytes_; }
  int localBytes() const { return localBytes_; }

  // The context the kernel was loaded into (a handle sharing it).
  Context context() const;

private:
  friend class Module;
  Function() = default;

  std::shared_ptr<detail::ModuleState> module_;
  std::string name_;
  drv::CUfunction fn_ = nullptr;
  int maxThreadsPerBlock_ = 0;
  int numRegisters_ = 0;
  int staticSharedBytes_ = 0;
  int localBytes_ = 0;
};

class Module {
public:
  // Throws CudaError if the module has no kernel `name` (use extern "C" in
  // generated code, or the mangled name).
  Function function(const std::string &name) const;
  // The JIT's informational log from loading (may be empty).
  const std::string &jitLog() const;

private:
  friend class Context;
  explicit Module(std::shared_ptr<detail::ModuleState> state) : state_(std::move(state)) {}

  std::shared_ptr<detail::ModuleState> state_;
};

// Device memory. Move-only: exactly one owner frees the allocation.
class Buffer {
public:
  Buffer(Buffer &&other) noexcept;
  Buffer &operator=(Buffer &&other) noexcept;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer();

  std::size_t size() const { return bytes_; }
  drv::CUdeviceptr handle() const { return ptr_; }

  // Synchronous copies; offsets and sizes in bytes, bounds-checked.
  void upload(const void *src, std::size_t bytes, std::size_t offset = 0);
  void download(void *dst, std::size_t bytes, std::size_t offset = 0) const;
  // Copies all of `src` (same size required) on the device.
  void copyFrom(const Buffer &src);

  template <typename T> void upload(std::span<const T> values) {
    static_assert(std::is_trivially_copyable_v<T>);
    upload(values.data(), values.size_bytes());
  }
  template <typename T> void upload(const std::vector<T> &values) { upload(std::span<const T>(values)); }
  template <typename T> std::vector<T> download() const {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<T> values(bytes_ / sizeof(T));
    download(values.data(), values.size() * sizeof(T));
    return values;
  }

private:
  friend class Context;
  Buffer(std::shared_ptr<detail::ContextState> ctx, drv::CUdeviceptr ptr, std::size_t bytes)
      : ctx_(std::move(ctx)), ptr_(ptr), bytes_(bytes) {}
  void release() noexcept;

  std::shared_ptr<detail::ContextState> ctx_;
  drv::CUdeviceptr ptr_ = 0;
  std::size_t bytes_ = 0;
};

// One kernel argument, held by value. Implicit constructors let calls read
// launch(f, cfg, {in, out, n, 0.5f}). The type must match the kernel
// parameter exactly: a std::size_t does not convert (ambiguous on purpose);
// cast it to the parameter's type.
class KernelArg {
public:
  KernelArg(const Buffer &buffer) : value_(buffer.handle()) {}
  KernelArg(int v) : value_(v) {}
  KernelArg(unsigned v) : value_(v) {}
  KernelArg(std::int64_t v) : value_(v) {}
  KernelArg(float v) : value_(v) {}
  KernelArg(double v) : value_(v) {}
  // A raw device address, e.g. an offset into a Buffer.
  static KernelArg pointer(drv::CUdeviceptr p) { return KernelArg(Ptr{p}); }

  // Address of the stored value, as cuLaunchKernel's kernelParams wants it.
  const void *address() const;
  std::size_t size() const;

private:
  struct Ptr {
    drv::CUdeviceptr value;
  };
  explicit KernelArg(Ptr p) : value_(p.value) {}

  std::variant<drv::CUdeviceptr, int, unsigned, std::int64_t, float, double> value_;
};

// A launch validated and marshalled once, to be enqueued many times: timing
// loops then spend as little host time as possible between their events.
// Holds copies of the arguments, so it does not depend on `args` afterwards.
class PreparedLaunch {
public:
  // Throws std::invalid_argument for an empty grid/block or a block larger
  // than the kernel allows.
  PreparedLaunch(Function fn, const LaunchConfig &config, std::vector<KernelArg> args);
  PreparedLaunch(const PreparedLaunch &) = delete; // params_ points into args_
  PreparedLaunch &operator=(const PreparedLaunch &) = delete;

  // Enqueues one launch on the context's default stream; does not wait.
  // Throws CudaError if the driver rejects the launch.
  void enqueue() const;
  const Function &function() const { return fn_; }

private:
  Function fn_;
  LaunchConfig config_;
  std::vector<KernelArg> args_;
  std::vector<void *> params_; // cuLaunchKernel's kernelParams: &args_[i]'s value
};

// Validates and enqueues one launch on the context's default stream; does not
// wait. Throws like PreparedLaunch and PreparedLaunch::enqueue.
void launch(const Function &fn, const LaunchConfig &config, const std::vector<KernelArg> &args);

} // namespace liftcc::cuda
