#include "tuner/opencl/opencl_runtime.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

namespace liftcc::ocl {

// ---------------------------------------------------------------- NDRange

NDRange roundUp(const NDRange &global, const NDRange &local) {
  if (global.dims() != local.dims())
    throw std::invalid_argument("roundUp: global and local ranges differ in "
                                "dimensions");
  std::array<std::size_t, 3> sizes{};
  for (std::size_t i = 0; i < 3; ++i) {
    if (local[i] == 0) throw std::invalid_argument("roundUp: local size 0");
    sizes[i] = (global[i] + local[i] - 1) / local[i] * local[i];
  }
  switch (global.dims()) {
  case 1: return NDRange(sizes[0]);
  case 2: return NDRange(sizes[0], sizes[1]);
  default: return NDRange(sizes[0], sizes[1], sizes[2]);
  }
}

namespace {

std::string formatRange(const NDRange &r) {
  std::string s = "(";
  for (cl_uint i = 0; i < r.dims(); ++i) s += (i ? ", " : "") + std::to_string(r[i]);
  return s + ")";
}

/// Rejects ranges that OpenCL would answer with a bare
/// CL_INVALID_WORK_GROUP_SIZE / CL_INVALID_GLOBAL_WORK_SIZE /
/// CL_INVALID_WORK_ITEM_SIZE, with a message that shows the offending sizes
/// and the device limit. Kernel-specific limits (CL_KERNEL_WORK_GROUP_SIZE,
/// which depends on register and local-memory use) are left to the driver.
void validateRanges(const DeviceInfo &device, const std::string &kernel, const NDRange &global,
                    const std::optional<NDRange> &local) {
  auto fail = [&](const std::string &why) {
    std::string msg = "launch of kernel " + kernel + ": " + why + " (global " + formatRange(global);
    if (local) msg += ", local " + formatRange(*local);
    throw std::invalid_argument(msg + ")");
  };
  if (global.total() == 0) fail("global size 0");
  if (!device.maxWorkItemSizes.empty() && global.dims() > device.maxWorkItemSizes.size())
    fail("the device supports at most " + std::to_string(device.maxWorkItemSizes.size()) + " dimensions");
  if (!local) return;
  if (local->dims() != global.dims()) fail("global and local ranges differ in dimensions");
  for (cl_uint i = 0; i < global.dims(); ++i) {
    if ((*local)[i] == 0) fail("local size 0");
    if (global[i] % (*local)[i] != 0)
      fail("global size is not a multiple of the local size; use roundUp() "
           "and guard the kernel");
    if (i < device.maxWorkItemSizes.size() && (*local)[i] > device.maxWorkItemSizes[i])
      fail("local size in dimension " + std::to_string(i) + " exceeds the device's maximum of " +
           std::to_string(device.maxWorkItemSizes[i]));
  }
  if (device.maxWorkGroupSize != 0 && local->total() > device.maxWorkGroupSize)
    fail("work-group of " + std::to_string(local->total()) + " items exceeds the device's maximum of " +
         std::to_string(device.maxWorkGroupSize));
}

/// The completion of one command, shared by the waiting thread and the
/// runtime's callback, which may fire long after a waiter gave up.
struct Completion {
  std::mutex mutex;
  std::condition_variable done;
  std::optional<cl_int> status;
};

void CL_CALLBACK onComplete(cl_event, cl_int status, void *data) {
  // The callback owns its reference: the waiter may be gone.
  std::unique_ptr<std::shared_ptr<Completion>> completion(static_cast<std::shared_ptr<Completion> *>(data));
  {
    std::lock_guard lock((*completion)->mutex);
    (*completion)->status = status;
  }
  (*completion)->done.notify_all();
}

/// Waits for `event` until `deadline`: true when it completed (successfully
/// or not), false when the deadline passed first. A callback rather than
/// polling, so that a CPU device (PoCL) loses no host time to the wait.
bool waitUntil(cl_event event, cl_command_queue queue, std::chrono::steady_clock::time_point deadline) {
  auto completion = std::make_shared<Completion>();
  auto *reference = new std::shared_ptr<Completion>(completion);
  cl_int status = clSetEventCallback(event, CL_COMPLETE, onComplete, reference);
  if (status != CL_SUCCESS) {
    delete reference;
    check(status, "clSetEventCallback");
  }
  check(clFlush(queue), "clFlush");
  std::unique_lock lock(completion->mutex);
  return completion->done.wait_until(lock, deadline, [&] { return completion->status.has_value(); });
}

std::uint64_t profilingTime(cl_event event, cl_profiling_info what) {
  cl_ulong t = 0;
  check(clGetEventProfilingInfo(event, what, sizeof t, &t, nullptr), "clGetEventProfilingInfo");
  return t;
}

} // namespace

// ---------------------------------------------------------------- Context

Context::Context(const DeviceInfo &device) : device_(device) {
  // Every kernel time comes from profiling events; say so up front rather
  // than failing later with CL_INVALID_QUEUE_PROPERTIES.
  if (!device.profiling)
    throw std::invalid_argument("OpenCL device " + describe(device) + " cannot profile command queues");
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(device.platformId), 0};
  cl_int status = CL_SUCCESS;
  context_.reset(clCreateContext(props, 1, &device.deviceId, nullptr, nullptr, &status));
  check(status, "clCreateContext");
  // In-order so that a launch's event brackets exactly that kernel; profiling
  // because kernel times are read from events, not host clocks.
  queue_.reset(clCreateCommandQueue(context_.get(), device.deviceId, CL_QUEUE_PROFILING_ENABLE, &status));
  check(status, "clCreateCommandQueue");
}

