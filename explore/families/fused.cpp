// The fused family: for a multi-kernel program with an intermediate that can
// be recomputed per element (rewrite/stages.h), every program of the base
// families again with it fused into its readers (Configuration::fuse); for
// stages around an iterate (rewrite/iterate_chain.h), with them computed in
// the loop's first and last launches.
#include "explore/families/family.h"

#include "rewrite/iterate_chain.h"
#include "rewrite/stages.h"

namespace liftcc::explore::families {

Family fusedFamily() {
  Family f;
  f.name = "fused";
  f.lowering = "fuse ; a base family's composition";
  f.stage = Stage::Derived;
  f.include = &SpaceOptions::includeFused;
  f.parameters = [](const SpaceOptions &) { return Parameters{{"fuse", "every fusible intermediate"}}; };
  f.appliesTo = [](const Program &typed, const SpaceOptions &) {
    return rewrite::hasFusibleStage(typed) || rewrite::fusesStagesIntoLoop(typed);
  };
  f.configurations = [](const FamilyInput &in) {
    std::vector<Configuration> configurations = in.basePrograms;
    for (Configuration &c : configurations) c.fuse = true;
    return inSpace(configurations);
  };
  f.member = [](const Configuration &c) { return c.fuse; };
  return f;
}

} // namespace liftcc::explore::families
