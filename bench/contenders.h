#pragma once
// The kernels the benchmark compares for one example: generated variants
// (the plain, tiled and local-memory recipes, the explored best if a result
// store has one) and the hand-written reference. Each contender can produce
// its launch at any problem size, so the same contender is first verified at
// a small size and then timed at the benchmark size.

#include "bench/kernel_launch.h"
#include "examples/example.h"
#include "explore/best_kernels.h"

#include <functional>
#include <string>
#include <vector>

namespace liftcc::bench {

/// Peer: another system's implementation (bench/peers.h), not an OpenCL kernel.
enum class ContenderKind { Generated, Explored, Reference, Peer };

struct Contender {
  std::string variant; ///< e.g. "plain", "tiled t=8", "hand-written"
  ContenderKind kind;
  /// Every problem size must be a multiple of this (tiling requires it).
  int64_t sizeMultiple = 1;
  /// The launch at concrete sizes. `typed` is the example's program
  /// type-checked at `sizes`. Throws rewrite::RewriteError or
  /// codegen::CodegenError when the variant does not apply at these sizes.
  std::function<KernelLaunch(const Program &typed, const Sizes &sizes)> launchAt;
};

struct ContenderOptions {
  /// Tile sizes (outputs per tile and dimension) of the tiled and local variants.
  std::vector<int64_t> tiles{8};
  /// Best kernels recorded by `liftc explore` for the device; those of this
  /// example are added as contenders (their configuration, re-derived at the
  /// benchmark's sizes).
  std::vector<explore::BestKernel> explored;
};

/// Generated contenders first (plain, then tiled and local per tile size,
/// then explored bests), the hand-written reference last if one exists.
std::vector<Contender> contendersFor(const examples::Example &example, const ContenderOptions &options);

/// The launch of a reference kernel at concrete sizes, following the
/// convention of bench/reference_kernels.h.
KernelLaunch referenceLaunch(const examples::Example &example, std::string_view source, const Program &typed,
                             const Sizes &sizes);

} // namespace liftcc::bench
