#pragma once
// What the tiled and local families share: their parameters (tile sizes and
// tile shapes) and their configurations, one per tile, for either recipe.

#include "explore/families/family.h"

namespace liftcc::explore::families {

Parameters tilingParameters(const SpaceOptions &options);

/// Each tile size of SpaceOptions::tileSizes, then each tile shape of
/// SpaceOptions::tileShapes, lowered by `recipe` (tiled or local).
std::vector<Configuration> tilingConfigurations(const SpaceOptions &options, rewrite::Recipe recipe);

} // namespace liftcc::explore::families
