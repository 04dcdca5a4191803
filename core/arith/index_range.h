#pragma once
// Index variables over part of an index space.

#include "core/arith/expr.h"

namespace liftcc::arith {

/// An index variable i with lo <= i <= end - 1: the interior [lo, end) of a
/// wider index space, e.g. a map's index away from the borders of its array
/// (boundary specialisation, codegen/generator_specialise.cpp). With lo = 0
/// and end = extent it is Expr::index(name, extent).
inline Expr indexWithin(std::string name, const Expr &lo, const Expr &end) {
  return Expr::var(std::move(name), Range::between(lo, end - 1));
}

} // namespace liftcc::arith
