#pragma once
// Errors raised by the user-function front end and evaluator.
//
// They are two distinct types on purpose: a CFunError means the *text* of a
// user function is unacceptable (the code generator must not emit it), while
// a CFunEvalError means one particular evaluation hit a case that C leaves
// undefined (integer division by zero), which the reference interpreter
// reports instead of inventing a value.

#include "core/error.h"

#include <string>

namespace liftcc::cfun {

/// A position in the body text: 1-based line and column (columns count
/// bytes, a tab is one column). Line 0 means "not inside the body", e.g. a
/// bad parameter name.
struct SourcePos {
  int line = 0;
  int column = 0;
};

/// The body (or the signature) of a user function was rejected.
/// what() is "line L, column C: <reason>", or just "<reason>" for line 0.
struct CFunError : Error {
  CFunError(SourcePos pos, const std::string &reason);
  int line;
  int column;
  std::string reason; ///< what() without the position prefix
};

/// Evaluating a well-formed user function hit undefined behaviour in C
/// (integer division or remainder by zero). what() names the function and
/// the position of the offending operator.
struct CFunEvalError : Error {
  CFunEvalError(const std::string &function, SourcePos pos, const std::string &reason);
  int line;
  int column;
};

} // namespace liftcc::cfun
