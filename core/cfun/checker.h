#pragma once
// Semantic checks and lowering of a parsed body to the typed IR: names
// resolve, types follow C's usual arithmetic conversions, assignments only
// target non-const variables, every path returns, and calls match the
// builtin overloads OpenCL C and CUDA C++ agree on.

#include "core/cfun/ast.h"
#include "core/cfun/function.h"
#include "core/cfun/ir.h"

#include <memory>
#include <string_view>
#include <vector>

namespace liftcc::cfun {

/// Checks `tree` as the body of `functionName(params) -> result`. The
/// function and parameter names must already be valid. Throws CFunError.
std::unique_ptr<ir::Program> checkBody(const ast::Tree &tree, std::string_view functionName,
                                       const std::vector<Param> &params, ScalarKind result);

} // namespace liftcc::cfun
