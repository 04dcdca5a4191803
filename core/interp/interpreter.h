#pragma once
// The reference interpreter: the oracle every generated kernel and every
// rewrite is compared against. It favours obviousness over speed.

#include "core/error.h"
#include "core/interp/value.h"
#include "core/ir/expr.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace liftcc {

struct InterpreterError : Error {
  using Error::Error;
};

/// Evaluates a type-checked program (see typeCheck) on concrete inputs.
/// `sizes` binds every size variable the program mentions. Throws
/// InterpreterError for inputs that do not match the parameter types and for
/// run-time errors of user functions (e.g. integer division by zero).
Value interpret(const Program &typedProgram, const std::map<std::string, int64_t> &sizes,
                const std::vector<Value> &inputs);

/// Applies user function `f` to scalar arguments (lane by lane to vectors), its run-time errors (e.g.
/// integer division by zero) as InterpreterError naming it. Shared by the
/// whole-array and the point interpreter, so both report failures alike.
Value callUserFun(const Expr &f, const std::vector<Value> &args);

/// Random inputs for every parameter of a typed program (deterministic in the seed).
std::vector<Value> randomInputs(const Program &typedProgram, const std::map<std::string, int64_t> &sizes,
                                uint64_t seed);
/// The same inputs as raw bytes (toBytes of each), generated without building
/// values: what device runs at full problem sizes upload.
std::vector<std::vector<std::byte>> randomInputBytes(const Program &typedProgram,
                                                     const std::map<std::string, int64_t> &sizes, uint64_t seed);

} // namespace liftcc
