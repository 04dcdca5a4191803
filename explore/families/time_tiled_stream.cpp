// The timeTiledStream family: temporal blocking of a 2D or 3D iterate(n, f, A)
// through streaming (rewrite recipe timeTiledStream, rewrite/time_tiled_local.h):
// each depth of SpaceOptions::timeTiledStreamDepths within n with each chunk
// of SpaceOptions::streamChunks planes and plane tile of
// SpaceOptions::streamTiles (a 2D program's rows: SpaceOptions::streamRows),
// the streamLocal family's planes. A derived row, as timeTiledLocal.
#include "explore/families/family.h"

namespace liftcc::explore::families {

namespace {

/// The family's depths within the loop of a 2D or 3D program.
std::vector<int64_t> depthsWithin(const Program &typed, const SpaceOptions &options) {
  const size_t rank = outputRank(typed);
  return rank < 2 || rank > 3 ? std::vector<int64_t>{} : depthsWithinLoop(typed, options.timeTiledStreamDepths);
}

std::vector<Proposal> timeTiledStreamConfigurations(const FamilyInput &in) {
  std::vector<Configuration> planes = streamPlaneTiles(in, rewrite::Recipe::TimeTiledStream);
  // The plane of a 2D grid is a row: its chunk is the tile's other extent.
  if (outputRank(in.typed) == 2)
    for (Configuration &c : planes) c.tileShape[1] = 0;
  std::vector<Configuration> configurations;
  for (int64_t depth : depthsWithin(in.typed, in.options))
    for (const Configuration &plane : planes)
      for (int64_t chunk : streamChunksWithin(in)) {
        Configuration c = plane;
        c.streamChunk = chunk;
        c.timeTile = depth;
        configurations.push_back(c);
      }
  return inSpace(configurations);
}

} // namespace

Family timeTiledStreamFamily() {
  Family f;
  f.name = "timeTiledStream";
  f.lowering = "timeTile(D) ; streamLocal(C) ; tile(X[,Y]) ; stepsToLocal ; mapWrg(D..)";
  f.stage = Stage::Derived;
  f.include = &SpaceOptions::includeTimeTiledStream;
  f.parameters = [](const SpaceOptions &o) -> Parameters {
    return {{"timeTiledStreamDepth", listText(o.timeTiledStreamDepths)}};
  };
  f.appliesTo = [](const Program &typed, const SpaceOptions &o) { return !depthsWithin(typed, o).empty(); };
  f.configurations = timeTiledStreamConfigurations;
  f.member = [](const Configuration &c) { return c.recipe == rewrite::Recipe::TimeTiledStream; };
  return f;
}

} // namespace liftcc::explore::families
