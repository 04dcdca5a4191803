#pragma once
// Tree-walking evaluator for checked user functions, with C semantics.

#include "core/cfun/ir.h"

#include <span>
#include <string_view>

namespace liftcc::cfun {

/// Runs `program` on `args`, which must already have the parameter types
/// (in slot order). `function` names the function in CFunEvalError
/// messages. Recursion depth is bounded by the parser's tree-depth limit.
Scalar evaluate(const ir::Program &program, std::string_view function, std::span<const Scalar> args);

} // namespace liftcc::cfun
