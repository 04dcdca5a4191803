#include "bench/contenders.h"

#include "bench/host_loop_contender.h"
#include "bench/reference_kernels.h"
#include "bench/reference_stages.h"
#include "codegen/generate.h"
#include "core/ir/operands.h"
#include "core/typecheck/typecheck.h"
#include "driver/pipeline.h"
#include "explore/configuration.h"
#include "explore/space.h"
#include "explore/strategy_text.h"
#include "rewrite/recipes.h"
#include "rewrite/stages.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <optional>
#include <stdexcept>

namespace liftcc::bench {

namespace {

Contender recipeContender(rewrite::Recipe recipe, int64_t tile) {
  std::string name = rewrite::recipeName(recipe);
  bool tiles = recipe == rewrite::Recipe::Tiled || recipe == rewrite::Recipe::Local;
  if (tiles) name += " t=" + std::to_string(tile);
  return {name, ContenderKind::Generated, tiles ? tile : 1,
          [recipe, tile](const Program &typed, const Sizes &, codegen::Target target) {
            rewrite::RecipeOptions options;
            options.tileOutputs = tile;
            Program lowered = rewrite::applyRecipe(typed, recipe, options);
            return ContenderKernel{codegen::generateKernel(lowered, target), std::nullopt};
          }};
}

constexpr char kDimensionNames[] = "xyz";

std::string coarsenedName(const CoarsenedVariant &v) {
  std::string name = "coarsened";
  for (int d = 0; d < 3; ++d)
    if (v.factors[d] > 1) name += std::string(" ") + kDimensionNames[d] + std::to_string(v.factors[d]);
  return name + (v.privateWindow ? "" : " global") + (v.vectorWidth > 0 ? " vec" + std::to_string(v.vectorWidth) : "") +
         (v.specialise ? " spec" : "") + (v.noinlineBorder ? " noinline-border" : "");
}

/// A launch without bounds guards: work-groups of the widest power of two up
/// to 64 dividing the innermost extent of `kernel` (1 in the other dimensions).
std::array<int64_t, 3> guardFreeLocalSize(const codegen::Kernel &kernel) {
  const arith::Expr &extent = kernel.globalSize[0];
  int64_t x = 64;
  while (x > 1 && !(extent.isConstant() && extent.constant() % x == 0)) x /= 2;
  return {x, 1, 1};
}

/// The kernel of `lowered`, boundary-specialised and launched guard-free when
/// `specialise` (its border code calling never-inlined user functions with
/// `noinlineBorder`), else as generated.
ContenderKernel generatedContenderKernel(const Program &lowered, codegen::Target target, bool specialise,
                                         bool noinlineBorder = false) {
  if (!specialise) return ContenderKernel{codegen::generateKernel(lowered, target), std::nullopt};
  driver::Configuration strategy;
  strategy.specialise = true;
  strategy.noinlineBorder = noinlineBorder;
  strategy.local = guardFreeLocalSize(codegen::generateKernel(lowered, target));
  return ContenderKernel{driver::generate(lowered, strategy, target), driver::launchLocalSize(strategy)};
}

Contender coarsenedContender(const CoarsenedVariant &variant) {
  int64_t multiple = std::lcm(std::lcm(variant.factors[0], variant.factors[1]), variant.factors[2]);
  return {coarsenedName(variant), ContenderKind::Generated, multiple,
          [variant](const Program &typed, const Sizes &, codegen::Target target) {
            rewrite::RecipeOptions options;
            options.coarsen = variant.factors;
            options.privateWindow = variant.privateWindow;
            options.vectorWidth = variant.vectorWidth;
            Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::Coarsened, options);
            return generatedContenderKernel(lowered, target, variant.specialise, variant.noinlineBorder);
          }};
}

std::vector<CoarsenedVariant> defaultCoarsenedVariants(int dims) {
  std::vector<CoarsenedVariant> variants(1);
  variants[0].factors[0] = 8;
  if (dims > 1) {
    variants.emplace_back();
    variants.back().factors[static_cast<size_t>(dims - 1)] = 8;
  }
  return variants;
}

/// The plain recipe with boundary specialisation. `guardFree`: launched with
/// work-groups of the widest power of two up to 64 dividing the innermost
/// extent (1 in the other dimensions), so that the kernel has no guard at
/// all; else with the runtime's work-group size, the interior selected at run time.
Contender specialisedPlainContender(bool guardFree, bool noinlineBorder = false) {
  std::string name =
      std::string(guardFree ? "plain+spec wg" : "plain+spec") + (noinlineBorder ? " noinline-border" : "");
  return {name, ContenderKind::Generated, 1,
          [guardFree, noinlineBorder](const Program &typed, const Sizes &, codegen::Target target) {
            Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {});
            if (guardFree) return generatedContenderKernel(lowered, target, true, noinlineBorder);
            driver::Configuration strategy;
            strategy.specialise = true;
            return ContenderKernel{driver::generate(lowered, strategy, target), std::nullopt};
          }};
}

