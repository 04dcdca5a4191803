#include "core/scalar.h"

#include <cmath>
#include <cstdio>

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
        switch (target) {
        case ScalarKind::Bool: return ofBool(v != 0);
        case ScalarKind::Int: return ofInt(static_cast<int32_t>(v));
        case ScalarKind::Float: return ofFloat(static_cast<float>(v));
        case ScalarKind::Double: return ofDouble(static_cast<double>(v));
        }
        return ofFloat(0.0f);
      },
      value_);
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
  case ScalarKind::Double:
    std::snprintf(buf, sizeof buf, "%.17g", value.asDouble());
    break;
  }
  std::string text = buf;
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  if (value.kind() == ScalarKind::Float) text += "f";
  return text;
}

} // namespace liftcc
