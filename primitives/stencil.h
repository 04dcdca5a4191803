#pragma once
// The stencil form in the C++ API: a stencil with its neighbours named by
// their offsets (core/ir/stencil_form.h), next to the N-d helpers of
// primitives/api.h:
//
//   Expr B = stencil({{A, clamp}}, "return 0.25f * (A[-1][0] + A[1][0] + A[0][-1] + A[0][1]);");
//
// builds mapN(2, \nbh. f(at(0, at(1, nbh)), ...), slideN(2, 3, 1, padN(2, 1, 1, clamp, A))) with a
// generated user function `function` (parameters A_m1_0, A_1_0, ...), exactly what the JSON form
// {"op": "stencil", "grids": {"A": "clamp"}, "body": "..."} reads to.

#include "core/ir/stencil_form.h"

#include <optional>
#include <string>
#include <vector>

namespace liftcc::api {

/// A grid is {param, boundary} (the body uses the parameter's name) or {"name", expr, boundary}.
using StencilGrid = liftcc::stencil_form::Grid;
/// clamp, mirror, wrap (PadMode, converted implicitly), StencilBoundary::constant(Scalar::ofFloat(0)) or
/// StencilBoundary::pointWise() (read at the centre only).
using StencilBoundary = liftcc::stencil_form::Boundary;
/// A scalar input the body reads by name: {param} or {"name", expr}.
using StencilScalar = liftcc::stencil_form::ScalarParam;

/// Several grids are zipped (zipN) in order of first use in the body; `scalars` follow the neighbours as
/// parameters; `returns` is the function's result type (default: the element type of the grid the body
/// reads first). Throws stencil_form::FormError (a std::invalid_argument) naming the offending offset or grid.
Expr stencil(std::vector<StencilGrid> grids, const std::string &body,
             const std::string &function = std::string(liftcc::stencil_form::kDefaultFunctionName),
             std::vector<StencilScalar> scalars = {}, std::optional<ScalarKind> returns = std::nullopt);

} // namespace liftcc::api
