// The timeTiled family: for a program iterate(n, f, A), every program of the
// base families again with each time tile of SpaceOptions::timeTiles that
// divides n (Configuration::timeTile), and the coarsenings in every dimension
// of SpaceOptions::timeTileCoarsenings with it (a time tile recomputes a halo
// that only tiles wide in every dimension amortise; space.h).
#include "explore/families/family.h"

namespace liftcc::explore::families {

namespace {

Parameters timeTiledParameters(const SpaceOptions &o) {
  return {{"timeTile", listText(o.timeTiles)},
          {"timeTileCoarsen", shapesText(o.timeTileCoarsenings)},
          {"timeTiledShapes", std::to_string(o.timeTiledGroupShapes)}};
}

/// Coarsened in every dimension of the output by each extent of
/// SpaceOptions::timeTileCoarsenings (truncated to the output's rank).
std::vector<Configuration> everyDimensionCoarsened(const Program &typed, const SpaceOptions &options) {
  std::vector<Configuration> configurations;
  const size_t rank = outputRank(typed);
  for (const std::array<int64_t, 3> &extents : options.timeTileCoarsenings) {
    Configuration c;
    c.recipe = rewrite::Recipe::Coarsened;
    for (size_t d = 0; d < rank; ++d) c.coarsen[d] = extents[d];
    configurations.push_back(c);
  }
  return configurations;
}

std::vector<Proposal> timeTiledConfigurations(const FamilyInput &in) {
  std::vector<Proposal> proposals;
  for (int64_t t : timeTilesWithin(in.typed, in.options)) {
    for (Configuration c : in.basePrograms) {
      c.timeTile = t;
      proposals.push_back({c, true, false});
    }
    for (Configuration c : everyDimensionCoarsened(in.typed, in.options)) {
      c.timeTile = t;
      proposals.push_back({c, true, true});
    }
  }
  return proposals;
}

} // namespace

Family timeTiledFamily() {
  Family f;
  f.name = "timeTiled";
  f.lowering = "timeTile(T) ; a base family's composition";
  f.stage = Stage::Derived;
  f.include = &SpaceOptions::includeTimeTiled;
  f.parameters = timeTiledParameters;
  f.appliesTo = [](const Program &typed, const SpaceOptions &o) { return !timeTilesWithin(typed, o).empty(); };
  f.configurations = timeTiledConfigurations;
  f.member = [](const Configuration &c) { return c.timeTile > 1; };
  return f;
}

} // namespace liftcc::explore::families
