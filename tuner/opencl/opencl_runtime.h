#pragma once
// RAII wrappers over the OpenCL objects needed to run a generated kernel:
// Context (context + profiling in-order queue for one device), Program,
// Kernel and Buffer. All are move-only; a moved-from object may only be
// destroyed or assigned to. Each object holds its own reference to the
// OpenCL objects it needs (e.g. a Buffer retains the queue it transfers on),
// so destruction order between them does not matter.

#include "core/scalar.h"
#include "tuner/opencl/opencl_api.h"
#include "tuner/opencl/opencl_device.h"
#include "tuner/opencl/opencl_error.h"
#include "tuner/opencl/opencl_handle.h"

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace liftcc::ocl {

class Kernel;

/// A global or local work size of 1 to 3 dimensions. Implicit from a single
/// size so that 1-D launches read `ctx.launch(k, 1024, 64)`.
class NDRange {
public:
  NDRange(std::size_t x) : sizes_{x, 1, 1}, dims_(1) {}
  NDRange(std::size_t x, std::size_t y) : sizes_{x, y, 1}, dims_(2) {}
  NDRange(std::size_t x, std::size_t y, std::size_t z) : sizes_{x, y, z}, dims_(3) {}

  cl_uint dims() const { return dims_; }
  std::size_t operator[](std::size_t i) const { return sizes_.at(i); }
  const std::size_t *data() const { return sizes_.data(); }
  /// Product of all dimensions (number of work-items).
  std::size_t total() const { return sizes_[0] * sizes_[1] * sizes_[2]; }

  friend bool operator==(const NDRange &, const NDRange &) = default;

private:
  std::array<std::size_t, 3> sizes_;
  cl_uint dims_;
};

/// `global` rounded up in every dimension to a multiple of `local`. OpenCL 1.2
/// requires divisibility, so a kernel over n items with a fixed work-group
/// size launches roundUp(n, local) items and guards `if (i < n)`.
NDRange roundUp(const NDRange &global, const NDRange &local);

/// An OpenCL context and an in-order command queue with profiling enabled on
/// one device.
class Context {
public:
  /// Throws std::invalid_argument if the device cannot profile (every launch
  /// is timed) and OpenCLError if the context or queue cannot be created.
  explicit Context(const DeviceInfo &device);

  const DeviceInfo &device() const { return device_; }
  cl_context get() const { return context_.get(); }
  cl_command_queue queue() const { return queue_.get(); }

  /// Runs `kernel` over `global` work-items in groups of `local` (nullopt lets
  /// the runtime choose), waits for it, and returns its execution time in
  /// nanoseconds from the event's CL_PROFILING_COMMAND_START/END: kernel time
  /// only, without queueing or transfers. Throws std::invalid_argument for
  /// malformed ranges (zero sizes, global not a multiple of local, beyond the
  /// device's work-group limits) and OpenCLError when the enqueue or the
  /// kernel itself fails. With a `deadline`, waits for the kernel only until
  /// then and throws LaunchTimeout: OpenCL cannot cancel a kernel, so it may
  /// still be running, and releasing this context would wait for it
  /// (abandon the context instead, see tuner::OpenCLDevice::rebuild).
  std::uint64_t launch(const Kernel &kernel, const NDRange &global, const std::optional<NDRange> &local = std::nullopt,
                       std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);

  /// Blocks until everything enqueued so far has completed.
  void finish();
  /// Whether a launch that timed out is still running.
  bool timedOutKernelRunning() const;

private:
  DeviceInfo device_;
  detail::OwnedContext context_;
  detail::OwnedQueue queue_;
  /// The events of launches that timed out, to learn when they end.
  std::vector<detail::OwnedEvent> timedOut_;
};

/// A kernel did not complete before the deadline of Context::launch.
class LaunchTimeout : public tuner::BackendError {
public:
  using tuner::BackendError::BackendError;
};

/// clBuildProgram failed. what() contains the compiler's full build log.
class BuildError : public OpenCLError {
public:
  BuildError(cl_int code, std::string log, const std::string &detail);
  const std::string &log() const noexcept { return log_; }

private:
  std::string log_;
};

/// A program built from OpenCL C source for the context's device.
class Program {
public:
  /// Throws BuildError (with the build log) when compilation fails.
  Program(const Context &context, std::string_view source, const std::string &options = "");

  cl_program get() const { return program_.get(); }
  /// The build log of a successful build (warnings; often empty).
  const std::string &buildLog() const { return log_; }

private:
  detail::OwnedProgram program_;
  std::string log_;
};

/// A device buffer of a fixed number of bytes. Transfers are blocking.
class Buffer {
public:
  Buffer(const Context &context, std::size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE);

  std::size_t size() const { return size_; }
  cl_mem get() const { return mem_.get(); }

  /// Copies `data` to the device at byte `offset`; std::out_of_range if it
  /// does not fit.
  void upload(std::span<const std::byte> data, std::size_t offset = 0);
  /// Fills `out` from the device starting at byte `offset`.
  void download(std::span<std::byte> out, std::size_t offset = 0) const;

  /// Typed forms: any contiguous range of trivially copyable values, e.g.
  /// `buf.upload(std::vector<float>{...})`, `buf.download(vec)`.
  template <std::ranges::contiguous_range R>
  requires std::is_trivially_copyable_v<std::ranges::range_value_t<R>>
  void upload(const R &data, std::size_t offset = 0) { upload(std::as_bytes(std::span(data)), offset); }
  template <std::ranges::contiguous_range R>
  requires std::is_trivially_copyable_v<std::ranges::range_value_t<R>>
  void download(R &&out, std::size_t offset = 0) const { download(std::as_writable_bytes(std::span(out)), offset); }
  /// The whole buffer as size() / sizeof(T) values.
  template <typename T>
  requires std::is_trivially_copyable_v<T> std::vector<T> download()
  const {
    std::vector<T> out(size_ / sizeof(T));
    download(std::as_writable_bytes(std::span(out)));
    return out;
  }

private:
  detail::OwnedMem mem_;
  // Retained so that transfers need no Context reference.
  detail::OwnedQueue queue_;
  std::size_t size_;
};

/// A kernel of a built program with its arguments.
class Kernel {
public:
  /// Throws OpenCLError (CL_INVALID_KERNEL_NAME) if `name` is not a kernel of
  /// the program. The kernel keeps the program alive on its own.
  Kernel(const Program &program, std::string name);

  cl_kernel get() const { return kernel_.get(); }
  const std::string &name() const { return name_; }
  cl_uint numArgs() const;

  /// A __global/__constant buffer argument. OpenCL does not retain the
  /// buffer: it must outlive every launch that uses it.
  void setArg(cl_uint index, const Buffer &buffer);
  /// Scalar arguments; the C++ type picks the OpenCL one (int, uint, float,
  /// double). Anything else must be converted explicitly, so a size_t cannot
  /// silently become an 8-byte argument of a 4-byte parameter.
  void setArg(cl_uint index, std::int32_t value);
  void setArg(cl_uint index, std::uint32_t value);
  void setArg(cl_uint index, float value);
  void setArg(cl_uint index, double value);
  /// OpenCL forbids bool kernel parameters.
  void setArg(cl_uint index, bool value) = delete;
  /// A liftcc scalar by its kind; std::invalid_argument for Bool.
  void setArg(cl_uint index, const Scalar &value);
  /// A __local argument of `bytes` bytes.
  void setLocalArg(cl_uint index, std::size_t bytes);

  /// setArg(0, a0), setArg(1, a1), ...
  template <typename... Args> void setArgs(const Args &...args) {
    cl_uint index = 0;
    (setArg(index++, args), ...);
  }

private:
  void setRaw(cl_uint index, std::size_t size, const void *value);

  detail::OwnedKernel kernel_;
  std::string name_;
};

} // namespace liftcc::ocl
