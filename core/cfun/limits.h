#pragma once
// Hard limits that keep hostile or fuzzed input from exhausting memory or the
// stack. Every recursive pass (parser, checker, evaluator) is bounded by them.

#include <cstddef>

namespace liftcc::cfun {

/// Longest accepted body, in bytes.
inline constexpr std::size_t kMaxBodyBytes = 64 * 1024;

/// Deepest nesting of parentheses, blocks, if/else chains and unary
/// operators. Kept below clang's default -fbracket-depth of 256 so that
/// anything we accept also compiles on clang-based OpenCL drivers.
inline constexpr int kMaxNesting = 200;

/// Deepest syntax tree. Long left-associative chains such as a+b+c+...
/// are parsed iteratively but evaluated recursively, so their depth is
/// bounded separately (and more generously: large stencils sum many terms).
inline constexpr int kMaxTreeDepth = 1000;

} // namespace liftcc::cfun
