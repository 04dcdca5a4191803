#pragma once
// The kernels the benchmark compares for one example: generated variants
// (the plain, tiled and local-memory recipes, the explored best if a result
// store has one) and the hand-written reference. Each contender can produce
// its kernel at any problem size and in either dialect, so the same
// contender is first verified at a small size and then timed at the
// benchmark size, on an OpenCL device or a CUDA GPU. All of them run through
// the one launch plan (tuner/run_plan.h), so they are built, checked and
// timed the same way.

#include "bench/grids.h"
#include "codegen/fast_math.h"
#include "codegen/kernel.h"
#include "examples/example.h"
#include "explore/best_kernels.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::bench {

/// Reference: the naive hand-written kernel (one work-item per point), the
/// base of the "vs hand-written" ratios; Expert: the expert hand-written one
/// (bench/reference_kernels.h). Peer: another system's implementation
/// (bench/peers.h), not an OpenCL kernel.
enum class ContenderKind { Generated, Explored, Reference, Expert, Peer };

/// A contender at concrete sizes: the kernel with its launch metadata (a
/// hand-written kernel's follows bench/reference/README.md) and the
/// work-group size to launch it with (nullopt: the kernel's own, else the
/// backend's default).
struct ContenderKernel {
  codegen::Kernel kernel;
  std::optional<std::array<size_t, 3>> local;
};

struct Contender {
  std::string variant; ///< e.g. "plain", "tiled t=8", "hand-written"
  ContenderKind kind;
  /// Every problem size must be a multiple of this (tiling requires it).
  int64_t sizeMultiple = 1;
  /// The kernel at concrete sizes in the dialect `target`. `typed` is the
  /// example's program type-checked at `sizes`. Throws rewrite::RewriteError
  /// or codegen::CodegenError when the variant does not apply at these sizes.
  std::function<ContenderKernel(const Program &typed, const Sizes &sizes, codegen::Target target)> kernelAt;
  /// What its verification allows: the tight default, or what its fast-math
  /// choice permits (codegen::fastMathTolerance).
  Tolerance tolerance = codegen::fastMathTolerance(codegen::FastMath::None, false);
};

/// A coarsened variant: outputs per work-item along x, y, z, and whether the
/// window is copied to private memory.
struct CoarsenedVariant {
  std::array<int64_t, 3> factors{1, 1, 1};
  bool privateWindow = true;
  /// Boundary specialisation, launched guard-free (as the "plain+spec wg" row).
  bool specialise = false;
  /// With specialise: codegen::CodegenOptions::noinlineBorder.
  bool noinlineBorder = false;
  /// Vector lanes along x (rewrite::RecipeOptions::vectorWidth), 0: scalar.
  int64_t vectorWidth = 0;
};
/// "x8", "z4", "x8:global" (the window read from global memory), then
/// optionally ":vec4" (vectors of 2, 4, 8 or 16 lanes along x) and ":spec"
/// (boundary-specialised, guard-free launch), itself optionally followed by
/// ":noinline" (CodegenOptions::noinlineBorder); nullopt when `spec` is not
/// of that form (a factor from 1 to 64).
std::optional<CoarsenedVariant> parseCoarsenedVariant(const std::string &spec);

struct ContenderOptions {
  /// Tile sizes (outputs per tile and dimension) of the tiled and local variants.
  std::vector<int64_t> tiles{8};
  /// Coarsened variants; nullopt: by 8 along x and along the example's
  /// outermost dimension. Variants along a dimension the example does not
  /// have are left out.
  std::optional<std::vector<CoarsenedVariant>> coarsened;
  /// Best kernels recorded by `liftc explore` for the device; those of this
  /// example are added as contenders (their configuration, re-derived at the
  /// benchmark's sizes).
  std::vector<explore::BestKernel> explored;
  /// The plain recipe with boundary specialisation ("plain+spec", with the
  /// runtime's work-group size, and "plain+spec wg", guard-free; on OpenCL
  /// also "plain+spec wg noinline-border", CodegenOptions::noinlineBorder).
  bool specialised = true;
};

/// Generated contenders first (plain, plain fast-math, then tiled and local per tile size,
/// the coarsened variants, then explored bests), the hand-written reference last if one exists for
/// `target`.
std::vector<Contender> contendersFor(const examples::Example &example, const ContenderOptions &options,
                                     codegen::Target target);

/// A reference kernel's source as a kernel with the launch metadata of the
/// convention of bench/reference_kernels.h, at concrete sizes: inputs, the
/// output, the sizes as ints; one work-item per output, innermost first.
codegen::Kernel referenceKernel(const examples::Example &example, std::string_view source, codegen::Target target,
                                const Program &typed, const Sizes &sizes);

/// The same for an expert reference (bench/reference_kernels.h): the kernel
/// `<example>_expert`, kExpertOutputsAlongX outputs per work-item along x.
codegen::Kernel expertKernel(const examples::Example &example, std::string_view source, codegen::Target target,
                             const Program &typed, const Sizes &sizes);

} // namespace liftcc::bench
