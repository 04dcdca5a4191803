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

/// Each plane tile with each chunk, in scalars and in vectors of each width dividing the tile along x.
std::vector<Proposal> streamLocalConfigurations(const FamilyInput &in) {
  std::vector<Configuration> configurations;
  for (const auto &tile : in.options.streamTiles)
    for (int64_t chunk : in.options.streamChunks) {
      Configuration c{rewrite::Recipe::StreamLocal, 8, {0, 0, 0}};
      c.tileShape = tile;
      c.streamChunk = chunk;
      configurations.push_back(c);
      for (int64_t width : in.options.streamVectorWidths)
        if (tile[0] % width == 0) {
          c.vectorWidth = width;
          configurations.push_back(c);
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
