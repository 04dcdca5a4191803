#pragma once
// Type inference and checking.
//
// Input programs may leave lambda parameter types open; typeCheck returns a
// copy in which every node carries its type (a function node carries its
// result type) and every parameter is typed. The original is not changed.

#include "core/ir/expr.h"
#include "core/typecheck/type_error.h"

#include <cstdint>
#include <map>
#include <string>

namespace liftcc {

/// Throws TypeError naming the JSON pointer of the offending node, the
/// primitive, and what was expected vs found.
Program typeCheck(const Program &program);

/// Type-checks a program after replacing size variables by the given values
/// (e.g. to check split(4) of [float]N once N = 64 is known).
Program typeCheck(const Program &program, const std::map<std::string, int64_t> &sizes);

/// Substitutes concrete values for size variables in every type and size
/// operand of a program (sizes not mentioned stay symbolic).
Program specialize(const Program &program, const std::map<std::string, int64_t> &sizes);

} // namespace liftcc
