#pragma once
// An access path names one element inside a (possibly nested) value: a list of
// array indices and tuple components, outermost first. Views are resolved by
// pushing a path through the data-layout primitives (CGO'18, section 5):
// slide turns [w, k, ...] into [w*step + k, ...], join turns [i, ...] into
// [i/n, i%n, ...], and so on, until the path reaches memory and is linearised
// into one simplified index expression.

#include "core/arith/expr.h"

#include <vector>

namespace liftcc::codegen {

struct PathStep {
  bool isTuple = false;
  arith::Expr index; ///< array index (when !isTuple)
  int component = 0; ///< tuple component (when isTuple)

  static PathStep arrayIndex(arith::Expr i) { return {false, std::move(i), 0}; }
  static PathStep tupleComponent(int k) { return {true, arith::Expr(0), k}; }
};

using AccessPath = std::vector<PathStep>;

/// prefix followed by rest.
inline AccessPath concat(AccessPath prefix, const AccessPath &rest) {
  prefix.insert(prefix.end(), rest.begin(), rest.end());
  return prefix;
}

inline AccessPath prepend(PathStep first, const AccessPath &rest) {
  AccessPath out{std::move(first)};
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

} // namespace liftcc::codegen
