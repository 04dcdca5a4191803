// The streamLocal family: 2.5D streaming through local memory (rewrite recipe
// streamLocal), each chunk of SpaceOptions::streamChunks output planes and
// plane tile of SpaceOptions::streamTiles (a 2D program's rows:
// SpaceOptions::streamRows) a work-group; with each of
// SpaceOptions::streamVectorWidths, each work-item computes vectors along x.
#include "explore/families/family.h"

namespace liftcc::explore::families {

namespace {

Parameters streamLocalParameters(const SpaceOptions &o) {
  std::string planeTiles;
  for (const auto &t : o.streamTiles)
    planeTiles += (planeTiles.empty() ? "" : ",") + std::to_string(t[0]) + "x" + std::to_string(t[1]);
  return {{"streamChunk", listText(o.streamChunks)},
          {"streamTile", planeTiles},
          {"streamRow", listText(o.streamRows)},
          {"streamVector", o.streamVectorWidths.empty() ? "none" : listText(o.streamVectorWidths)}};
}

/// Each plane tile with each chunk, in scalars and in vectors of each
/// width: a vector kernel's tile is W times as wide, so that its
/// work-groups have as many work-items as the scalar kernel's (a 32x4 tile
/// of floats and a 128x4 tile of float4 are both 32x4 work-items).
std::vector<Proposal> streamLocalConfigurations(const FamilyInput &in) {
  std::vector<Configuration> configurations;
  // A 2D program streams rows (one work-item per output of the row tile,
  // `tile(X)`): a 3D plane tile's x extent alone would make groups of 16 or
  // 32 work-items. (With no rows given, a 2D program streams the plane
  // tiles' x extents, as before rows existed.)
  const std::vector<Configuration> tiles = streamPlaneTiles(in, rewrite::Recipe::StreamLocal);
  for (const Configuration &tile : tiles)
    for (int64_t chunk : streamChunksWithin(in)) {
      Configuration c = tile;
      c.streamChunk = chunk;
      configurations.push_back(c);
      for (int64_t width : in.options.streamVectorWidths) {
        Configuration vectors = c;
        (vectors.tileShape[0] > 0 ? vectors.tileShape[0] : vectors.tile) *= width;
        vectors.vectorWidth = width;
        configurations.push_back(vectors);
      }
    }
  return inSpace(configurations);
}

} // namespace

Family streamLocalFamily() {
  Family f;
  f.name = "streamLocal";
  f.lowering = "streamLocal(C) ; tile(X[,Y]) [; vectorize(W)] ; mapWrg(D..)";
  f.include = &SpaceOptions::includeStreamLocal;
  f.parameters = streamLocalParameters;
  f.configurations = streamLocalConfigurations;
  f.member = [](const Configuration &c) { return c.recipe == rewrite::Recipe::StreamLocal; };
  return f;
}

} // namespace liftcc::explore::families
