#include "primitives/stencil.h"

namespace liftcc::api {

Expr stencil(std::vector<StencilGrid> grids, const std::string &body, const std::string &function,
             std::vector<StencilScalar> scalars, std::optional<ScalarKind> returns) {
  return liftcc::stencil_form::build({std::move(grids), body, function, std::move(scalars), returns});
}

} // namespace liftcc::api
