#pragma once
// Running a generated kernel on the test device and comparing its output
// with the interpreter's: what the multi-stage suites do for every variant.

#include "codegen/kernel.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "tuner/opencl/opencl_backend.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::test {

/// The kernel's output on `context` compared with `expected`: nullopt when
/// they agree within `tolerance`, else the first disagreement. Every output
/// element is NaN before the runs, so an element the kernel never writes
/// fails. `local`: the work-group size (nullopt: the kernel's own or the
/// runtime's); `repetitions` runs (an iterated kernel starts each from its
/// input again).
inline std::optional<std::string>
deviceMismatch(ocl::Context &context, const codegen::Kernel &kernel, const std::map<std::string, int64_t> &sizes,
               const std::vector<Value> &inputs, const Type &resultType, const Value &expected, Tolerance tolerance,
               std::optional<std::array<size_t, 3>> local = std::nullopt, int repetitions = 1) {
  tuner::OpenCLKernelRunner runner(context, kernel);
  tuner::LaunchConfig config;
  config.poisonOutput = true;
  config.localSize = local;
  config.repetitions = repetitions;
  return compareValues(expected, runner.run(sizes, inputs, resultType, config).output, tolerance);
}

/// Random inputs of a typed program and the interpreter's result on them:
/// computed once and shared by every kernel checked at the same sizes (the
/// interpreter, under the sanitizers, is most of a device check's own time).
struct DeviceReference {
  std::vector<Value> inputs;
  Value expected;
};

inline DeviceReference deviceReference(const Program &typed, const std::map<std::string, int64_t> &sizes,
                                       uint64_t seed) {
  std::vector<Value> inputs = randomInputs(typed, sizes, seed);
  Value expected = interpret(typed, sizes, inputs);
  return {std::move(inputs), std::move(expected)};
}

/// A configuration's work-group size as a launch's (all zeros: none chosen).
inline std::optional<std::array<size_t, 3>> launchLocalSize(const std::array<int64_t, 3> &local) {
  if (local == std::array<int64_t, 3>{0, 0, 0}) return std::nullopt;
  return std::array<size_t, 3>{size_t(local[0]), size_t(local[1]), size_t(local[2])};
}

} // namespace liftcc::test
