#pragma once
// An access path names one element inside a (possibly nested) value: a list of
// array indices and tuple components, outermost first. Views are resolved by
// pushing a path through the data-layout primitives (CGO'18, section 5):
// slide turns [w, k, ...] into [w*step + k, ...], join turns [i, ...] into
// [i/n, i%n, ...], and so on, until the path reaches memory and is linearised
// into one simplified index expression. The rules themselves are
// core/ir/view_index.h, shared with the point interpreter.

#include "core/arith/expr.h"
#include "core/ir/view_index.h"

#include <vector>

namespace liftcc::codegen {

/// An array index (arith::Expr) or a tuple component: the steps the index
/// rules of core/ir/view_index.h push through the views.
using PathStep = views::Step<arith::Expr>;
using AccessPath = views::Path<arith::Expr>;

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
