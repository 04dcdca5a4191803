#include "core/interp/value.h"

#include "core/error.h"

#include <algorithm>
#include <stdexcept>

namespace liftcc {

Value::Value(Kind kind, std::vector<Value> elements)
    : kind_(kind), elements_(std::make_shared<const std::vector<Value>>(std::move(elements))) {}

Value Value::tuple(std::vector<Value> elements) { return Value(Kind::Tuple, std::move(elements)); }
Value Value::array(std::vector<Value> elements) { return Value(Kind::Array, std::move(elements)); }

const Scalar &Value::scalar() const {
  if (kind_ != Kind::Scalar) throw InternalError("Value::scalar on an aggregate");
  return scalar_;
}

const std::vector<Value> &Value::elements() const {
  if (kind_ == Kind::Scalar) throw InternalError("Value::elements on a scalar");
  return *elements_;
}

namespace {
Value build(const Type &type, const std::map<std::string, int64_t> &sizes, std::span<const Scalar> flat, size_t &pos) {
  switch (type.kind()) {
  case TypeKind::Scalar: {
    if (pos >= flat.size()) throw std::invalid_argument("not enough scalars for " + type.str());
    Scalar s = flat[pos++];
    if (s.kind() != type.scalarKind()) s = s.convertTo(type.scalarKind());
    return s;
  }
  case TypeKind::Tuple: {
    std::vector<Value> elements;
    for (const Type &t : type.tupleElements()) elements.push_back(build(t, sizes, flat, pos));
    return Value::tuple(std::move(elements));
  }
  case TypeKind::Array: {
    int64_t n = arith::evaluate(type.arrayLength(), sizes);
    if (n < 0) throw std::invalid_argument("negative array length in " + type.str());
    std::vector<Value> elements;
    elements.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) elements.push_back(build(type.arrayElement(), sizes, flat, pos));
    return Value::array(std::move(elements));
  }
  case TypeKind::Vector: { // the interpreter keeps a vector as the array of its lanes
    std::vector<Value> lanes;
    for (int l = 0; l < type.vectorWidth(); ++l)
      lanes.push_back(build(Type::scalar(type.scalarKind()), sizes, flat, pos));
    return Value::array(std::move(lanes));
  }
  }
  return {};
}

void flattenInto(const Value &v, std::vector<Scalar> &out) {
  if (v.isScalar()) {
    out.push_back(v.scalar());
    return;
  }
  for (const Value &e : v.elements()) flattenInto(e, out);
}
} // namespace

Value Value::fromFlat(const Type &type, const std::map<std::string, int64_t> &sizes, std::span<const Scalar> flat) {
  size_t pos = 0;
  Value v = build(type, sizes, flat, pos);
  if (pos != flat.size())
    throw std::invalid_argument("expected " + std::to_string(pos) + " scalars for " + type.str() + ", got " +
                                std::to_string(flat.size()));
  return v;
}

std::vector<Scalar> Value::flatten() const {
  std::vector<Scalar> out;
  flattenInto(*this, out);
  return out;
}

Value Value::random(const Type &type, const std::map<std::string, int64_t> &sizes, std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int32_t> integer(-100, 100);
  switch (type.kind()) {
  case TypeKind::Scalar:
    switch (type.scalarKind()) {
    case ScalarKind::Bool: return Scalar::ofBool(integer(rng) >= 0);
    case ScalarKind::Int: return Scalar::ofInt(integer(rng));
    case ScalarKind::Float: return Scalar::ofFloat(static_cast<float>(real(rng)));
    case ScalarKind::Double: return Scalar::ofDouble(real(rng));
    }
    return Scalar();
  case TypeKind::Tuple: {
    std::vector<Value> elements;
    for (const Type &e : type.tupleElements()) elements.push_back(random(e, sizes, rng));
    return Value::tuple(std::move(elements));
  }
  case TypeKind::Array: {
    int64_t n = arith::evaluate(type.arrayLength(), sizes);
    std::vector<Value> elements;
    elements.reserve(static_cast<size_t>(std::max<int64_t>(n, 0)));
    for (int64_t i = 0; i < n; ++i) elements.push_back(random(type.arrayElement(), sizes, rng));
    return Value::array(std::move(elements));
  }
  case TypeKind::Vector: {
    std::vector<Value> lanes;
    for (int l = 0; l < type.vectorWidth(); ++l) lanes.push_back(random(Type::scalar(type.scalarKind()), sizes, rng));
    return Value::array(std::move(lanes));
  }
  }
  return {};
}

void Value::checkMatches(const Type &type, const std::map<std::string, int64_t> &sizes) const {
  switch (type.kind()) {
  case TypeKind::Scalar:
    if (!isScalar() || scalar_.kind() != type.scalarKind())
      throw std::invalid_argument("expected a value of type " + type.str());
    return;
  case TypeKind::Tuple:
    if (kind_ != Kind::Tuple || size() != type.tupleElements().size())
      throw std::invalid_argument("expected a tuple of type " + type.str());
    for (size_t i = 0; i < size(); ++i) (*this)[i].checkMatches(type.tupleElements()[i], sizes);
    return;
  case TypeKind::Array: {
    int64_t n = arith::evaluate(type.arrayLength(), sizes);
    if (kind_ != Kind::Array || static_cast<int64_t>(size()) != n)
      throw std::invalid_argument("expected an array of type " + type.str() + " with " + std::to_string(n) +
                                  " elements");
    for (const Value &e : elements()) e.checkMatches(type.arrayElement(), sizes);
    return;
  }
  case TypeKind::Vector:
    if (kind_ != Kind::Array || static_cast<int64_t>(size()) != type.vectorWidth())
      throw std::invalid_argument("expected a vector of type " + type.str());
    for (const Value &e : elements()) e.checkMatches(Type::scalar(type.scalarKind()), sizes);
    return;
  }
}

} // namespace liftcc
