// The timeTiledLocal family: temporal blocking of iterate(n, f, A) through
// local memory (rewrite recipe timeTiledLocal, rewrite/time_tiled_local.h):
// each depth of SpaceOptions::timeTiledLocalDepths that divides n with each
// tile of SpaceOptions::timeTiledLocalTiles (truncated to the grid's rank).
// Its configurations come from the options alone, but it is enumerated after
// the derived families (as a derived row), so that timeTiled and fused never
// derive from its programs.
#include "explore/families/family.h"

namespace liftcc::explore::families {

namespace {

/// The family's depths within the program's loop.
std::vector<int64_t> depthsWithin(const Program &typed, const SpaceOptions &options) {
  return depthsWithinLoop(typed, options.timeTiledLocalDepths);
}

std::vector<Proposal> timeTiledLocalConfigurations(const FamilyInput &in) {
  std::vector<Configuration> configurations;
  const size_t rank = outputRank(in.typed);
  for (int64_t depth : depthsWithin(in.typed, in.options))
    for (const auto &tile : in.options.timeTiledLocalTiles) {
      Configuration c{rewrite::Recipe::TimeTiledLocal, 8, {0, 0, 0}};
      for (size_t d = 0; d < rank && d < 3; ++d) c.tileShape[d] = tile[d] > 0 ? tile[d] : c.tile;
      c.timeTile = depth;
      configurations.push_back(c);
    }
  return inSpace(configurations);
}

} // namespace

Family timeTiledLocalFamily() {
  Family f;
  f.name = "timeTiledLocal";
  f.lowering = "timeTile(D) ; tile(X,Y[,Z]) ; stepsToLocal ; mapWrg(D..)";
  f.stage = Stage::Derived;
  f.include = &SpaceOptions::includeTimeTiledLocal;
  f.parameters = [](const SpaceOptions &o) -> Parameters {
    return {{"timeTiledLocalDepth", listText(o.timeTiledLocalDepths)},
            {"timeTiledLocalTile", shapesText(o.timeTiledLocalTiles)}};
  };
  f.appliesTo = [](const Program &typed, const SpaceOptions &o) { return !depthsWithin(typed, o).empty(); };
  f.configurations = timeTiledLocalConfigurations;
  f.member = [](const Configuration &c) { return c.recipe == rewrite::Recipe::TimeTiledLocal; };
  return f;
}

} // namespace liftcc::explore::families
