#pragma once
// Concrete values of the reference interpreter: scalars, tuples and arrays.
// Values are immutable and share their elements, so views such as slide or
// pad cost one handle per element rather than a deep copy.

#include "core/scalar.h"
#include "core/types.h"

#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <vector>

namespace liftcc {

class Value {
public:
  enum class Kind { Scalar, Tuple, Array };

  Value() = default;              ///< the float 0
  Value(Scalar s) : scalar_(s) {} // NOLINT: a scalar is a value
  static Value tuple(std::vector<Value> elements);
  static Value array(std::vector<Value> elements);

  Kind kind() const { return kind_; }
  bool isScalar() const { return kind_ == Kind::Scalar; }
  const Scalar &scalar() const;
  const std::vector<Value> &elements() const; ///< tuple or array elements
  size_t size() const { return elements().size(); }
  const Value &operator[](size_t i) const { return elements().at(i); }

  /// Builds a value of `type` from its scalars in row-major order.
  static Value fromFlat(const Type &type, const std::map<std::string, int64_t> &sizes, std::span<const Scalar> flat);
  /// Row-major scalars of this value.
  std::vector<Scalar> flatten() const;
  /// Uniformly random scalars in [-1, 1) (ints in [-100, 100], bools 50/50).
  static Value random(const Type &type, const std::map<std::string, int64_t> &sizes, std::mt19937_64 &rng);

  /// Throws std::invalid_argument if the value's shape/kinds do not match.
  void checkMatches(const Type &type, const std::map<std::string, int64_t> &sizes) const;

private:
  Value(Kind kind, std::vector<Value> elements);
  Kind kind_ = Kind::Scalar;
  Scalar scalar_;
  std::shared_ptr<const std::vector<Value>> elements_;
};

} // namespace liftcc
