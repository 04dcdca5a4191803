#pragma once
// Multi-kernel programs. An intermediate array a computation reads (through a
// neighbourhood, a zip, any view) must be complete before any of it is read:
// that needs a global barrier, which one OpenCL/CUDA kernel cannot have. So
// every such intermediate becomes a stage of its own, a kernel writing a
// global temporary that the next stage reads (the stencil of a stencil
// `map(g, slide(3,1, pad(1,1,clamp, map(f, slide(3,1, pad(1,1,clamp, A))))))`
// is two kernels). Without this, lowering put the whole intermediate in every
// work-item's private memory, recomputed and unrolled per work-item.
//
// Each stage is an ordinary single-kernel program over the original inputs and
// the temporaries before it, lowered by the recipe on its own; the lowered
// stages are joined into one low-level program in which each temporary is
// `toGlobal(\p. stage body, x)` (p unused, x an input: the closed body), which
// code generation turns into one kernel per toGlobal (codegen/generator_stages.cpp).

#include "core/ir/expr.h"

#include <functional>
#include <optional>
#include <vector>

namespace liftcc::rewrite {

struct StagedProgram {
  struct Stage {
    Expr temporary;  ///< the typed parameter standing for the stage's result in later stages
    Program program; ///< typed; its inputs: the original inputs and earlier temporaries it reads
  };
  std::vector<Stage> stages; ///< in dependency order
  Program last;              ///< typed; computes the program's result
};

/// The stages of a typed high-level program, or nullopt when it has no
/// intermediate array (the single-kernel programs, which stay exactly as they
/// were) or has `iterate` (its host loop runs one kernel). An intermediate is a
/// map or reduce whose result is read by another map or reduce through data
/// operands only (views: pad, slide, zip, ...); maps that only rearrange data
/// (map(transpose), map(slide)) are views.
std::optional<StagedProgram> splitStages(const Program &typed);

/// `e` with every application of a lambda to arrays, `(\x. B)(A)` (how a
/// program names an intermediate it reads more than once), replaced by B
/// with x bound to A; bindings of scalars stay. splitStages inlines them so
/// that A becomes a stage, and lowerIterate before it composes steps.
Expr inlineArrayBindings(const Expr &e);

/// Whether a stage can be fused into the stages reading it: its result is
/// computable element by element where it is read (maps of scalar functions
/// over views, no reduction), so a reader can recompute each element it
/// needs instead of loading it from a temporary.
bool fusible(const StagedProgram::Stage &stage);

/// Whether Fusion::Inline changes `typed`: a multi-kernel program with a
/// fusible stage that is not also a component of its result (one that is
/// writes an output buffer, so it stays a kernel).
bool hasFusibleStage(const Program &typed);

/// How the stages of a multi-kernel program become kernels.
enum class Fusion {
  /// Every stage its own kernel writing a global temporary.
  Separate,
  /// Every fusible stage is inlined into its readers: each reader lowered
  /// with the temporary as an input, which is then replaced by the stage's
  /// high-level (unlowered) computation, so the code generator recomputes
  /// each element where it is read. What the reader's recipe does with its
  /// input decides where the recomputed halo lives: re-read per use (plain,
  /// tiled), once per tile in local memory (local), once per work-item's
  /// window in private memory (coarsened with a private window).
  Inline,
};

/// Lowers every stage with `lower` and joins them into one typed low-level
/// program (see above). A stage `lower` refuses (RewriteError: e.g. tiling a
/// pointwise map) is lowered by `fallback`; when `lower` refuses every
/// stage, its first error is thrown, naming the kernel. With Fusion::Inline,
/// fusible stages are not kernels but recomputed by their readers.
Program lowerStages(const Program &typed, const StagedProgram &staged,
                    const std::function<Program(const Program &)> &lower,
                    const std::function<Program(const Program &)> &fallback, Fusion fusion = Fusion::Separate);

} // namespace liftcc::rewrite
