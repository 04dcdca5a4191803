#pragma once
// Scalar kinds and values shared by the type system, the user-function
// interpreter and the reference interpreter.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace liftcc {

enum class ScalarKind { Bool, Int, Float, Double };

/// C spelling of a scalar kind: "bool", "int", "float", "double".
std::string_view scalarKindName(ScalarKind kind);
/// Inverse of scalarKindName; nullopt for anything else.
std::optional<ScalarKind> parseScalarKind(std::string_view name);
/// Float or Double.
inline bool isFloating(ScalarKind kind) { return kind == ScalarKind::Float || kind == ScalarKind::Double; }

/// A concrete scalar. Float values are kept as float so that the interpreter
/// rounds exactly like a C/OpenCL kernel would.
class Scalar {
public:
  Scalar() : value_(0.0f) {}
  static Scalar ofBool(bool v) { return Scalar(v); }
  static Scalar ofInt(int32_t v) { return Scalar(v); }
  static Scalar ofFloat(float v) { return Scalar(v); }
  static Scalar ofDouble(double v) { return Scalar(v); }
  /// The zero of a kind (false, 0, 0.0f, 0.0).
  static Scalar zero(ScalarKind kind);

  ScalarKind kind() const { return static_cast<ScalarKind>(value_.index()); }

  bool asBool() const { return std::get<bool>(value_); }
  int32_t asInt() const { return std::get<int32_t>(value_); }
  float asFloat() const { return std::get<float>(value_); }
  double asDouble() const { return std::get<double>(value_); }

  /// Any kind widened to double (for comparisons in tests and I/O).
  double toDouble() const;
  /// C conversion to another kind, as `(T)value` would do.
  Scalar convertTo(ScalarKind kind) const;

  friend bool operator==(const Scalar &, const Scalar &) = default;

private:
  template <typename T> explicit Scalar(T v) : value_(v) {}
  // Alternative order matches ScalarKind.
  std::variant<bool, int32_t, float, double> value_;
};

/// |value| in the value's own kind (what magnitude bounds are built from);
/// INT32_MIN, which has no int magnitude, and bools stay as they are.
Scalar absoluteValue(const Scalar &value);

/// C literal text of a scalar value ("1.5f", "2", "true", "0.25").
std::string toCLiteral(const Scalar &value);

} // namespace liftcc
