#pragma once
// Checking the very kernel that is timed: after its timed runs, the tuner
// downloads the full-size output and compares it, at sampled points (borders,
// corners, the middle and random points: interpretPoints), with the
// interpreter on the same inputs. The reference is computed once per
// exploration (program, sizes and input seed), so each variant pays only for
// the download and the comparison.

#include "core/interp/magnitudes.h"
#include "core/interp/point_interpreter.h"
#include "core/interp/value_compare.h"
#include "tuner/launch.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace liftcc::explore {

struct FullSizeReference {
  std::vector<ResultPoint> points;
  std::vector<Value> expected; ///< the interpreter's element at each point
  /// A result with tuples is written as a structure of arrays (one buffer per
  /// component, core/interp/components.h, concatenated in the downloaded
  /// output): then each point is a point of one component, pointComponent[i],
  /// whose type and byte offset in the output are componentTypes[c] and
  /// componentOffsets[c]. All three are empty for a result without tuples.
  std::vector<size_t> pointComponent;
  std::vector<Type> componentTypes;
  std::vector<size_t> componentOffsets;
  /// Their magnitudes (core/interp/magnitudes.h), when the program has a twin.
  std::optional<std::vector<Value>> magnitudes;
  /// Why there is no reference (empty when there is one), e.g. an iterated
  /// program too large to interpret: then the timed kernel is not checked.
  std::string unavailable;
  /// liftcc failed computing it (an internal error): each variant checked
  /// against it is recorded as a bug, and the exploration goes on.
  std::string bug;
};

/// Random points beyond the borders, corners and middle (samplePoints).
inline constexpr size_t kRandomCheckPoints = 256;

/// The reference of the typed program at `sizes` on `inputs` (its full-size
/// inputs, in the order of its parameters). Throws only DeadlineReached, once
/// past `deadline` (core/interp/deadline.h): the program's own failures
/// become `unavailable`, liftcc's `bug`.
FullSizeReference fullSizeReference(const Program &typed, const std::map<std::string, int64_t> &sizes,
                                    const tuner::InputBytes &inputs,
                                    std::optional<InterpretDeadline> deadline = std::nullopt);

/// nullopt when `output` (the kernel's downloaded output buffer) agrees with
/// the reference at every point, else the first disagreement.
std::optional<std::string> checkFullSizeOutput(const FullSizeReference &reference, const Type &resultType,
                                               const std::map<std::string, int64_t> &sizes,
                                               std::span<const std::byte> output, const Tolerance &tolerance);

} // namespace liftcc::explore
