#include "driver/pipeline.h"

#include "core/typecheck/typecheck.h"
#include "rewrite/recipes.h"

namespace liftcc::driver {

CompiledKernel compileProgram(const Program &program, const Sizes &sizes, const Configuration &strategy,
                              codegen::Target target) {
  Program typed = typeCheckAtSizes(program, sizes);             // 1-2. checked and typed at the sizes
  checkIterationCount(typed, sizes);                            // iterate counts within the limit
  Program lowered = lower(typed, strategy);                     // 3. rewritten by the recipe
  codegen::Kernel kernel = generate(lowered, strategy, target); // 4. generated
  return {typed, lowered, kernel, launchLocalSize(strategy)};   // 5. launched
}

Program typeCheckAtSizes(const Program &program, const Sizes &sizes) {
  checkSizeBindings(program, sizes);
  if (sizes.empty()) return typeCheck(program);
  checkInputLengths(program, sizes);
  Program typed = typeCheck(program, sizes);
  checkArrayScalars(typed, sizes);
  return typed;
}

Program lower(const Program &typed, const Configuration &strategy) {
  return rewrite::applyRecipe(typed, strategy.recipe, strategy.recipeOptions());
}

codegen::Kernel generate(const Program &lowered, const Configuration &strategy, codegen::Target target) {
  return codegen::generateKernel(lowered, target, codegenOptions(strategy));
}

codegen::CodegenOptions codegenOptions(const Configuration &strategy) {
  codegen::CodegenOptions options;
  // Work-group kernels (tiled, local) are generated for their shape. A mapGlb
  // kernel takes it at launch and its code ignores it, unless specialised:
  // the interior test and a guard-free launch need the shape at generation.
  options.localSize = strategy.local;
  options.specialiseBoundaries = strategy.specialise;
  options.noinlineBorder = strategy.noinlineBorder;
  options.splitBorder = strategy.splitBorder;
  options.fastMath = strategy.fastMath;
  options.divToMul = strategy.divToMul;
  return options;
}

std::optional<std::array<size_t, 3>> launchLocalSize(const Configuration &strategy) {
  if (strategy.local == std::array<int64_t, 3>{0, 0, 0}) return std::nullopt;
  return std::array<size_t, 3>{size_t(strategy.local[0]), size_t(strategy.local[1]), size_t(strategy.local[2])};
}

} // namespace liftcc::driver
