#include "core/interp/magnitudes.h"

#include "core/cfun/magnitude_twin.h"
#include "core/interp/value_io.h"
#include "core/ir/transform.h"
#include "core/typecheck/typecheck.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <unordered_map>

namespace liftcc {

namespace {

/// The scalar kinds of one innermost element, in layout order.
void leafKinds(const Type &type, std::vector<ScalarKind> &kinds) {
  if (type.isScalar())
    kinds.push_back(type.scalarKind());
  else
    for (const Type &t : type.tupleElements()) leafKinds(t, kinds);
}

} // namespace

std::optional<Program> magnitudeProgram(const Program &typed, const std::map<std::string, int64_t> &sizes) {
  bool complete = true;
  std::unordered_map<std::string, Expr> twins; // one twin per user function
  Expr fun = transformBottomUp(typed.fun, [&](const Expr &e) {
    if (!e.is(ExprKind::UserFun)) return e;
    auto known = twins.find(e.userFun().name());
    if (known != twins.end()) return known->second;
    std::optional<cfun::Function> twin = cfun::magnitudeTwin(e.userFun());
    if (!twin) {
      complete = false;
      return e;
    }
    return twins.emplace(e.userFun().name(), Expr::userFun(*twin)).first->second;
  });
  if (!complete) return std::nullopt;
  return typeCheck(Program{typed.sizes, fun}, sizes);
}

Value absoluteValue(const Value &value) {
  if (value.isScalar()) return absoluteValue(value.scalar());
  std::vector<Value> elements;
  elements.reserve(value.elements().size());
  for (const Value &v : value.elements()) elements.push_back(absoluteValue(v));
  return value.kind() == Value::Kind::Tuple ? Value::tuple(std::move(elements)) : Value::array(std::move(elements));
}

std::vector<std::byte> absoluteBytes(std::span<const std::byte> bytes, const Type &type,
                                     const std::map<std::string, int64_t> &sizes) {
  std::vector<std::byte> out(bytes.begin(), bytes.end());
  // Arrays repeat their innermost element: its scalars' layout, again and again.
  std::vector<ScalarKind> kinds;
  leafKinds(type.innermost(), kinds);
  size_t elementBytes = byteCount(type.innermost(), sizes);
  if (elementBytes == 0) return out;
  for (size_t at = 0; at + elementBytes <= out.size(); at += elementBytes) {
    size_t offset = at;
    // In place, bytes only: a full-size input has millions of scalars.
    for (ScalarKind kind : kinds) {
      std::byte *scalar = out.data() + offset;
      if (isFloating(kind)) {
        // Little-endian IEEE: the sign is the top bit of the last byte.
        scalar[scalarByteSize(kind) - 1] &= std::byte{0x7f};
      } else if (kind == ScalarKind::Int) {
        int32_t v;
        std::memcpy(&v, scalar, sizeof v);
        v = absoluteValue(Scalar::ofInt(v)).asInt();
        std::memcpy(scalar, &v, sizeof v);
      }
      offset += scalarByteSize(kind);
    }
  }
  return out;
}

Reference interpretReference(const Program &typed, const std::map<std::string, int64_t> &sizes,
                             const std::vector<Value> &inputs, std::optional<InterpretDeadline> deadline) {
  Reference reference{interpret(typed, sizes, inputs, deadline), std::nullopt};
  if (std::optional<Program> magnitudes = magnitudeProgram(typed, sizes)) {
    std::vector<Value> absolute;
    for (const Value &v : inputs) absolute.push_back(absoluteValue(v));
    reference.magnitudes = interpret(*magnitudes, sizes, absolute, deadline);
  }
  return reference;
}

std::optional<std::string> compareWithMagnitudes(const Value &expected, const Value &actual, const Value *magnitudes,
                                                 Tolerance tolerance) {
  std::vector<Scalar> e = expected.flatten(), a = actual.flatten();
  if (e.size() != a.size())
    return "expected " + std::to_string(e.size()) + " values, found " + std::to_string(a.size());
  std::vector<Scalar> m;
  if (magnitudes) {
    m = magnitudes->flatten();
    if (m.size() != e.size()) throw InternalError("compareWithMagnitudes: magnitudes of another shape");
  }
  double largest = 0;
  if (tolerance.magnitude > 0)
    for (const Scalar &x : e)
      if (isFloating(x.kind()) && std::isfinite(x.toDouble())) largest = std::max(largest, std::fabs(x.toDouble()));
  const double absolute = tolerance.absolute + tolerance.magnitude * largest;
  size_t mismatches = 0, first = 0;
  for (size_t i = 0; i < e.size(); ++i) {
    bool same;
    if (isFloating(e[i].kind())) {
      double x = e[i].toDouble(), y = a[i].toDouble();
      double scale = std::fabs(x);
      if (!m.empty() && std::isfinite(m[i].toDouble())) scale = std::max(scale, std::fabs(m[i].toDouble()));
      if (std::isnan(x) || std::isnan(y))
        same = std::isnan(x) && std::isnan(y);
      else
        same = std::fabs(x - y) <= absolute + tolerance.relative * scale;
    } else {
      same = e[i].toDouble() == a[i].toDouble();
    }
    if (!same && mismatches++ == 0) first = i;
  }
  if (mismatches == 0) return std::nullopt;
  std::ostringstream out;
  out.precision(9);
  out << mismatches << " of " << e.size() << " values differ; first at element " << first << ": expected "
      << e[first].toDouble() << ", found " << a[first].toDouble();
  if (!m.empty()) out << " (terms of magnitude " << m[first].toDouble() << ")";
  return out.str();
}

std::optional<std::string> compareWithReference(const Reference &reference, const Value &actual, Tolerance tolerance) {
  return compareWithMagnitudes(reference.expected, actual, reference.magnitudes ? &*reference.magnitudes : nullptr,
                               tolerance);
}

} // namespace liftcc
