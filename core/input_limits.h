#pragma once
// The limits on nesting and length that every recursive reader of liftcc's
// input enforces *before* it recurses, in one place.
//
// Every pass over a program, a type or a size expression is recursive (the
// parsers, the simplifier, the printers, the type checker, the code
// generator), so hostile or generated input nested 10,000 levels deep would
// exhaust the stack and end the process with a signal. Each reader counts its
// depth as it descends and caps the length of the text it is given, and
// refuses anything beyond with a one-line error saying which limit was
// exceeded and where; everything after the readers can then recurse freely.
//
// User-function bodies keep their own limits (core/cfun/limits.h), reused
// here so that all text readers share one nesting limit.

#include "core/cfun/limits.h"

#include <cstddef>
#include <string>

namespace liftcc::limits {

/// Deepest nesting of parentheses, unary operators, min/max calls and ?: in
/// a size expression, and of brackets and tuples in a type: the same limit
/// as user-function bodies (kept below clang's -fbracket-depth of 256, so
/// index expressions that reach a kernel compile on clang-based drivers).
inline constexpr int kMaxTextNesting = cfun::kMaxNesting;

/// Longest size expression (a pad, slide, split or array length), in
/// characters. Real ones are a few dozen ("(N-3)/2+1").
inline constexpr std::size_t kMaxSizeExpressionChars = 1024;

/// Longest type text (an input's type), in characters.
inline constexpr std::size_t kMaxTypeChars = 4096;

/// Deepest program expression in a JSON program: nested primitives,
/// lambdas and applications.
inline constexpr int kMaxProgramNesting = 512;

/// Deepest nesting of JSON objects and arrays in a program document. A
/// program level takes at most two JSON levels (an object and the array of
/// its operands), so every program within kMaxProgramNesting fits.
inline constexpr int kMaxJsonNesting = 2 * kMaxProgramNesting + 16;

/// Longest user-function body, in bytes (core/cfun/limits.h).
inline constexpr std::size_t kMaxUserFunctionBytes = cfun::kMaxBodyBytes;

/// The wording of the errors, shared so that every reader says the same.
inline std::string nestedDeeperThan(int limit) { return "nesting deeper than " + std::to_string(limit) + " levels"; }
inline std::string longerThan(std::size_t limit, std::size_t found) {
  return "longer than " + std::to_string(limit) + " characters (" + std::to_string(found) + ")";
}

} // namespace liftcc::limits