/// The plain recipe built with every fast-math relaxation: -cl-fast-relaxed-math
/// (--use_fast_math) and divisions by constants as multiplications.
Contender plainFastMathContender() {
  return {"plain fast-math", ContenderKind::Generated, 1,
          [](const Program &typed, const Sizes &, codegen::Target target) {
            Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {});
            driver::Configuration strategy;
            strategy.fastMath = codegen::FastMath::Relaxed;
            strategy.divToMul = true;
            return ContenderKernel{driver::generate(lowered, strategy, target), std::nullopt};
          },
          codegen::fastMathTolerance(codegen::FastMath::Relaxed, true)};
}

/// A recipe with options of a multi-stage program (fusion, time tiles),
/// as generated.
Contender optionsContender(std::string name, rewrite::Recipe recipe, const rewrite::RecipeOptions &options,
                           int64_t sizeMultiple) {
  return {std::move(name), ContenderKind::Generated, sizeMultiple,
          [recipe, options](const Program &typed, const Sizes &, codegen::Target target) {
            Program lowered = rewrite::applyRecipe(typed, recipe, options);
            return ContenderKernel{codegen::generateKernel(lowered, target), std::nullopt};
          }};
}

/// optionsContender's row where the recipe applies to `program` at the
/// example's paper sizes, else none (the fixed rows below).
std::optional<Contender> contenderWhereItApplies(const examples::Example &example, const Program &program,
                                                 std::string name, rewrite::Recipe recipe,
                                                 const rewrite::RecipeOptions &options) {
  try {
    rewrite::applyRecipe(typeCheck(program, example.paperSizes), recipe, options);
  } catch (const rewrite::RewriteError &) {
    return std::nullopt;
  }
  return optionsContender(std::move(name), recipe, options, 1);
}

/// The variant of a strategy text (explore/strategy_text.h), launched with
/// the work-group size it names, where it applies to the example at its
/// paper sizes; else none.
std::optional<Contender> strategyContender(const examples::Example &example, std::string name, std::string strategy) {
  try {
    explore::variantFromStrategy(typeCheck(example.build(), example.paperSizes), strategy, codegen::Target::CUDA);
  } catch (const std::exception &) {
    return std::nullopt;
  }
  return Contender{std::move(name), ContenderKind::Generated, 1,
                   [strategy](const Program &typed, const Sizes &, codegen::Target target) {
                     explore::Variant v = explore::variantFromStrategy(typed, strategy, target);
                     return ContenderKernel{v.kernel, driver::launchLocalSize(v.configuration)};
                   }};
}

