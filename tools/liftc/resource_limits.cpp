#include "tools/liftc/resource_limits.h"

#include "core/interp/value_io.h"
#include "driver/input_checks.h"
#include "tools/liftc/command_line.h"
#include "tuner/launch.h"

#include <algorithm>
#include <unistd.h>

namespace liftcc::cli {

namespace {

std::string mib(int64_t bytes) { return std::to_string(bytes / (1 << 20)) + " MiB"; }

} // namespace

/// Host buffers of `bytes` fit half of this machine's memory.
static void checkBufferBytes(double bytes);

void checkInterpretable(const std::string &what, const Type &type, const std::map<std::string, int64_t> &sizes) {
  int64_t count = -1;
  try {
    count = scalarCount(type, sizes);
  } catch (const std::exception &) {}
  if (count < 0 || count > kMaxInterpretedValues)
    throw UsageError(what + " of type " + type.str().substr(0, 80) + " has " +
                     (count < 0 ? std::string("too many") : std::to_string(count)) +
                     " values; the reference interpreter accepts at most " + std::to_string(kMaxInterpretedValues) +
                     " (use smaller sizes)");
}

void checkInterpretable(const Program &typed, const std::map<std::string, int64_t> &sizes) {
  for (const Expr &p : typed.inputs()) checkInterpretable("input " + p.name(), p.typeOrThrow(), sizes);
  checkInterpretable("the result", typed.body().typeOrThrow(), sizes);
  checkIterationCount(typed, sizes);
  int64_t work = driver::iterationProduct(typed, sizes) * scalarCount(typed.body().typeOrThrow(), sizes);
  if (work > kMaxInterpretedWork)
    throw UsageError("iterate computes " + std::to_string(work) +
                     " values in all; the reference interpreter accepts at most " +
                     std::to_string(kMaxInterpretedWork) + " (use smaller sizes or fewer iterations)");
}

void checkIterationCount(const Program &typed, const std::map<std::string, int64_t> &sizes) {
  // The limit every kernel is held to (codegen/launch_limits.h), as a usage
  // error: the same line and status in every verb.
  try {
    driver::checkIterationCount(typed, sizes);
  } catch (const codegen::LimitError &e) {
    throw UsageError(e.what());
  }
}

void checkWorkGroupLimit(const std::array<int64_t, 3> &local, const std::string &what) {
  try {
    codegen::checkWorkGroup(local);
  } catch (const codegen::LimitError &e) {
    throw UsageError(what + ": " + e.what());
  }
}

void checkDeviceLimits(const codegen::Kernel &kernel, const tuner::DeviceLimits &limits,
                       const std::map<std::string, int64_t> &sizes) {
  if (kernel.localMemoryBytes > limits.localMemoryBytes)
    throw UsageError("the kernel needs " + std::to_string(kernel.localMemoryBytes) +
                     " bytes of local memory; the device has " + std::to_string(limits.localMemoryBytes) +
                     " (use a smaller --tile)");
  if (kernel.localSize) {
    int64_t items = 1;
    for (int d = 0; d < 3; ++d) {
      int64_t l = (*kernel.localSize)[d];
      items *= l;
      if (l > limits.maxWorkItemSizes[d])
        throw UsageError("the work-group size " + std::to_string(l) + " in dimension " + std::to_string(d) +
                         " exceeds the device's maximum " + std::to_string(limits.maxWorkItemSizes[d]));
    }
    if (items > limits.maxWorkGroupSize)
      throw UsageError("the work-group has " + std::to_string(items) + " work-items; the device allows at most " +
                       std::to_string(limits.maxWorkGroupSize));
  }
  // Inputs and the output are generated and staged in host memory.
  double bytes = 0; // a sum of counts up to 2^63 each: double cannot wrap
  for (const codegen::KernelArg &arg : kernel.args)
    if (arg.role != codegen::KernelArg::Role::Size) bytes += double(tuner::bufferBytes(arg, sizes));
  // The global temporaries between the kernels of a multi-kernel program.
  for (const codegen::KernelArg &t : kernel.temporaries) bytes += double(tuner::bufferBytes(t, sizes));
  checkBufferBytes(bytes);
}

void checkHostMemory(const Program &typed, const std::map<std::string, int64_t> &sizes) {
  double bytes = double(byteCount(typed.body().typeOrThrow(), sizes));
  for (const Expr &in : typed.inputs()) bytes += double(byteCount(in.typeOrThrow(), sizes));
  checkBufferBytes(bytes);
}

static void checkBufferBytes(double bytes) {
  long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGE_SIZE);
  int64_t memory = pages > 0 && pageSize > 0 ? int64_t(pages) * pageSize : int64_t(0);
  if (memory > 0 && bytes > double(memory / 2))
    throw UsageError("the kernel's buffers need " + mib(int64_t(std::min(bytes, 9e18))) +
                     "; liftc stages them in host memory and allows at most "
                     "half of this machine's " +
                     mib(memory) + " (use smaller sizes)");
}

} // namespace liftcc::cli
