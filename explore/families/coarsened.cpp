// The coarsened family: thread coarsening (rewrite recipe coarsened), each
// factor of SpaceOptions::coarsenFactors along one dimension at a time
// (x, y, z), with each window of SpaceOptions::coarsenWindows.
#include "explore/families/family.h"

namespace liftcc::explore::families {

namespace {

Parameters coarsenedParameters(const SpaceOptions &o) {
  return {{"coarsen", listText(o.coarsenFactors)},
          {"window", windowsText(o.coarsenWindows)},
          {"coarsenShapes", std::to_string(o.coarsenedGroupShapes)}};
}

std::vector<Proposal> coarsenedConfigurations(const FamilyInput &in) {
  std::vector<Configuration> configurations;
  for (size_t d = 0; d < 3; ++d)
    for (int64_t k : in.options.coarsenFactors)
      for (bool window : in.options.coarsenWindows) {
        Configuration c;
        c.recipe = rewrite::Recipe::Coarsened;
        c.coarsen[d] = k;
        c.privateWindow = window;
        configurations.push_back(c);
      }
  return inSpace(configurations);
}

} // namespace

Family coarsenedFamily() {
  Family f;
  f.name = "coarsened";
  f.lowering = "coarsen(x=X,y=Y,z=Z) ; privateWindow|globalWindow ; mapGlb(D..)";
  f.include = &SpaceOptions::includeCoarsened;
  f.parameters = coarsenedParameters;
  f.configurations = coarsenedConfigurations;
  f.member = [](const Configuration &c) { return c.recipe == rewrite::Recipe::Coarsened; };
  // (Its programs are not lowered for the mapping family alone, as before.)
  f.remapped = Remapped::WhenSelected;
  return f;
}

} // namespace liftcc::explore::families
