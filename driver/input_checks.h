#pragma once
// The checks of a program's sizes that come before any pass: every size
// variable bound and in its range, every array's length and scalar count far
// from wrapping 64-bit arithmetic, and the iterate counts within
// codegen::kMaxIterations. Every caller of the pipeline gets them, not only
// liftc; the values are in docs/limits.md.

#include "codegen/launch_limits.h"
#include "core/error.h"
#include "core/ir/expr.h"

#include <cstdint>
#include <map>
#include <string>

namespace liftcc::driver {

using Sizes = std::map<std::string, int64_t>;

/// Sizes or arrays the pipeline refuses (liftc reports it as a usage error).
class InputError : public Error {
public:
  using Error::Error;
};

/// Every array of a program's inputs and result has at most 2^60 scalars (so
/// byte counts, 8 per scalar at most, fit int64).
inline constexpr int64_t kMaxArrayScalars = int64_t(1) << 60;

/// `sizes` binds exactly the program's size variables, each within its
/// declared range and at most codegen::kMaxSizeValue (InputError otherwise).
void checkSizeBindings(const Program &program, const Sizes &sizes);

/// Before type checking: every declared input length stays within 2^62 at
/// `sizes` (a length such as N*M*O that wraps would fold into a wrong constant).
void checkInputLengths(const Program &program, const Sizes &sizes);
/// After type checking at `sizes`: every input and the result have at most
/// kMaxArrayScalars scalars.
void checkArrayScalars(const Program &typed, const Sizes &sizes);

/// Product of the counts of all iterate nodes (an upper bound of the nested
/// iterations), saturating above codegen::kMaxIterations; counts of sizes
/// that `sizes` does not bind are left to the launch.
int64_t iterationProduct(const Program &typed, const Sizes &sizes);
/// The program's iterate counts are within codegen::kMaxIterations
/// (codegen::LimitError otherwise).
void checkIterationCount(const Program &typed, const Sizes &sizes);
/// Whether the program's kernels never run: its body is an iterate that runs
/// 0 times at `sizes` (the result is the input; a time or a rate of it means
/// nothing).
bool launchesNoKernel(const Program &typed, const Sizes &sizes);

} // namespace liftcc::driver