/// 2.5D streaming through local memory where it applies: fixed rows of the
/// CUDA bench (as the one below), so that a GPU run times them whatever its
/// exploration finds. 3D: plane tiles of 32x4 outputs in chunks of 32
/// planes (the explorer's first tile) launched as 32x4 work-items (the
/// register queue, the prefetched copy), in scalars and in float4 (a tile
/// of 128x4, specialised); 2D: rows of 256 outputs, and of 1024 in float4.
std::vector<Contender> streamLocalContenders(const examples::Example &example) {
  const std::vector<std::pair<std::string, std::string>> rows =
      example.dims == 3
          ? std::vector<std::pair<
                std::string,
                std::string>>{{"streamLocal 32x4 chunk=32 wg=32x4",
                               "streamLocal(32) ; tile(32,4) ; mapWrg(x,y,z) ; wg(32,4)"},
                              {"streamLocal 128x4 vec4 chunk=32 wg=32x4 spec",
                               "streamLocal(32) ; tile(128,4) ; vectorize(4) ; mapWrg(x,y,z) ; wg(32,4) ; specialise"}}
          : std::vector<std::pair<std::string, std::string>>{
                {"streamLocal 256 chunk=32 wg=256", "streamLocal(32) ; tile(256) ; mapWrg(x,y) ; wg(256)"},
                {"streamLocal 1024 vec4 chunk=32 wg=256 spec",
                 "streamLocal(32) ; tile(1024) ; vectorize(4) ; mapWrg(x,y) ; wg(256) ; specialise"}};
  std::vector<Contender> out;
  for (const auto &[name, strategy] : rows)
    if (std::optional<Contender> c = strategyContender(example, name, strategy)) out.push_back(std::move(*c));
  return out;
}

/// Temporal blocking through local memory, 4 steps a launch on tiles of
/// 32x8 (2D; 8x8x8 in 3D, 256 in 1D), where the count is a multiple of 4
/// and the recipe applies (one iterated grid): a fixed row of the CUDA
/// bench, so that a GPU run measures it whatever its exploration finds (on
/// PoCL, which runs work-groups' barriers as loops, it is 5x slower than
/// plain and would only lengthen the bench).
std::optional<Contender> timeTiledLocalContender(const examples::Example &example, const Program &program) {
  const arith::Expr &steps = iterateCount(program.body());
  if (!steps.isConstant() || steps.constant() % 4 != 0) return std::nullopt;
  rewrite::RecipeOptions options;
  options.timeTile = 4;
  options.tileExtents = example.dims == 1   ? std::array<int64_t, 3>{256, 0, 0}
                        : example.dims == 2 ? std::array<int64_t, 3>{32, 8, 0}
                                            : std::array<int64_t, 3>{8, 8, 8};
  std::string tile = example.dims == 1 ? "256" : example.dims == 2 ? "32x8" : "8x8x8";
  return contenderWhereItApplies(example, program, "timeTiledLocal time=4 tile=" + tile,
                                 rewrite::Recipe::TimeTiledLocal, options);
}

/// Multi-stage programs: with every fusible intermediate recomputed by its
/// readers (plain, local t=8, coarsened by 8 along x), or, for iterate, time
/// tiles of 2 and 4 steps per kernel dividing the count (plain and coarsened,
/// recomputing in private memory, and 4 through local memory).
std::vector<Contender> multiStageContenders(const examples::Example &example, codegen::Target target) {
  std::vector<Contender> out;
  Program program = example.build();
  rewrite::RecipeOptions coarsened;
  coarsened.coarsen = {8, 1, 1};
  if (program.body().isPrim(Op::Iterate)) {
    const arith::Expr &steps = iterateCount(program.body());
    for (int64_t t : {2, 4}) {
      if (!steps.isConstant() || steps.constant() % t != 0) continue;
      rewrite::RecipeOptions plain;
      plain.timeTile = coarsened.timeTile = t;
      out.push_back(optionsContender("plain time=" + std::to_string(t), rewrite::Recipe::Plain, plain, 1));
      out.push_back(
          optionsContender("coarsened x8 time=" + std::to_string(t), rewrite::Recipe::Coarsened, coarsened, 8));
    }
    if (target == codegen::Target::CUDA) {
      if (std::optional<Contender> local = timeTiledLocalContender(example, program)) out.push_back(std::move(*local));
      // Temporal blocking through streaming (4 steps of rows of 256 in 2D,
      // 2 steps of 32x8 plane tiles in 3D; chunks of 32), where it applies.
      const bool rows = example.dims == 2;
      std::optional<Contender> streamed = strategyContender(
          example, rows ? "timeTiledStream time=4 256 chunk=32 wg=256" : "timeTiledStream time=2 32x8 chunk=32 wg=32x8",
          rows ? "timeTile(4) ; streamLocal(32) ; tile(256) ; stepsToLocal ; mapWrg(x,y) ; wg(256)"
               : "timeTile(2) ; streamLocal(32) ; tile(32,8) ; stepsToLocal ; mapWrg(x,y,z) ; wg(32,8)");
      if (streamed) out.push_back(std::move(*streamed));
    }
    return out;
  }
  // Only where fusing changes the program (an intermediate that is also a
  // result stays a kernel): elsewhere fused rows would repeat the others.
  if (!rewrite::hasFusibleStage(typeCheck(program, example.paperSizes))) return out;
  rewrite::RecipeOptions plain, local;
  plain.fusion = local.fusion = coarsened.fusion = rewrite::Fusion::Inline;
  local.tileOutputs = 8;
  out.push_back(optionsContender("plain fused", rewrite::Recipe::Plain, plain, 1));
  out.push_back(optionsContender("local t=8 fused", rewrite::Recipe::Local, local, 8));
  out.push_back(optionsContender("coarsened x8 fused", rewrite::Recipe::Coarsened, coarsened, 8));
  return out;
}

