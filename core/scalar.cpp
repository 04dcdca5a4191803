#include "core/scalar.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace liftcc {

std::string_view scalarKindName(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Bool: return "bool";
  case ScalarKind::Int: return "int";
  case ScalarKind::Float: return "float";
  case ScalarKind::Double: return "double";
  }
  return "?";
}

std::optional<ScalarKind> parseScalarKind(std::string_view name) {
  for (ScalarKind k : {ScalarKind::Bool, ScalarKind::Int, ScalarKind::Float, ScalarKind::Double})
    if (scalarKindName(k) == name) return k;
  return std::nullopt;
}

Scalar Scalar::zero(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Bool: return ofBool(false);
  case ScalarKind::Int: return ofInt(0);
  case ScalarKind::Float: return ofFloat(0.0f);
  case ScalarKind::Double: return ofDouble(0.0);
  }
  return ofFloat(0.0f);
}

double Scalar::toDouble() const {
  return std::visit([](auto v) { return static_cast<double>(v); }, value_);
}

Scalar Scalar::convertTo(ScalarKind target) const {
  return std::visit(
      [target](auto v) -> Scalar {
        // Out-of-range conversions are undefined behaviour in C++; they are
        // defined here the way GPUs do them (and as core/cfun evaluates them):
        // float -> int saturates, NaN -> 0; double -> float overflows to inf.
        double d = static_cast<double>(v);
        switch (target) {
        case ScalarKind::Bool: return ofBool(v != 0);
        case ScalarKind::Int:
          if (std::isnan(d)) return ofInt(0);
          if (d >= 2147483647.0) return ofInt(std::numeric_limits<int32_t>::max());
          if (d <= -2147483648.0) return ofInt(std::numeric_limits<int32_t>::min());
          return ofInt(static_cast<int32_t>(v));
        case ScalarKind::Float:
          if (std::isfinite(d) && std::fabs(d) > double(std::numeric_limits<float>::max()))
            return ofFloat(d > 0 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity());
          return ofFloat(static_cast<float>(v));
        case ScalarKind::Double: return ofDouble(d);
        }
        return ofFloat(0.0f);
      },
      value_);
}

Scalar absoluteValue(const Scalar &s) {
  switch (s.kind()) {
  case ScalarKind::Float: return Scalar::ofFloat(std::fabs(s.asFloat()));
  case ScalarKind::Double: return Scalar::ofDouble(std::fabs(s.asDouble()));
  case ScalarKind::Int: return Scalar::ofInt(s.asInt() < 0 && s.asInt() > INT32_MIN ? -s.asInt() : s.asInt());
  case ScalarKind::Bool: break;
  }
  return s;
}

std::string toCLiteral(const Scalar &value) {
  char buf[64];
  switch (value.kind()) {
  case ScalarKind::Bool: return value.asBool() ? "true" : "false";
  case ScalarKind::Int: return std::to_string(value.asInt());
  case ScalarKind::Float:
    // %.9g round-trips every float exactly.
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(value.asFloat()));
    break;
  case ScalarKind::Double: std::snprintf(buf, sizeof buf, "%.17g", value.asDouble()); break;
  }
  std::string text = buf;
  // inf and nan have no literal in C: spell them as constant expressions
  // that OpenCL C and CUDA both fold.
  double d = value.toDouble();
  std::string f = value.kind() == ScalarKind::Float ? "f" : "";
  if (std::isnan(d)) return "(0.0" + f + " / 0.0" + f + ")";
  if (std::isinf(d)) return std::string(d > 0 ? "(" : "(-") + "1.0" + f + " / 0.0" + f + ")";
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  if (value.kind() == ScalarKind::Float) text += "f";
  return text;
}

} // namespace liftcc
