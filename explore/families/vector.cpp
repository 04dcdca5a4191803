// The vector family: for each width of SpaceOptions::vectorWidths, plain,
// coarsened along x by each factor of SpaceOptions::coarsenFactors that is a
// multiple of it (vectorize(W): rewrite::RecipeOptions::vectorWidth), and
// one vector wide along x coarsened along y or z by each factor, its window
// read from global memory: a private window copies its rows lane by lane,
// while from global memory each row of the window is a few aligned vector
// loads (codegen/generator_vectors.cpp) that the outputs of the column share.
// Only where the width divides the x extent and the user functions run
// lane-wise (others are refused when lowered).
#include "explore/families/family.h"

namespace liftcc::explore::families {

namespace {

Parameters vectorParameters(const SpaceOptions &o) {
  return {{"vector", listText(o.vectorWidths)},
          {"coarsen", listText(o.coarsenFactors)},
          {"window", windowsText(o.coarsenWindows)},
          {"outer", o.vectorCoarsensOuter ? "y,z (window global)" : "none"},
          {"coarsenShapes", std::to_string(o.coarsenedGroupShapes)}};
}

/// Vectors of `width` lanes, each work-item computing the block `coarsen`.
Configuration coarsenedVectors(int64_t width, std::array<int64_t, 3> coarsen, bool privateWindow) {
  Configuration c;
  c.recipe = rewrite::Recipe::Coarsened;
  c.coarsen = coarsen;
  c.privateWindow = privateWindow;
  c.vectorWidth = width;
  return c;
}

std::vector<Proposal> vectorConfigurations(const FamilyInput &in) {
  std::vector<Configuration> configurations;
  for (int64_t width : in.options.vectorWidths) {
    Configuration plain;
    plain.vectorWidth = width;
    configurations.push_back(plain);
    for (int64_t k : in.options.coarsenFactors) {
      if (k % width != 0) continue;
      for (bool window : in.options.coarsenWindows)
        configurations.push_back(coarsenedVectors(width, {k, 1, 1}, window));
    }
    for (size_t d = 1; d < 3 && in.options.vectorCoarsensOuter; ++d)
      for (int64_t k : in.options.coarsenFactors) {
        std::array<int64_t, 3> coarsen{width, 1, 1};
        coarsen[d] = k;
        configurations.push_back(coarsenedVectors(width, coarsen, /*privateWindow=*/false));
      }
  }
  return inSpace(configurations);
}

} // namespace

Family vectorFamily() {
  Family f;
  f.name = "vector";
  f.lowering = "[coarsen(x=X[,y=Y|z=Z]) ; privateWindow|globalWindow ;] vectorize(W) ; mapGlb(D..)";
  f.include = &SpaceOptions::includeVector;
  f.parameters = vectorParameters;
  f.configurations = vectorConfigurations;
  // (A stream's vectors are the streamLocal family's.)
  f.member = [](const Configuration &c) { return c.vectorWidth > 0 && c.recipe != rewrite::Recipe::StreamLocal; };
  return f;
}

} // namespace liftcc::explore::families
