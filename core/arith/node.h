#pragma once
// Private node representation of arith::Expr. Not part of the public API:
// only the files under core/arith include it.
//
// Nodes are immutable once built and shared between expressions. Every node
// caches its structural hash (so equality checks reject mismatches in O(1))
// and whether it mentions a variable whose range is symbolic (so bound
// computation can skip the expensive symbolic path for plain expressions).

#include "core/arith/expr.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace liftcc::arith {

using Wide = __int128;
/// Stand-in for +-infinity in Interval; any value outside int64 is infinite.
inline constexpr Wide kInf = Wide(1) << 100;
/// Inclusive bounds of a value, +-kInf where unbounded.
struct Interval {
  Wide lo = -kInf;
  Wide hi = kInf;
};

class Node {
public:
  Kind kind = Kind::Constant;
  /// Contains an index-like Variable: one bounded on both sides or by other
  /// variables (i in [0, N-1], k in [0, 2]). Only those are replaced by their
  /// range ends in symbolic bounds; sizes (N in [1, inf)) are kept.
  bool hasIndexVar = false;
  CmpOp cmp = CmpOp::Lt; ///< Select only
  int64_t value = 0;     ///< Constant only
  size_t hash = 0;
  std::string name;      ///< Variable only
  Range range;           ///< Variable only
  std::vector<Expr> ops; ///< see Expr::operands()
  /// The constant interval of the node's values over its variables' ranges,
  /// from its operands' (nodeInterval, bounds.cpp): every proof asks for
  /// intervals first, hundreds of thousands of times per kernel, and nodes
  /// never change.
  Interval interval;
};

/// `node`'s interval from its operands' (and a variable's from its range's
/// ends); the operands' must be set.
Interval nodeInterval(const Node &node);

/// The only way to create nodes. Builds nodes *as given*: callers (the smart
/// constructors) are responsible for passing canonical operands.
struct Builder {
  static Expr constant(int64_t value); ///< shares one node per small value
  static Expr newConstant(int64_t value);
  static Expr variable(std::string name, Range range);
  static Expr raw(Kind kind, std::vector<Expr> ops, CmpOp cmp = CmpOp::Lt);
};

/// Wrapping two's complement arithmetic: constant folding must never invoke
/// signed-overflow UB (the emitted C code would overflow the same way).
inline int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t wrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
inline int64_t wrapNeg(int64_t a) { return static_cast<int64_t>(0 - static_cast<uint64_t>(a)); }
/// C division / remainder (truncation toward zero); b != 0. INT64_MIN / -1
/// wraps instead of trapping.
inline int64_t cDiv(int64_t a, int64_t b) { return b == -1 ? wrapNeg(a) : a / b; }
inline int64_t cMod(int64_t a, int64_t b) { return b == -1 ? 0 : a % b; }

} // namespace liftcc::arith
