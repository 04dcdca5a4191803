#pragma once
// The limits every kernel liftc produces or launches must respect, whatever
// it was made from (a program and options, a strategy, a best-kernel
// directory's launch.json): checked by these functions in every verb, so a
// request beyond them is one error line instead of a launch loop that never
// ends, a product that wraps or a buffer sized from a wrapped count. The
// values are in README.md ("Limits and guarantees").

#include "core/error.h"

#include <array>
#include <cstdint>
#include <string>

namespace liftcc::codegen {

/// Each size variable's value: index arithmetic on larger values could wrap.
inline constexpr int64_t kMaxSizeValue = int64_t(1) << 40;
/// iterate counts (the product over nested iterates): kernels are launched
/// that many times, the interpreter loops that many times.
inline constexpr int64_t kMaxIterations = int64_t(1) << 16;
/// Work-items of one work-group (CUDA block): above every device's maximum
/// (NVIDIA and AMD 1024, PoCL 4096, Intel CPUs 8192), and small enough that
/// the product of the three extents fits any integer type a host uses for it
/// (the exported CUDA code's unsigned int included).
inline constexpr int64_t kMaxWorkGroupItems = int64_t(1) << 13;

/// A request beyond one of the limits above.
class LimitError : public Error {
public:
  using Error::Error;
};

/// Throws LimitError unless `count` iterations (the product over nested
/// iterates; negative: beyond int64) are at most kMaxIterations.
void checkIterations(int64_t count);

/// Throws LimitError unless every extent of `local` is at least 1 and their
/// product, computed without overflow, is at most kMaxWorkGroupItems.
void checkWorkGroup(const std::array<int64_t, 3> &local);

} // namespace liftcc::codegen