std::uint64_t Context::launch(const Kernel &kernel, const NDRange &global, const std::optional<NDRange> &local,
                              std::optional<std::chrono::steady_clock::time_point> deadline) {
  validateRanges(device_, kernel.name(), global, local);
  cl_event raw = nullptr;
  cl_int status = clEnqueueNDRangeKernel(queue_.get(), kernel.get(), global.dims(), nullptr, global.data(),
                                         local ? local->data() : nullptr, 0, nullptr, &raw);
  if (status != CL_SUCCESS)
    throw OpenCLError(status, "clEnqueueNDRangeKernel",
                      "kernel " + kernel.name() + ", global " + formatRange(global) +
                          (local ? ", local " + formatRange(*local) : ""));
  detail::OwnedEvent event(raw);

  if (deadline && !waitUntil(raw, queue_.get(), *deadline)) {
    timedOut_.push_back(std::move(event));
    throw LaunchTimeout("kernel " + kernel.name() + " did not complete in time (global " + formatRange(global) + ")");
  }
  if (clWaitForEvents(1, &raw) != CL_SUCCESS) {
    // The wait only says "something failed"; the event's status is the
    // actual error of the kernel (e.g. CL_OUT_OF_RESOURCES).
    cl_int exec = CL_SUCCESS;
    check(clGetEventInfo(raw, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof exec, &exec, nullptr), "clGetEventInfo");
    throw OpenCLError(exec < 0 ? exec : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "kernel " + kernel.name());
  }
  const auto start = profilingTime(raw, CL_PROFILING_COMMAND_START);
  const auto end = profilingTime(raw, CL_PROFILING_COMMAND_END);
  return end > start ? end - start : 0;
}

void Context::finish() { check(clFinish(queue_.get()), "clFinish"); }

bool Context::timedOutKernelRunning() const {
  for (const detail::OwnedEvent &event : timedOut_) {
    cl_int status = CL_COMPLETE;
    check(clGetEventInfo(event.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr),
          "clGetEventInfo");
    if (status > CL_COMPLETE) return true; // queued, submitted or running; negative: failed, so over
  }
  return false;
}

// ---------------------------------------------------------------- Program

BuildError::BuildError(cl_int code, std::string log, const std::string &detail)
    : OpenCLError(code, "clBuildProgram", detail), log_(std::move(log)) {}

namespace {
std::string queryBuildLog(cl_program program, cl_device_id device) {
  std::size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS) return {};
  std::string log(size, '\0');
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr) != CL_SUCCESS) return {};
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}
} // namespace

Program::Program(const Context &context, std::string_view source, const std::string &options) {
  const char *text = source.data();
  const std::size_t length = source.size();
  cl_int status = CL_SUCCESS;
  program_.reset(clCreateProgramWithSource(context.get(), 1, &text, &length, &status));
  check(status, "clCreateProgramWithSource");

  cl_device_id device = context.device().deviceId;
  status = clBuildProgram(program_.get(), 1, &device, options.c_str(), nullptr, nullptr);
  log_ = queryBuildLog(program_.get(), device);
  if (status != CL_SUCCESS) {
    std::string detail = "build options: \"" + options + "\"\nbuild log (" + context.device().name + "):\n" +
                         (log_.empty() ? "<empty>" : log_);
    throw BuildError(status, log_, detail);
  }
}

