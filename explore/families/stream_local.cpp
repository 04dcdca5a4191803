// The streamLocal family: 2.5D streaming through local memory (rewrite recipe
// streamLocal), each chunk of SpaceOptions::streamChunks output planes and
// plane tile of SpaceOptions::streamTiles a work-group.
#include "explore/families/family.h"

namespace liftcc::explore::families {

namespace {

Parameters streamLocalParameters(const SpaceOptions &o) {
  std::string planeTiles;
  for (const auto &t : o.streamTiles)
    planeTiles += (planeTiles.empty() ? "" : ",") + std::to_string(t[0]) + "x" + std::to_string(t[1]);
  return {{"streamChunk", listText(o.streamChunks)}, {"streamTile", planeTiles}};
}

/// Each plane tile with each chunk.
std::vector<Proposal> streamLocalConfigurations(const FamilyInput &in) {
  std::vector<Configuration> configurations;
  for (const auto &tile : in.options.streamTiles)
    for (int64_t chunk : in.options.streamChunks) {
      Configuration c{rewrite::Recipe::StreamLocal, 8, {0, 0, 0}};
      c.tileShape = tile;
      c.streamChunk = chunk;
      configurations.push_back(c);
    }
  return inSpace(configurations);
}

} // namespace

Family streamLocalFamily() {
  Family f;
  f.name = "streamLocal";
  f.lowering = "streamLocal(C) ; tile(X[,Y]) ; mapWrg(D..)";
  f.include = &SpaceOptions::includeStreamLocal;
  f.parameters = streamLocalParameters;
  f.configurations = streamLocalConfigurations;
  f.member = [](const Configuration &c) { return c.recipe == rewrite::Recipe::StreamLocal; };
  return f;
}

} // namespace liftcc::explore::families
