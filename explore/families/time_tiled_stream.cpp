// The timeTiledStream family: temporal blocking of a 2D or 3D iterate(n, f, A)
// through streaming (rewrite recipe timeTiledStream, rewrite/time_tiled_local.h):
// each depth of SpaceOptions::timeTiledStreamDepths within n with each chunk
// of SpaceOptions::streamChunks planes and plane tile of
// SpaceOptions::streamTiles (a 2D program's rows: SpaceOptions::streamRows),
// the streamLocal family's planes. A derived row, as timeTiledLocal.
#include "explore/families/family.h"

#include "core/ir/iterated_state.h"
#include "core/ir/operands.h"

namespace liftcc::explore::families {

namespace {

/// The depths (at least 2) within the constant iteration count of a 2D or 3D
/// program's loop (mainLoop); none for other programs and iterates over a tuple.
std::vector<int64_t> depthsWithin(const Program &typed, const SpaceOptions &options) {
  const std::optional<Expr> loop = mainLoop(typed);
  const size_t rank = outputRank(typed);
  if (!loop || !iterateCount(*loop).isConstant() || iteratesTuple(typed) || rank < 2 || rank > 3) return {};
  std::vector<int64_t> depths;
  for (int64_t depth : options.timeTiledStreamDepths)
    if (depth >= 2 && depth <= iterateCount(*loop).constant()) depths.push_back(depth);
  return depths;
}

std::vector<Proposal> timeTiledStreamConfigurations(const FamilyInput &in) {
  std::vector<Configuration> planes;
  if (outputRank(in.typed) == 2 && !in.options.streamRows.empty()) {
    for (int64_t row : in.options.streamRows)
      planes.push_back(Configuration{rewrite::Recipe::TimeTiledStream, row, {0, 0, 0}});
  } else {
    for (const auto &shape : in.options.streamTiles) {
      Configuration c{rewrite::Recipe::TimeTiledStream, 8, {0, 0, 0}};
      c.tileShape = shape;
      if (outputRank(in.typed) == 2) c.tileShape[1] = 0; // the plane of a 2D grid is a row
      planes.push_back(c);
    }
  }
  std::vector<Configuration> configurations;
  for (int64_t depth : depthsWithin(in.typed, in.options))
    for (const Configuration &plane : planes)
      for (int64_t chunk : in.options.streamChunks) {
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