// ---------------------------------------------------------------- Buffer

Buffer::Buffer(const Context &context, std::size_t bytes, cl_mem_flags flags) : size_(bytes) {
  cl_int status = CL_SUCCESS;
  mem_.reset(clCreateBuffer(context.get(), flags, bytes, nullptr, &status));
  if (status != CL_SUCCESS) throw OpenCLError(status, "clCreateBuffer", "size " + std::to_string(bytes) + " bytes");
  check(clRetainCommandQueue(context.queue()), "clRetainCommandQueue");
  queue_.reset(context.queue());
}

namespace {
void checkRange(const char *what, std::size_t offset, std::size_t bytes, std::size_t size) {
  if (offset > size || bytes > size - offset)
    throw std::out_of_range(std::string(what) + ": " + std::to_string(bytes) + " bytes at offset " +
                            std::to_string(offset) + " exceed the buffer's " + std::to_string(size) + " bytes");
}
} // namespace

void Buffer::upload(std::span<const std::byte> data, std::size_t offset) {
  checkRange("Buffer::upload", offset, data.size(), size_);
  if (data.empty()) // OpenCL rejects zero-sized transfers.
    return;
  check(clEnqueueWriteBuffer(queue_.get(), mem_.get(), CL_TRUE, offset, data.size(), data.data(), 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
}

void Buffer::download(std::span<std::byte> out, std::size_t offset) const {
  checkRange("Buffer::download", offset, out.size(), size_);
  if (out.empty()) return;
  check(clEnqueueReadBuffer(queue_.get(), mem_.get(), CL_TRUE, offset, out.size(), out.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
}

// ---------------------------------------------------------------- Kernel

Kernel::Kernel(const Program &program, std::string name) : name_(std::move(name)) {
  cl_int status = CL_SUCCESS;
  kernel_.reset(clCreateKernel(program.get(), name_.c_str(), &status));
  if (status != CL_SUCCESS) throw OpenCLError(status, "clCreateKernel", "kernel name: " + name_);
}

cl_uint Kernel::numArgs() const {
  cl_uint n = 0;
  check(clGetKernelInfo(kernel_.get(), CL_KERNEL_NUM_ARGS, sizeof n, &n, nullptr), "clGetKernelInfo");
  return n;
}

void Kernel::setRaw(cl_uint index, std::size_t size, const void *value) {
  cl_int status = clSetKernelArg(kernel_.get(), index, size, value);
  if (status != CL_SUCCESS)
    throw OpenCLError(status, "clSetKernelArg",
                      "argument " + std::to_string(index) + " (" + std::to_string(size) + " bytes) of kernel " + name_);
}

void Kernel::setArg(cl_uint index, const Buffer &buffer) {
  cl_mem mem = buffer.get();
  setRaw(index, sizeof mem, &mem);
}
void Kernel::setArg(cl_uint index, std::int32_t value) {
  cl_int v = value;
  setRaw(index, sizeof v, &v);
}
void Kernel::setArg(cl_uint index, std::uint32_t value) {
  cl_uint v = value;
  setRaw(index, sizeof v, &v);
}
void Kernel::setArg(cl_uint index, float value) {
  cl_float v = value;
  setRaw(index, sizeof v, &v);
}
void Kernel::setArg(cl_uint index, double value) {
  cl_double v = value;
  setRaw(index, sizeof v, &v);
}
void Kernel::setArg(cl_uint index, const Scalar &value) {
  switch (value.kind()) {
  case ScalarKind::Int: return setArg(index, value.asInt());
  case ScalarKind::Float: return setArg(index, value.asFloat());
  case ScalarKind::Double: return setArg(index, value.asDouble());
  case ScalarKind::Bool: break;
  }
  throw std::invalid_argument("argument " + std::to_string(index) + " of kernel " + name_ +
                              ": OpenCL kernel parameters cannot be bool");
}
void Kernel::setLocalArg(cl_uint index, std::size_t bytes) {
  // The standard makes an empty __local allocation CL_INVALID_ARG_SIZE, but
  // not every implementation checks it (NVIDIA's accepts it): reject it
  // here, so that every device reports it alike.
  if (bytes == 0)
    throw OpenCLError(CL_INVALID_ARG_SIZE, "clSetKernelArg",
                      "argument " + std::to_string(index) + " (0 bytes of __local memory) of kernel " + name_);
  // A null value with a size is how OpenCL allocates __local memory.
  setRaw(index, bytes, nullptr);
}

} // namespace liftcc::ocl