Contender exploredContender(const explore::BestKernel &best) {
  explore::Configuration configuration = explore::Configuration::fromJson(best.launch.at("configuration"));
  // Where the exploration ran at other sizes than the benchmark, say so.
  std::string variant = "explored " + configuration.key() + " @" + best.launch.value("sizes", "?");
  Contender contender{variant, ContenderKind::Explored, configuration.tile > 0 ? configuration.tile : 1,
                      [configuration](const Program &typed, const Sizes &, codegen::Target target) {
                        Program lowered = driver::lower(typed, configuration);
                        return ContenderKernel{driver::generate(lowered, configuration, target),
                                               driver::launchLocalSize(configuration)};
                      }};
  contender.tolerance = codegen::fastMathTolerance(configuration.fastMath, configuration.divToMul);
  return contender;
}

} // namespace

std::optional<CoarsenedVariant> parseCoarsenedVariant(const std::string &spec) {
  std::string text = spec;
  CoarsenedVariant variant;
  const std::string global = ":global", specialised = ":spec", noinline = ":noinline";
  if (text.size() > noinline.size() && text.ends_with(noinline)) {
    variant.noinlineBorder = true;
    text.resize(text.size() - noinline.size());
    if (!text.ends_with(specialised)) return std::nullopt; // it changes the border code of a specialised kernel
  }
  if (text.size() > specialised.size() && text.ends_with(specialised)) {
    variant.specialise = true;
    text.resize(text.size() - specialised.size());
  }
  if (size_t vec = text.rfind(":vec"); vec != std::string::npos && vec > 0) {
    std::string width = text.substr(vec + 4);
    if (width.empty() || width.size() > 2 ||
        !std::all_of(width.begin(), width.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        !isVectorWidth(std::stoll(width)))
      return std::nullopt;
    variant.vectorWidth = std::stoll(width);
    text.resize(vec);
  }
  if (text.size() > global.size() && text.ends_with(global)) {
    variant.privateWindow = false;
    text.resize(text.size() - global.size());
  }
  const char *dimension = text.empty() ? nullptr : std::strchr(kDimensionNames, text[0]);
  if (!dimension || *dimension == '\0' || text.size() < 2 || text.size() > 3) return std::nullopt;
  if (!std::all_of(text.begin() + 1, text.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
  int64_t factor = std::stoll(text.substr(1));
  if (factor < 1 || factor > 64) return std::nullopt;
  variant.factors[static_cast<size_t>(dimension - kDimensionNames)] = factor;
  return variant;
}

std::vector<Contender> contendersFor(const examples::Example &example, const ContenderOptions &options,
                                     codegen::Target target) {
  std::vector<Contender> out{recipeContender(rewrite::Recipe::Plain, 0), plainFastMathContender()};
  // 2.5D streaming marches the outermost dimension of 2D and 3D stencils;
  // on a GPU also through local memory (streamLocalContenders).
  if (example.dims >= 2) out.push_back(recipeContender(rewrite::Recipe::Stream, 0));
  if (example.dims >= 2 && target == codegen::Target::CUDA)
    for (Contender &local : streamLocalContenders(example)) out.push_back(std::move(local));
  if (options.specialised) {
    out.push_back(specialisedPlainContender(false));
    out.push_back(specialisedPlainContender(true));
    if (target == codegen::Target::OpenCL) out.push_back(specialisedPlainContender(true, true));
  }
  for (int64_t tile : options.tiles) {
    out.push_back(recipeContender(rewrite::Recipe::Tiled, tile));
    out.push_back(recipeContender(rewrite::Recipe::Local, tile));
  }
  const int dims = static_cast<int>(example.sizeNames.size());
  for (const CoarsenedVariant &v : options.coarsened.value_or(defaultCoarsenedVariants(dims))) {
    bool beyond = false;
    for (int d = dims; d < 3; ++d) beyond = beyond || v.factors[static_cast<size_t>(d)] > 1;
    if (!beyond) out.push_back(coarsenedContender(v));
  }
  for (const explore::BestKernel &best : options.explored)
    if (best.launch.value("program", "") == example.name) out.push_back(exploredContender(best));
  for (Contender &c : hostLoopContenders(example, options.explored)) out.push_back(std::move(c));
  for (Contender &c : multiStageContenders(example, target)) out.push_back(std::move(c));
  if (std::optional<ReferenceSchedule> schedule = referenceSchedule(example.name))
    out.push_back(
        {"hand-written", ContenderKind::Reference, 1,
         [example, schedule = *schedule](const Program &typed, const Sizes &sizes, codegen::Target target) {
           return ContenderKernel{scheduledReferenceKernel(example, schedule, target, typed, sizes), std::nullopt};
         }});
  else if (std::optional<ReferenceKernel> reference = findReferenceKernel(example.name, target))
    out.push_back(
        {"hand-written", ContenderKind::Reference, 1,
         [example, source = reference->source](const Program &typed, const Sizes &sizes, codegen::Target target) {
           return ContenderKernel{referenceKernel(example, source, target, typed, sizes), std::nullopt};
         }});
  if (std::optional<ReferenceKernel> expert = findExpertKernel(example.name, target))
    out.push_back(
        {"expert", ContenderKind::Expert, 1,
         [example, source = expert->source](const Program &typed, const Sizes &sizes, codegen::Target target) {
           return ContenderKernel{expertKernel(example, source, target, typed, sizes), std::nullopt};
         }});
  return out;
}

codegen::Kernel referenceKernel(const examples::Example &example, std::string_view source, codegen::Target target,
                                const Program &typed, const Sizes &sizes) {
  codegen::Kernel kernel;
  kernel.target = target;
  kernel.name = example.name;
  kernel.source = std::string(source);
  for (const Expr &input : typed.inputs())
    kernel.args.push_back({input.name(), codegen::KernelArg::Role::Input, ScalarKind::Float,
                           arith::Expr(scalarCount(input.typeOrThrow(), sizes))});
  kernel.args.push_back(
      {"out", codegen::KernelArg::Role::Output, ScalarKind::Float, arith::Expr(outputElements(typed, sizes))});
  addReferenceGrid(kernel, example, sizes);
  return kernel;
}

codegen::Kernel expertKernel(const examples::Example &example, std::string_view source, codegen::Target target,
                             const Program &typed, const Sizes &sizes) {
  codegen::Kernel kernel = referenceKernel(example, source, target, typed, sizes);
  kernel.name = example.name + "_expert";
  const int64_t innermost = sizes.at(example.sizeNames.back());
  kernel.globalSize[0] = arith::Expr((innermost + kExpertOutputsAlongX - 1) / kExpertOutputsAlongX);
  return kernel;
}

} // namespace liftcc::bench
