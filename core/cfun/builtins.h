#pragma once
// The math functions a user function may call.
//
// Only functions that exist with the same name, overloads and result type in
// OpenCL C and CUDA C++ are allowed:
//   float or double: sqrt exp log pow fabs fmin fmax floor ceil sin cos tan
//   int:             min max
// The floating ones are overloaded: a float argument selects the float
// version (sqrt(float) computes like sqrtf), a double argument the double
// one. All arguments must have the same floating type: int arguments are
// ambiguous in OpenCL C, and mixed float/double ones resolve differently in
// OpenCL C and C++.
//
// Deliberately left out:
//   sqrtf, expf, ...  CUDA-only spellings; OpenCL C has no f-suffixed names.
//   abs               OpenCL C's abs(int) returns *unsigned* int, so
//                     `abs(x) - 5 < 0` differs between OpenCL and CUDA.
//   min/max on float  NaN behaviour is undefined in OpenCL; fmin/fmax is not.
//   rsqrt, fma, ...   not available identically in both.

#include "core/scalar.h"

#include <optional>
#include <string>
#include <string_view>

namespace liftcc::cfun {

enum class Builtin { Sqrt, Exp, Log, Pow, Fabs, Fmin, Fmax, Floor, Ceil, Sin, Cos, Tan, Min, Max };

struct BuiltinInfo {
  Builtin id;
  std::string_view name;
  int arity;
  bool integer; ///< int arguments (min/max); otherwise float or double
};

/// The supported builtin called `name`, or nullptr.
const BuiltinInfo *findBuiltin(std::string_view name);

/// For an f-suffixed spelling of a floating builtin ("sqrtf"), the builtin
/// that should be used instead; nullptr otherwise.
const BuiltinInfo *floatSuffixedBuiltin(std::string_view name);

/// A specific explanation for calling a well-known function outside the
/// subset (abs, sqrtf, rsqrt, fmod, ...); nullopt for other names.
std::optional<std::string> unsupportedFunctionReason(std::string_view name);

/// "sqrt, exp, ..., min, max" for error messages.
std::string supportedFunctionList();

/// Evaluates a builtin. All `args` have kind `kind`: Float or Double for
/// floating builtins, Int for min/max. Float arguments are computed with the
/// float overload of the C library, exactly as compiled C++ would.
Scalar evalBuiltin(Builtin id, ScalarKind kind, const Scalar *args);

} // namespace liftcc::cfun
