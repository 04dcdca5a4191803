// The tiled family: overlapped tiling in every stencil dimension, tiles on
// work-groups (mapWrg), their outputs on work-items (mapLcl), reading global
// memory (rewrite recipe tiled); each tile size, then each tile shape.
#include "explore/families/tiling.h"

namespace liftcc::explore::families {

Parameters tilingParameters(const SpaceOptions &o) {
  return {{"tile", listText(o.tileSizes)}, {"tileShape", shapesText(o.tileShapes)}};
}

std::vector<Configuration> tilingConfigurations(const SpaceOptions &options, rewrite::Recipe recipe) {
  std::vector<Configuration> configurations;
  for (int64_t tile : options.tileSizes) configurations.push_back({recipe, tile, {0, 0, 0}});
  for (const auto &shape : options.tileShapes) {
    Configuration c{recipe, 8, {0, 0, 0}};
    c.tileShape = shape;
    configurations.push_back(c);
  }
  return configurations;
}

Family tiledFamily() {
  Family f;
  f.name = "tiled";
  f.lowering = "tile(K) ; mapWrg(D..)";
  f.include = &SpaceOptions::includeTiled;
  f.parameters = tilingParameters;
  f.configurations = [](const FamilyInput &in) {
    return inSpace(tilingConfigurations(in.options, rewrite::Recipe::Tiled));
  };
  f.member = [](const Configuration &c) { return c.recipe == rewrite::Recipe::Tiled; };
  f.remapped = Remapped::Always;
  f.interleave = "tiling";
  return f;
}

} // namespace liftcc::explore::families
