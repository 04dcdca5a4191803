#pragma once
// The exploration space of a program: the union of strategy families (plain,
// stream, tiled and local-memory tiling with each tile size and tile shape,
// coarsened along each dimension with each factor, vectorised plain and
// coarsened, and the mapping family: those programs under other mappings of
// their map nest; and for multi-kernel programs the fused family: those
// programs with the intermediates recomputed by their readers), each crossed
// with work-group sizes, boundary
// specialisation and fast-math levels. Every variant is a strategy
// (explore/strategy_text.h). Nothing is hand-written per program: tile sizes
// are those the tiling rule accepts for the program's types (a tile extent
// that does not divide the output's gives a partial last tile; tiles wider
// than the output are left out), mappings those its map nest has, and
// variants whose kernels cannot run on the device (local memory, work-group
// size) are dropped after generating them. Variants are deduplicated by their
// kernel and launch (source, build options, NDRange, work-group shape).

#include "codegen/kernel.h"
#include "explore/configuration.h"
#include "tuner/device.h"

#include <chrono>
#include <cstdint>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::explore {

using tuner::DeviceLimits;

struct SpaceOptions {
  std::vector<int64_t> tileSizes{4, 8, 16, 32};
  /// Tiles with one extent per dimension (x first) for tiled and local, where
  /// the output has that many dimensions (2D and 3D: 32 x 4 x 1).
  std::vector<std::array<int64_t, 3>> tileShapes{{32, 4, 1}};
  std::vector<int64_t> groupExtents{1, 2, 4, 8, 16, 32, 64, 128, 256};
  bool includeTiled = true;
  bool includeLocal = true;
  /// Coarsened variants: each factor along one dimension at a time (where it
  /// divides the extent), window in private memory, launched with
  /// `coarsenedGroupShapes` of the mapGlb shapes with wide rows (fewer than
  /// plain's, so the space stays within about twice its size without them).
  std::vector<int64_t> coarsenFactors{2, 4, 8};
  bool includeCoarsened = true;
  size_t coarsenedGroupShapes = 4;
  /// The vector family: for each width (rewrite::RecipeOptions::vectorWidth),
  /// plain and coarsened along x by each of `coarsenFactors` that is a
  /// multiple of it (each of `coarsenWindows`), launched with
  /// `coarsenedGroupShapes` of the mapGlb shapes; only where the width divides
  /// the x extent and the user functions run lane-wise.
  std::vector<int64_t> vectorWidths{4, 8};
  bool includeVector = true;
  /// The vector family also coarsens one vector wide along y or z by each of
  /// `coarsenFactors`, window in global memory (explore/families/vector.cpp).
  bool vectorCoarsensOuter = true;
  /// 2.5D streaming (recipe stream) of 2D and 3D stencils; the tuner may find it slower (e.g. on CPUs).
  bool includeStream = true;
  /// 2.5D streaming through local memory (recipe streamLocal): each chunk of
  /// `streamChunks` output planes and plane tile of `streamTiles` (x, y; a 2D
  /// program's rows: `streamRows`) a work-group, launched with the plane tile as its shape and
  /// the halved shapes. Off here (the library's default space and its tests
  /// stay as they were); `liftc explore --target cuda` turns it on, and
  /// --families streamLocal selects it for any target.
  bool includeStreamLocal = false;
  std::vector<int64_t> streamChunks{8, 32};
  std::vector<std::array<int64_t, 3>> streamTiles{{32, 4, 0}, {16, 8, 0}};
  /// A 2D program's row tiles (x extents): the rows streamed along y (none:
  /// the x extents of `streamTiles`, as before 2026-11-30).
  std::vector<int64_t> streamRows{128, 256};
  /// Each of those also with its plane's outputs as vectors of each width,
  /// the tile W times as wide along x (the same work-items per group).
  std::vector<int64_t> streamVectorWidths{4};
  /// A boundary-specialised twin of every variant (Configuration::specialise)
  /// and, in OpenCL, of each twin with an interior one whose border code calls
  /// never-inlined user functions (Configuration::noinlineBorder); and of
  /// each of those whose interior is decided per work-item, one whose border
  /// work-groups run the interior code in their interior work-items
  /// (Configuration::splitBorder; by hand, a strategy may split any
  /// specialised kernel's border, on either target).
  bool includeSpecialised = true;
  /// Fast-math levels every variant is crossed with (codegen/fast_math.h);
  /// `liftc explore` uses none and relaxed unless --fast-math says otherwise.
  std::vector<codegen::FastMath> fastMathLevels{codegen::FastMath::None};
  /// The dialect the variants' kernels are generated in.
  codegen::Target target = codegen::Target::OpenCL;
  /// The plain family (mapGlb with the default mapping).
  bool includePlain = true;
  /// Coarsened windows tried: private (true) and/or read from global memory (false).
  std::vector<bool> coarsenWindows{true};
  /// The mapping family (rewrite/mapping.h): the programs of the recipes in
  /// `mappedRecipes` (with their families' parameters) under every other
  /// mapping of their map nest (orders only for tiled/local), or only those in
  /// `mappings` when it is not empty. mapGlb programs are launched with the
  /// runtime's work-group shape and `mappedGroupShapes` explicit ones
  /// (spreadSample), so that 3D nests (8 alternative mappings) stay affordable.
  bool includeMapping = true;
  std::vector<rewrite::Recipe> mappedRecipes{rewrite::Recipe::Plain, rewrite::Recipe::Coarsened, rewrite::Recipe::Tiled,
                                             rewrite::Recipe::Local, rewrite::Recipe::Stream};
  std::vector<rewrite::Mapping> mappings;
  size_t mappedGroupShapes = 64;
  /// The fused family: for a multi-kernel program with an intermediate that
  /// can be recomputed per element (rewrite/stages.h), every program of the
  /// other families but mapping again with it fused into its readers
  /// (Configuration::fuse); none for single-kernel programs.
  bool includeFused = true;
  /// The timeTiled family: for a program iterate(n, f, A), every program of
  /// the other families but mapping again with each of these time tiles
  /// (deeper tiles recompute exponentially more with plain and tiled, and
  /// their specialised twins take long to generate: --param timeTile=2,4)
  /// that divides n (Configuration::timeTile); none for other programs.
  std::vector<int64_t> timeTiles{2};
  bool includeTimeTiled = true;
  /// The timeTiled family also coarsens every dimension of the output at
  /// once, by each of these extents (x, y, z; truncated to the output's
  /// rank), window in private memory: a tile of t steps recomputes a halo
  /// around each work-item's outputs, a share of about 2 r t / k of them per
  /// dimension coarsened by k, so only tiles wide in every dimension
  /// amortise it (the one-dimension coarsenings above recompute whole rows).
  /// Measured on PoCL, Jacobi 2D 4096², 16 steps: k=16x8 with t=2 47-52 ms,
  /// the best host loop of one step 55-66 ms, k=8x8 83-93 ms. Their
  /// work-groups: `timeTiledGroupShapes` of every mapGlb shape (not only wide
  /// rows: 16x2 ran 1.5x faster than 32x1 there).
  std::vector<std::array<int64_t, 3>> timeTileCoarsenings{{16, 8, 8}, {32, 8, 8}};
  size_t timeTiledGroupShapes = 16;
  /// The timeTiledLocal family (temporal blocking through local memory,
  /// rewrite/time_tiled_local.h): for a program iterate(n, f, A) whose step
  /// has a wrap or constant boundary, one kernel per `timeTiledLocalDepths`
  /// steps (those dividing n), one work-group per tile of
  /// `timeTiledLocalTiles` (x, y, z; truncated to the grid's rank), every
  /// intermediate step in local memory. Built for GPUs: off by default, on
  /// in the default space of --target cuda, --families selects it anywhere.
  bool includeTimeTiledLocal = false;
  std::vector<int64_t> timeTiledLocalDepths{2, 4};
  std::vector<std::array<int64_t, 3>> timeTiledLocalTiles{{32, 8, 0}, {16, 16, 0}, {8, 8, 8}};
  /// The timeTiledStream family (temporal blocking through streaming,
  /// rewrite/time_tiled_local.h): for a 2D or 3D program iterate(n, f, A),
  /// one kernel per `timeTiledStreamDepths` steps (those up to n), each chunk
  /// of `streamChunks` output planes and plane tile of `streamTiles` (a 2D
  /// program's rows: `streamRows`) a work-group, every step streaming its
  /// planes through local memory. Built for GPUs: as timeTiledLocal.
  bool includeTimeTiledStream = false;
  std::vector<int64_t> timeTiledStreamDepths{2, 4};
  /// Threads that generate the variants' kernels (0: one per hardware
  /// thread). The space is the same for any count.
  size_t threads = 0;
  /// enumerateSpace throws DeadlineReached (core/interp/deadline.h) once past
  /// it, checked before each program is lowered and each kernel generated:
  /// an exploration's budget covers its enumeration (a 1000x1000 window
  /// unrolled along a sequential row makes kernels of seconds each).
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

/// One strategy family of a space: its parameters (name, values as text) and
/// how many low-level programs and distinct kernels it contributed.
struct FamilySummary {
  std::string name;
  std::vector<std::pair<std::string, std::string>> parameters;
  size_t programs = 0;
  size_t variants = 0; ///< after deduplication (a kernel counts for the first family that generates it)
};

struct Variant {
  Configuration configuration;
  Program lowered; ///< typed low-level program at the exploration sizes
  codegen::Kernel kernel;
};

struct Space {
  std::vector<Variant> variants;
  size_t distinctPrograms = 0; ///< low-level programs before crossing with work-group sizes
  size_t dropped = 0;          ///< variants that do not fit the device
  size_t duplicates = 0;       ///< variants left out because an earlier one has the same kernel and launch
  /// The selected families, in enumeration order (fused only for programs
  /// with an intermediate to fuse).
  std::vector<FamilySummary> families;
};

/// The space described without generating its variants' kernels (issue #35
/// item 7: an exploration starts measuring at once instead of after
/// generating thousands of kernels). Each distinct low-level program is
/// lowered and its default kernel generated once (its NDRange, default
/// work-group and local memory decide its launches); every other kernel is
/// generated by buildCandidate when a search picks its configuration.
struct DescribedProgram {
  Configuration configuration; ///< the configuration that first lowered it
  Program lowered;
  codegen::Kernel base;     ///< the default kernel (no work-group shape, no specialisation)
  bool regroupable = false; ///< a user function has a sum the reassociate level regroups
};

/// One configuration of the description and the program it launches.
struct Candidate {
  Configuration configuration;
  size_t program = 0; ///< index into SpaceDescription::programs
};

struct SpaceDescription {
  std::vector<DescribedProgram> programs;
  /// In enumerateSpace's order (its programs round-robin, each with its
  /// launches, then their specialised, noinline-border and split-border
  /// twins, then the fast-math levels), but before the checks that need the
  /// kernels: a specialised twin whose kernel equals its unspecialised one, a
  /// noinline-border twin without an interior, a split-border twin without
  /// an interior decided per work-item and a duplicate kernel are
  /// candidates here and skipped when built (buildCandidate, the explorer).
  std::vector<Candidate> candidates;
  size_t dropped = 0; ///< programs or work-group shapes that do not fit the device
  /// Programs the code generator refused (counted in `dropped`), and the
  /// first refusal (a codegen::CodegenError, or the rewriting's
  /// rewrite::RewriteError when no configuration lowers): when nothing is
  /// left to explore, the exploration fails with it instead of finding no
  /// variant (explorer.cpp).
  size_t refused = 0;
  std::exception_ptr firstRefusal;
  size_t kernelsGenerated = 0; ///< by describeSpace itself: one per program at most
  /// The selected families; `variants` counts candidates here.
  std::vector<FamilySummary> families;
  codegen::Target target = codegen::Target::OpenCL;
  bool crossedWithFastMath = false; ///< options.fastMathLevels is not just none
};

/// The space of `typed` without generating the variants' kernels; throws
/// DeadlineReached like enumerateSpace.
SpaceDescription describeSpace(const Program &typed, const DeviceLimits &limits, const SpaceOptions &options = {});

/// A candidate built: its variant (the kernel enumerateSpace would give it),
/// or why it is no variant of its own (`skipped`): its specialisation changes
/// nothing, it has no interior for a noinline or split border, or rewriting or code
/// generation refused it.
struct BuiltCandidate {
  std::optional<Variant> variant;
  std::string skipped;
};
BuiltCandidate buildCandidate(const SpaceDescription &description, size_t candidate);

/// The kernel and its launch, as enumerateSpace's deduplication key.
std::string kernelIdentity(const Variant &variant);

/// Neighbour lists (neighbourLists) computed per index on demand: the
/// explorer's spaces have thousands of configurations, and all lists at once
/// cost a comparison per pair before the first measurement.
class NeighbourIndex {
public:
  explicit NeighbourIndex(std::vector<Configuration> configurations);
  std::vector<size_t> of(size_t index) const;
  size_t size() const { return configurations_.size(); }

private:
  bool related(const Configuration &a, const Configuration &b) const;
  std::vector<Configuration> configurations_;
  std::map<std::pair<rewrite::Recipe, int64_t>, std::array<int64_t, 3>> defaults_;
};

/// The families of the space, in enumeration order: plain, stream, tiled,
/// local, coarsened, vector, mapping, fused, timeTiled.
const std::vector<std::string> &familyNames();

/// `typed` is the high-level program type-checked at `sizes`.
Space enumerateSpace(const Program &typed, const DeviceLimits &limits, const SpaceOptions &options = {});

/// The variant of one configuration (which need not be part of the
/// enumerated space, e.g. a work-group size chosen by hand). Throws
/// rewrite::RewriteError or codegen::CodegenError when it does not apply.
Variant makeVariant(const Program &typed, const Configuration &configuration,
                    codegen::Target target = codegen::Target::OpenCL);

/// Index lists of neighbours for search strategies: areNeighbours, and
/// tiled/local configurations differing in recipe or tile whose work-group
/// shapes are the same relative to their program's default shape.
std::vector<std::vector<size_t>> neighbourLists(const std::vector<Configuration> &configurations);
std::vector<std::vector<size_t>> neighbourLists(const Space &space);

} // namespace liftcc::explore
