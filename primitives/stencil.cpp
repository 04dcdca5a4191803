#include "primitives/stencil.h"

namespace liftcc::api {

Expr stencil(std::vector<StencilGrid> grids, const std::string &body, const std::string &function,
             std::vector<StencilScalar> scalars) {
  return liftcc::stencil_form::build({std::move(grids), body, function, std::move(scalars)});
}

} // namespace liftcc::api
