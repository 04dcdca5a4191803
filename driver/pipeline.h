#pragma once
// How a program becomes a kernel. compileProgram is the whole pipeline, one
// pass a line: the input checks and type checking at the sizes, rewriting by
// the strategy's recipe (rewrite/recipes.h), code generation with the
// strategy's options (codegen/generate.h) and the work-group the kernel is
// launched with. The explorer, which generates many kernels of one lowered
// program, and liftc's verbs, which read the program from a file, call the
// passes one by one; every translation of a strategy into codegen options is
// codegenOptions.

#include "codegen/generate.h"
#include "codegen/kernel.h"
#include "core/ir/expr.h"
#include "driver/configuration.h"
#include "driver/input_checks.h"

#include <array>
#include <cstddef>
#include <optional>

namespace liftcc::driver {

/// A program compiled by a strategy.
struct CompiledKernel {
  Program typed;   ///< type-checked at the sizes: the interpreter's oracle
  Program lowered; ///< rewritten by the strategy's recipe
  codegen::Kernel kernel;
  /// The work-group the kernel is launched with; nullopt: the runtime picks
  /// (a mapGlb kernel without a strategy work-group).
  std::optional<std::array<size_t, 3>> launchLocalSize;
};

/// The pipeline: `program` (as read, not yet type-checked) at `sizes` under
/// `strategy` into a `target` kernel. Throws InputError for sizes or arrays
/// beyond the limits, codegen::LimitError for iterations, TypeError,
/// rewrite::RewriteError and codegen::CodegenError for what the passes refuse.
CompiledKernel compileProgram(const Program &program, const Sizes &sizes, const Configuration &strategy,
                              codegen::Target target);

/// Passes 1-2: `sizes` bind the program's size variables within their
/// ranges and liftc's limits, the declared input lengths fit, the program is
/// type-checked at them (as it is when `sizes` is empty) and every input and
/// the result have at most kMaxArrayScalars scalars.
Program typeCheckAtSizes(const Program &program, const Sizes &sizes);
/// Pass 3: the typed program rewritten by the strategy's recipe.
Program lower(const Program &typed, const Configuration &strategy);
/// Pass 4: the kernel of a lowered program under the strategy's codegen options.
codegen::Kernel generate(const Program &lowered, const Configuration &strategy, codegen::Target target);
/// The code generator's options of a strategy: its work-group shape, boundary
/// specialisation and fast-math choices.
codegen::CodegenOptions codegenOptions(const Configuration &strategy);
/// Pass 5: the work-group a strategy launches its kernel with (nullopt:
/// the runtime's choice).
std::optional<std::array<size_t, 3>> launchLocalSize(const Configuration &strategy);

} // namespace liftcc::driver
