#include "core/cfun/builtins.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <type_traits>

namespace liftcc::cfun {
namespace {

constexpr BuiltinInfo kBuiltins[] = {
    {Builtin::Sqrt, "sqrt", 1, false}, {Builtin::Exp, "exp", 1, false},     {Builtin::Log, "log", 1, false},
    {Builtin::Pow, "pow", 2, false},   {Builtin::Fabs, "fabs", 1, false},   {Builtin::Fmin, "fmin", 2, false},
    {Builtin::Fmax, "fmax", 2, false}, {Builtin::Floor, "floor", 1, false}, {Builtin::Ceil, "ceil", 1, false},
    {Builtin::Sin, "sin", 1, false},   {Builtin::Cos, "cos", 1, false},     {Builtin::Tan, "tan", 1, false},
    {Builtin::Min, "min", 2, true},    {Builtin::Max, "max", 2, true},
};

// Math functions people will reach for that are not in the subset because
// OpenCL C and CUDA do not both provide them under the same name and types.
constexpr std::string_view kKnownUnsupported[] = {
    "rsqrt", "fma",        "mad",       "exp2",  "exp10", "expm1",    "log2",     "log10",  "log1p", "cbrt",
    "hypot", "fmod",       "remainder", "round", "rint",  "trunc",    "copysign", "asin",   "acos",  "atan",
    "atan2", "sinh",       "cosh",      "tanh",  "erf",   "erfc",     "tgamma",   "lgamma", "clamp", "mix",
    "step",  "smoothstep", "sign",      "isnan", "isinf", "isfinite", "signbit"};

template <typename T> T apply(Builtin id, const Scalar *args) {
  auto arg = [&](int i) {
    if constexpr (std::is_same_v<T, float>)
      return args[i].asFloat();
    else
      return args[i].asDouble();
  };
  switch (id) {
  case Builtin::Sqrt: return std::sqrt(arg(0));
  case Builtin::Exp: return std::exp(arg(0));
  case Builtin::Log: return std::log(arg(0));
  case Builtin::Pow: return std::pow(arg(0), arg(1));
  case Builtin::Fabs: return std::fabs(arg(0));
  case Builtin::Fmin: return std::fmin(arg(0), arg(1));
  case Builtin::Fmax: return std::fmax(arg(0), arg(1));
  case Builtin::Floor: return std::floor(arg(0));
  case Builtin::Ceil: return std::ceil(arg(0));
  case Builtin::Sin: return std::sin(arg(0));
  case Builtin::Cos: return std::cos(arg(0));
  case Builtin::Tan: return std::tan(arg(0));
  case Builtin::Min:
  case Builtin::Max: break;
  }
  return T(0); // unreachable: the checker only passes floating builtins here
}

} // namespace

const BuiltinInfo *findBuiltin(std::string_view name) {
  for (const BuiltinInfo &b : kBuiltins)
    if (b.name == name) return &b;
  return nullptr;
}

const BuiltinInfo *floatSuffixedBuiltin(std::string_view name) {
  if (name.size() < 2 || name.back() != 'f') return nullptr;
  const BuiltinInfo *b = findBuiltin(name.substr(0, name.size() - 1));
  return b && !b->integer ? b : nullptr;
}

std::optional<std::string> unsupportedFunctionReason(std::string_view name) {
  std::string q = "'" + std::string(name) + "'";
  if (const BuiltinInfo *b = floatSuffixedBuiltin(name))
    return q + " does not exist in OpenCL C; use the overloaded '" + std::string(b->name) +
           "', which computes in float for a float argument";
  if (name == "abs")
    return "'abs' is not supported: OpenCL C's abs(int) returns unsigned int, so it computes "
           "differently from CUDA; write (x < 0 ? -x : x), or fabs for float/double";
  if (std::find(std::begin(kKnownUnsupported), std::end(kKnownUnsupported), name) != std::end(kKnownUnsupported))
    return q +
           " is not supported (not available identically in OpenCL C and CUDA); supported: " + supportedFunctionList();
  return std::nullopt;
}

std::string supportedFunctionList() {
  std::string list;
  for (const BuiltinInfo &b : kBuiltins) {
    if (!list.empty()) list += ", ";
    list += b.name;
  }
  return list;
}

Scalar evalBuiltin(Builtin id, ScalarKind kind, const Scalar *args) {
  if (id == Builtin::Min) return Scalar::ofInt(std::min(args[0].asInt(), args[1].asInt()));
  if (id == Builtin::Max) return Scalar::ofInt(std::max(args[0].asInt(), args[1].asInt()));
  if (kind == ScalarKind::Float) return Scalar::ofFloat(apply<float>(id, args));
  return Scalar::ofDouble(apply<double>(id, args));
}

} // namespace liftcc::cfun
