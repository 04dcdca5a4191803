#pragma once
// Limits checked before anything runs, so a too-large request is a one-line
// error naming the limit instead of an abort in the OpenCL runtime, the OOM
// killer or a run that never ends. The values are in docs/limits.md ("Limits and
// guarantees").

#include "codegen/kernel.h"
#include "codegen/launch_limits.h"
#include "core/ir/expr.h"
#include "tuner/device.h"

#include <cstdint>
#include <map>
#include <string>

namespace liftcc::cli {

/// The interpreter is an oracle for small sizes (every scalar is a shared
/// handle): at most this many values per input or result.
inline constexpr int64_t kMaxInterpretedValues = int64_t(1) << 24;
/// ... and at most this many values computed over all iterations of iterate.
inline constexpr int64_t kMaxInterpretedWork = int64_t(1) << 26;
/// iterate counts (the product over nested iterates): kernels are launched
/// that many times, the interpreter loops that many times.
inline constexpr int64_t kMaxIterations = codegen::kMaxIterations;

/// `what` (an input or the result) of `type` has at most kMaxInterpretedValues values.
void checkInterpretable(const std::string &what, const Type &type, const std::map<std::string, int64_t> &sizes);
/// Every input, the result and the iterations of a typed program are within
/// the interpreter's limits (eval, run --check).
void checkInterpretable(const Program &typed, const std::map<std::string, int64_t> &sizes);
/// The program's iterate counts are within kMaxIterations (counts of sizes
/// not bound by `sizes` are not checked). Every verb that produces, launches
/// or interprets a program calls it: compile, export, run, eval, explore.
void checkIterationCount(const Program &typed, const std::map<std::string, int64_t> &sizes);
/// `local` (a work-group of --local or a strategy's wg(...), named by
/// `what`) is within codegen::kMaxWorkGroupItems.
void checkWorkGroupLimit(const std::array<int64_t, 3> &local, const std::string &what);
/// The kernel fits the device (local memory, work-group size) and its
/// buffers fit half of this machine's memory (they are staged on the host).
void checkDeviceLimits(const codegen::Kernel &kernel, const tuner::DeviceLimits &limits,
                       const std::map<std::string, int64_t> &sizes);
/// The inputs and result of `typed` at `sizes` fit half of this machine's
/// memory (explore generates the full-size inputs on the host).
void checkHostMemory(const Program &typed, const std::map<std::string, int64_t> &sizes);

} // namespace liftcc::cli
