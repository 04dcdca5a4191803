// The stream family: 2.5D streaming, the outermost stencil dimension marched
// by slideSeq (window in registers), the inner ones on global work-items
// (rewrite recipe stream); 2D and 3D stencils (others are refused when lowered).
#include "explore/families/family.h"

namespace liftcc::explore::families {

Family streamFamily() {
  Family f;
  f.name = "stream";
  f.lowering = "stream ; mapGlb(D..)";
  f.include = &SpaceOptions::includeStream;
  f.parameters = [](const SpaceOptions &) { return Parameters{}; };
  f.configurations = [](const FamilyInput &) {
    return inSpace({Configuration{rewrite::Recipe::Stream, 0, {0, 0, 0}}});
  };
  f.member = [](const Configuration &c) { return c.recipe == rewrite::Recipe::Stream; };
  f.remapped = Remapped::Always;
  return f;
}

} // namespace liftcc::explore::families
