#pragma once
// A strategy family of the exploration space as a value (issue #32 item 2):
// its name, its parameters (SpaceOptions fields, printed by `liftc explore
// --space`), the programs it applies to, how its configurations are generated
// and which lowering composition they name. Each family is one file of this
// folder; families() (table.cpp) lists them in enumeration order, and the
// space (explore/space.cpp) is that table's product with the launches,
// generated lazily (describeSpace). Adding a family: its file, its row in
// families(), and a test (docs/architecture.md, The family table).

#include "explore/space.h"

#include <string>
#include <utility>
#include <vector>

namespace liftcc::explore::families {

/// One configuration a family proposes. `inSpace` false: the program is
/// lowered only for the mapping family to remap (its family is not selected,
/// its recipe is mapped). `everyDimension`: coarsened in every dimension for
/// a time tile (launched with SpaceOptions::timeTiledGroupShapes).
struct Proposal {
  Configuration configuration;
  bool inSpace = true;
  bool everyDimension = false;
};

/// What a family's configurations are generated from.
struct FamilyInput {
  const Program &typed; ///< the high-level program, type-checked at the exploration sizes
  const SpaceOptions &options;
  /// Derived families (fused, timeTiled): the configurations of the base
  /// families' programs, in their order.
  const std::vector<Configuration> &basePrograms;
  /// The mapping family: the base programs whose recipe is mapped, lowered.
  const std::vector<std::pair<Configuration, Program>> &remappable;
};

/// Whether the mapping family remaps a base family's programs (when the
/// family's recipe is in SpaceOptions::mappedRecipes).
enum class Remapped {
  Never,
  WhenSelected, ///< only when the family itself is selected
  Always,       ///< also when only the mapping family is selected
};

enum class Stage {
  Base,    ///< configurations from SpaceOptions alone
  Derived, ///< configurations from the base families' programs (mapping, fused, timeTiled)
};

using Parameters = std::vector<std::pair<std::string, std::string>>;

struct Family {
  std::string name;
  /// The rule composition its strategies print as (explore/strategy_text.h).
  std::string lowering;
  Stage stage = Stage::Base;
  /// The SpaceOptions flag that selects it (`liftc explore --families`).
  bool SpaceOptions::*include = nullptr;
  /// Its own parameters as `liftc explore --space` prints them (the launch
  /// parameters every family shares follow them).
  Parameters (*parameters)(const SpaceOptions &) = nullptr;
  /// The constraint on programs: whether the family exists for this program
  /// at all (fused: an intermediate to fuse; timeTiled: an iterate with a
  /// dividing time tile). Null: every program (a configuration whose rules
  /// do not apply is left out when lowered).
  bool (*appliesTo)(const Program &typed, const SpaceOptions &) = nullptr;
  /// Its configurations in enumeration order.
  std::vector<Proposal> (*configurations)(const FamilyInput &) = nullptr;
  /// Whether a configuration belongs to it; familyOf is the last row claiming it.
  bool (*member)(const Configuration &) = nullptr;
  Remapped remapped = Remapped::Never;
  /// Consecutive base rows with the same non-empty tag are enumerated
  /// alternately, one configuration each (tiled and local: each tile tiled,
  /// then local).
  std::string interleave;

  bool selected(const SpaceOptions &options) const { return options.*include; }
};

/// The families, in enumeration order: plain, stream, streamLocal, tiled,
/// local, coarsened, vector, mapping, fused, timeTiled, timeTiledLocal,
/// timeTiledStream.
const std::vector<Family> &families();

/// The row named `name`, or null.
const Family *findFamily(const std::string &name);

// Helpers the family files share.
/// "4,8,16" (values joined by commas).
std::string listText(const std::vector<int64_t> &values);
/// "32x4x1,16x8x1", or "none" for an empty list.
std::string shapesText(const std::vector<std::array<int64_t, 3>> &shapes);
/// "private,global": the coarsened windows tried.
std::string windowsText(const std::vector<bool> &windows);
/// Proposals of `configurations`, each in the space.
std::vector<Proposal> inSpace(const std::vector<Configuration> &configurations);
/// The extents of the program's result, innermost first (INT64_MAX where symbolic).
std::vector<int64_t> outputExtents(const Program &typed);
/// The number of array dimensions of the program's result (at most 3).
size_t outputRank(const Program &typed);
/// NDRange dimensions of a lowered program: 1 + the largest dimension of its
/// mapGlb/mapWrg (1 when it has none).
int ndrangeDimensions(const Program &lowered);
/// The iterate of the program's host loop with the most steps: the body, or
/// the longest level of the chain of iterates it is, or that the stages
/// around its iterate make (rewrite/iterate_chain.h). Time tiles fuse that
/// many steps at most. nullopt for programs without such a loop.
std::optional<Expr> mainLoop(const Program &typed);
/// The depths of `depths` (at least 2) within the constant iteration count
/// of the program's loop (mainLoop; one that does not divide it ends with a
/// launch of the steps left): the time tiles through local memory. None for
/// other programs and for iterates over a tuple.
std::vector<int64_t> depthsWithinLoop(const Program &typed, const std::vector<int64_t> &depths);
/// The plane tiles of a stream through local memory of `recipe`: a 2D
/// program's rows (SpaceOptions::streamRows, `tile(X)`), else each of
/// SpaceOptions::streamTiles as a tile shape. An extent wider than the
/// output's is the output's (a row of 41 for a 41-wide grid, not 128: the
/// space drops tiles wider than the output, so small grids had no stream).
std::vector<Configuration> streamPlaneTiles(const FamilyInput &in, rewrite::Recipe recipe);
/// SpaceOptions::streamChunks, each at most the output's outermost extent
/// (in order, each once).
std::vector<int64_t> streamChunksWithin(const FamilyInput &in);
/// A time tile of t steps recomputes each step's window at every read of
/// the next: about w^t reads per output for steps of w reads. Beyond this
/// many the tile cannot pay for itself, and generating its kernels took
/// minutes (a radius-4 3D box, 729^2 reads, coarsened: 97 s).
inline constexpr double kMaxTimeTileReads = 20000;

/// The time tiles of SpaceOptions::timeTiles (above 1) at most the constant
/// iteration count of a program iterate(n, f, input) (one that does not
/// divide n ends with a launch of the steps left) and within
/// kMaxTimeTileReads; none for other programs or when the timeTiled family
/// is not selected.
std::vector<int64_t> timeTilesWithin(const Program &typed, const SpaceOptions &options);

} // namespace liftcc::explore::families
