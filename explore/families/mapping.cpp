// The mapping family (rewrite/mapping.h): the programs of the base families
// whose recipe is in SpaceOptions::mappedRecipes, under every other mapping
// of their map nest (orders only for tiled and local), or only those of
// SpaceOptions::mappings when it is not empty.
#include "explore/families/family.h"

#include <algorithm>

namespace liftcc::explore::families {

namespace {

Parameters mappingParameters(const SpaceOptions &o) {
  std::string recipes, mappings;
  for (rewrite::Recipe r : o.mappedRecipes) recipes += (recipes.empty() ? "" : ",") + rewrite::recipeName(r);
  for (const rewrite::Mapping &m : o.mappings) mappings += (mappings.empty() ? "" : " ") + m.text();
  return {{"mapped", recipes},
          {"mapping", mappings.empty() ? std::string("every other") : mappings},
          {"mappingShapes", std::to_string(o.mappedGroupShapes)}};
}

std::vector<Proposal> mappingConfigurations(const FamilyInput &in) {
  const std::vector<rewrite::Mapping> &only = in.options.mappings;
  std::vector<Configuration> configurations;
  for (const auto &[base, lowered] : in.remappable)
    for (const rewrite::Mapping &m : rewrite::alternativeMappings(ndrangeDimensions(lowered))) {
      if (!only.empty() && std::find(only.begin(), only.end(), m) == only.end()) continue;
      Configuration c = base;
      c.mapping = m;
      configurations.push_back(c);
    }
  return inSpace(configurations);
}

} // namespace

Family mappingFamily() {
  Family f;
  f.name = "mapping";
  f.lowering = "a base family's composition with mapGlb/mapWrg(D..) naming another mapping";
  f.stage = Stage::Derived;
  f.include = &SpaceOptions::includeMapping;
  f.parameters = mappingParameters;
  f.configurations = mappingConfigurations;
  f.member = [](const Configuration &c) { return !c.mapping.isDefault(); };
  return f;
}

} // namespace liftcc::explore::families
