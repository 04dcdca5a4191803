// The local family: the tiled family's tiles each copied to local memory
// first (toLocal; rewrite recipe local). Enumerated alternately with tiled
// (each tile tiled, then local).
#include "explore/families/tiling.h"

namespace liftcc::explore::families {

Family localFamily() {
  Family f;
  f.name = "local";
  f.lowering = "tile(K) ; toLocal ; mapWrg(D..)";
  f.include = &SpaceOptions::includeLocal;
  f.parameters = tilingParameters;
  f.configurations = [](const FamilyInput &in) {
    return inSpace(tilingConfigurations(in.options, rewrite::Recipe::Local));
  };
  f.member = [](const Configuration &c) { return c.recipe == rewrite::Recipe::Local; };
  f.remapped = Remapped::Always;
  f.interleave = "tiling";
  return f;
}

} // namespace liftcc::explore::families
