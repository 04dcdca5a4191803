// The streamLocal family: 2.5D streaming through local memory (rewrite recipe
// streamLocal), each chunk of SpaceOptions::streamChunks output planes and
// plane tile of SpaceOptions::streamTiles a work-group; with each of
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
          {"streamVector", o.streamVectorWidths.empty() ? "none" : listText(o.streamVectorWidths)}};
}

/// Each plane tile with each chunk, in scalars and in vectors of each
/// width: a vector kernel's tile is W times as wide, so that its
/// work-groups have as many work-items as the scalar kernel's (a 32x4 tile
/// of floats and a 128x4 tile of float4 are both 32x4 work-items).
std::vector<Proposal> streamLocalConfigurations(const FamilyInput &in) {
  std::vector<Configuration> configurations;
  for (const auto &tile : in.options.streamTiles)
    for (int64_t chunk : in.options.streamChunks) {
      Configuration c{rewrite::Recipe::StreamLocal, 8, {0, 0, 0}};
      c.tileShape = tile;
      c.streamChunk = chunk;
      configurations.push_back(c);
      for (int64_t width : in.options.streamVectorWidths) {
        Configuration vectors = c;
        vectors.tileShape[0] = tile[0] * width;
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
