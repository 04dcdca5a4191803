#pragma once
// Verification tolerances that scale with the magnitudes of the terms.
//
// A kernel may evaluate a user function's sum in another order, or contract
// a*b+c into one rounding (OpenCL and NVRTC do by default): each rounding is
// off by up to 2^-24 of the magnitude of the terms it adds, however small the
// result (a 125-point sum that cancels to ~0). So each element x of the
// interpreter's result gets a magnitude M: the same program evaluated with
// every user function replaced by its magnitude twin (core/cfun/magnitude_twin.h)
// on the absolute values of the inputs, i.e. |a|+|b| for a+-b, |a||b| for ab.
// The comparison (compareWithMagnitudes) then accepts
//   |x - y| <= absolute + relative * max(|x|, M) + magnitude * max_j |x_j|,
// the same relative error as before, but of the terms rather than of the
// result. Programs with a user function that has no twin (comparisons,
// conditionals, division by a variable, ...) keep M = |x|. liftc run
// --check, explore, tune and bench all compare this way.

#include "core/interp/deadline.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace liftcc {

/// The typed program with every user function replaced by its magnitude
/// twin, type-checked at `sizes`; nullopt when some user function has none.
std::optional<Program> magnitudeProgram(const Program &typedProgram, const std::map<std::string, int64_t> &sizes);

/// Every scalar replaced by its absolute value.
Value absoluteValue(const Value &value);
/// The same on raw bytes (toBytes layout) of a value of `type`.
std::vector<std::byte> absoluteBytes(std::span<const std::byte> bytes, const Type &type,
                                     const std::map<std::string, int64_t> &sizes);

/// The interpreter's result and, where the program has a magnitude twin, the
/// magnitude of each of its elements.
struct Reference {
  Value expected;
  std::optional<Value> magnitudes;
};
/// Throws DeadlineReached once past `deadline`.
Reference interpretReference(const Program &typedProgram, const std::map<std::string, int64_t> &sizes,
                             const std::vector<Value> &inputs,
                             std::optional<InterpretDeadline> deadline = std::nullopt);

/// compareValues with per-element magnitudes (same shape as `expected`; null:
/// each element's own |x|), by the rule above.
std::optional<std::string> compareWithMagnitudes(const Value &expected, const Value &actual, const Value *magnitudes,
                                                 Tolerance tolerance);
std::optional<std::string> compareWithReference(const Reference &reference, const Value &actual, Tolerance tolerance);

} // namespace liftcc
