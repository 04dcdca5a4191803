// The plain family: the map nest on global work-items (mapGlb) with the
// default mapping, the rest sequential (rewrite recipe plain).
#include "explore/families/family.h"

namespace liftcc::explore::families {

Family plainFamily() {
  Family f;
  f.name = "plain";
  f.lowering = "mapGlb(D..)";
  f.include = &SpaceOptions::includePlain;
  f.parameters = [](const SpaceOptions &) { return Parameters{}; };
  f.configurations = [](const FamilyInput &) { return inSpace({Configuration{rewrite::Recipe::Plain, 0, {0, 0, 0}}}); };
  f.member = [](const Configuration &c) { return c.recipe == rewrite::Recipe::Plain; };
  f.remapped = Remapped::Always;
  return f;
}

} // namespace liftcc::explore::families
