#pragma once
// Recursive-descent parser for user-function bodies, with C precedence.
// Syntax only: names, types and returns are checked by the checker.

#include "core/cfun/ast.h"

#include <memory>
#include <string_view>

namespace liftcc::cfun {

/// Parses a body (the text between the braces of a function definition).
/// Throws CFunError for syntax errors, constructs outside the subset, and
/// nesting beyond the limits in limits.h.
std::unique_ptr<ast::Tree> parseBody(std::string_view body);

} // namespace liftcc::cfun
