// The vector family: for each width of SpaceOptions::vectorWidths, plain and
// coarsened along x by each factor of SpaceOptions::coarsenFactors that is a
// multiple of it (vectorize(W): rewrite::RecipeOptions::vectorWidth); only
// where the width divides the x extent and the user functions run lane-wise
// (others are refused when lowered).
#include "explore/families/family.h"

namespace liftcc::explore::families {

namespace {

Parameters vectorParameters(const SpaceOptions &o) {
  return {{"vector", listText(o.vectorWidths)},
          {"coarsen", listText(o.coarsenFactors)},
          {"window", windowsText(o.coarsenWindows)},
          {"coarsenShapes", std::to_string(o.coarsenedGroupShapes)}};
}

std::vector<Proposal> vectorConfigurations(const FamilyInput &in) {
  std::vector<Configuration> configurations;
  for (int64_t width : in.options.vectorWidths) {
    Configuration plain;
    plain.vectorWidth = width;
    configurations.push_back(plain);
    for (int64_t k : in.options.coarsenFactors) {
      if (k % width != 0) continue;
      for (bool window : in.options.coarsenWindows) {
        Configuration c;
        c.recipe = rewrite::Recipe::Coarsened;
        c.coarsen = {k, 1, 1};
        c.privateWindow = window;
        c.vectorWidth = width;
        configurations.push_back(c);
      }
    }
  }
  return inSpace(configurations);
}

} // namespace

Family vectorFamily() {
  Family f;
  f.name = "vector";
  f.lowering = "[coarsen(..) ; privateWindow|globalWindow ;] vectorize(W) ; mapGlb(D..)";
  f.include = &SpaceOptions::includeVector;
  f.parameters = vectorParameters;
  f.configurations = vectorConfigurations;
  f.member = [](const Configuration &c) { return c.vectorWidth > 0; };
  return f;
}

} // namespace liftcc::explore::families
