#pragma once
// Types of liftcc programs: scalars, vectors of scalars, tuples and arrays with symbolic length.
//
// A Type is an immutable value (shared node, cached structural hash). Array
// lengths are arith::Expr in canonical form, so structural equality already
// is equality modulo arithmetic simplification.

#include "core/arith/expr.h"
#include "core/scalar.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace liftcc {

enum class TypeKind { Scalar, Tuple, Array, Vector };

/// The widths a vector type may have (those of OpenCL C's vector types, except 3).
bool isVectorWidth(int64_t width);

class Type {
public:
  static Type scalar(ScalarKind kind);
  static Type tuple(std::vector<Type> elements);
  static Type array(Type element, arith::Expr length);
  /// `float<4>`: `width` lanes of a float or double scalar, computed on
  /// lane-wise (OpenCL float4). Throws InternalError for other kinds or
  /// widths (the type rules check them first and report the place).
  static Type vector(ScalarKind element, int width);

  TypeKind kind() const;
  bool isScalar() const { return kind() == TypeKind::Scalar; }
  bool isTuple() const { return kind() == TypeKind::Tuple; }
  bool isArray() const { return kind() == TypeKind::Array; }
  bool isVector() const { return kind() == TypeKind::Vector; }

  ScalarKind scalarKind() const;                  ///< precondition: Scalar or Vector (the lanes' kind)
  int vectorWidth() const;                        ///< precondition: Vector
  const std::vector<Type> &tupleElements() const; ///< precondition: Tuple
  const Type &arrayElement() const;               ///< precondition: Array
  const arith::Expr &arrayLength() const;         ///< precondition: Array

  /// Number of nested array levels ([[float]M]N has rank 2).
  int rank() const;
  /// The innermost non-array type.
  Type innermost() const;

  size_t hash() const;
  friend bool operator==(const Type &a, const Type &b);
  friend bool operator!=(const Type &a, const Type &b) { return !(a == b); }

  /// Lift notation: float, float<4>, (float, int), [[float]M]N.
  std::string str() const;

private:
  struct Node;
  explicit Type(std::shared_ptr<const Node> node) : node_(std::move(node)) {}
  std::shared_ptr<const Node> node_;
};

/// Shorthands used throughout the C++ API.
inline Type f32() { return Type::scalar(ScalarKind::Float); }
inline Type f64() { return Type::scalar(ScalarKind::Double); }
inline Type i32() { return Type::scalar(ScalarKind::Int); }
inline Type boolean() { return Type::scalar(ScalarKind::Bool); }
/// array(f32(), N, M) == [[float]M]N: the outermost length comes first, as in
/// C declarations `float a[N][M]`.
Type array(Type element, const std::vector<arith::Expr> &lengths);
inline Type array(Type element, const arith::Expr &n) { return array(std::move(element), std::vector<arith::Expr>{n}); }
inline Type array(Type element, const arith::Expr &n, const arith::Expr &m) {
  return array(std::move(element), {n, m});
}
inline Type array(Type element, const arith::Expr &n, const arith::Expr &m, const arith::Expr &k) {
  return array(std::move(element), {n, m, k});
}

/// Replaces size variables in every array length.
Type substitute(const Type &type, const std::map<std::string, arith::Expr> &bindings);

/// Number of scalars in a value of this type after every length is evaluated.
int64_t scalarCount(const Type &type, const std::map<std::string, int64_t> &sizes);

/// The elements of the array nest `type` down to its first element that is
/// no array (its lengths multiplied, an expression of the sizes; 1 for a
/// non-array): the scalars of a buffer of an array of scalars.
arith::Expr elementCount(const Type &type);

} // namespace liftcc

template <> struct std::hash<liftcc::Type> {
  size_t operator()(const liftcc::Type &t) const { return t.hash(); }
};
