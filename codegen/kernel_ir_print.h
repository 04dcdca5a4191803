#pragma once
// The printer of the kernel IR: C text, one statement a line, two spaces of
// indentation a scope. The structure (blocks, if, for, assignments) is the
// same C in both dialects; the statements that differ (barriers, array
// declarations, vector stores) are spelled by the Dialect (dialect.h), which
// holds the differences between OpenCL C and CUDA C as data.

#include "codegen/dialect.h"
#include "codegen/kernel_ir.h"

#include <string>

namespace liftcc::codegen::kir {

/// `statements` as `dialect` C, each line indented by 2 * `depth` spaces and ended by a newline.
std::string print(const Stmts &statements, const Dialect &dialect, int depth = 0);

} // namespace liftcc::codegen::kir
