#pragma once
// Hand-written references of the multi-stage examples
// (examples/multistage_examples.h): which reference kernels of
// bench/reference/ they launch, in order, and which buffers each reads and
// writes. The buffers are named: the program's inputs, its outputs ("out",
// or "out_0", "out_1", ... for a result of several grids, in the order of its
// components) and temporaries (any other name, a grid written by one kernel
// and read by a later one). An iterated example's reference is the kernel of
// one step, launched by the host once per step with its input and output
// swapped in between (the host loop every explored kernel is compared with).

#include "codegen/kernel.h"
#include "core/ir/expr.h"
#include "examples/example.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::bench {

struct ReferenceStage {
  std::string kernel; ///< the __kernel / __global__ function's name
  std::vector<std::string> reads;
  std::vector<std::string> writes;
};

struct ReferenceSchedule {
  /// bench/reference/ stems whose sources the kernels are in, concatenated.
  std::vector<std::string> files;
  std::vector<ReferenceStage> stages;
};

/// The schedule of a multi-stage example's reference; nullopt for the
/// single-kernel examples (whose reference is bench/reference/<name>).
std::optional<ReferenceSchedule> referenceSchedule(const std::string &example);

/// Appends the sizes as int arguments (outermost first) and sets the
/// NDRange of one work-item per point of the example's grid (innermost
/// first): the launch of every reference kernel (bench/reference/README.md).
void addReferenceGrid(codegen::Kernel &kernel, const examples::Example &example,
                      const std::map<std::string, int64_t> &sizes);

/// The reference of `example` as one launchable kernel (stages, temporaries
/// and the iteration of the convention above) at concrete sizes, from
/// `schedule` and the embedded sources; every stage runs one work-item per
/// point of the example's grid, every buffer is a float grid of its shape.
/// Throws std::invalid_argument where a source file is missing.
codegen::Kernel scheduledReferenceKernel(const examples::Example &example, const ReferenceSchedule &schedule,
                                         codegen::Target target, const Program &typed,
                                         const std::map<std::string, int64_t> &sizes);

} // namespace liftcc::bench
