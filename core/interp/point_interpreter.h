#pragma once
// Evaluating a few elements of a program's result without the rest: the
// reference for checking a kernel's full-size output (the tuner's timed run),
// where interpreting the whole result would cost gigabytes (a 4096^2 grid is
// 16M values, and its 3x3 windows many more).
//
// The program is the one the interpreter evaluates; the inputs stay raw bytes
// (toBytes layout) and only the elements a point needs are decoded. Indexing
// is pushed through every view primitive by its index rule (the one the code
// generator uses, core/ir/view_index.h, here with concrete indices), and
// through map (element k of map(f, x) is f(element k of x)) and generate
// (element k of generate(n, f) is f(k)). A view without an index rule does
// not compile, so no view is evaluated whole because its rule was forgotten.
// Every other primitive (reduce, iterate, ...) and every whole value
// a user function needs (a window) is evaluated by the interpreter's own
// family rules (primitives/), so the semantics stay those of the interpreter;
// a test compares every point with the full interpretation.

#include "core/interp/deadline.h"
#include "core/interp/interpreter.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace liftcc {

/// An element of a result: array indices from the outermost dimension down
/// to an element that is not an array (a scalar or a tuple).
using ResultPoint = std::vector<int64_t>;

/// The elements of the typed program's result at `points`, on inputs given as
/// raw bytes in the order of the program's inputs. Throws InterpreterError as
/// interpret() does, and DeadlineReached once past `deadline`.
std::vector<Value> interpretPoints(const Program &typedProgram, const std::map<std::string, int64_t> &sizes,
                                   const std::vector<std::span<const std::byte>> &inputs,
                                   const std::vector<ResultPoint> &points,
                                   std::optional<InterpretDeadline> deadline = std::nullopt);

/// Points of a result of `type` worth checking: every combination of the
/// first two, the middle and the last two indices of each dimension (borders,
/// corners, the interior), and `randomPoints` uniformly random ones
/// (deterministic in `seed`), without duplicates.
std::vector<ResultPoint> samplePoints(const Type &type, const std::map<std::string, int64_t> &sizes,
                                      size_t randomPoints, uint64_t seed);

/// Where a point's element lies in the row-major bytes of a value of `type`,
/// and its type.
struct PointLocation {
  size_t byteOffset = 0;
  Type type = Type::scalar(ScalarKind::Float);
};
PointLocation locatePoint(const Type &type, const std::map<std::string, int64_t> &sizes, const ResultPoint &point);

} // namespace liftcc
