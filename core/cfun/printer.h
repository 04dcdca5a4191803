#pragma once
// Prints a checked user function (ir::Program) back as C: every conversion
// explicit, every operator parenthesised, locals declared at the top. The
// code generators use it instead of the verbatim body where the verbatim
// body would be undefined in C (floating -> int conversions).

#include "core/cfun/function.h"
#include "core/cfun/ir.h"

#include <functional>
#include <string>
#include <vector>

namespace liftcc::cfun {

std::string printBody(const ir::Program &program, const std::vector<Param> &params,
                      const std::function<std::string(ScalarKind from, const std::string &operand)> &floatingToInt);

} // namespace liftcc::cfun
