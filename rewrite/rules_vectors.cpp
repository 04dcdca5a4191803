// Vectorisation of the innermost dimension of a stencil (Lift's asVector and
// vectorize): a work-item computes `width` consecutive outputs along x as one
// vector. Only layout changes: codegen turns each tap into one vloadN where
// its lanes are consecutive in memory (the clamp-free interior) and gathers
// them elsewhere (the border), and writes each result with one vstoreN.

#include "core/error.h"
#include "core/ir/operands.h"
#include "core/ir/transform.h"
#include "core/types.h"
#include "primitives/api.h"
#include "rewrite/nd_patterns.h"
#include "rewrite/partial_extents.h"
#include "rewrite/rule.h"

namespace liftcc::rewrite {

namespace {

/// Moves the outermost array dimension to depth `to` (the inverse of moveDimensionToFront).
Expr moveFrontDimensionTo(int to, Expr in) {
  for (int j = 0; j < to; ++j)
    in = j == 0 ? api::transpose(in) : api::mapN(j, api::fn([](Expr x) { return api::transpose(x); }), in);
  return in;
}

/// [W]width of `dims`-dimensional windows of scalars -> one window of vectors:
/// the lane dimension moved innermost, then each lane array made one vector.
Expr vectorWindow(int dims, int64_t width, Expr chunk) {
  Expr lanesInnermost = moveFrontDimensionTo(dims, std::move(chunk));
  return api::mapN(dims, api::fn([width](Expr lanes) { return api::at(0, api::asVector(width, lanes)); }, "lanes"),
                   lanesInnermost);
}

/// A row of `dims`-dimensional windows along x -> its windows of vectors,
/// `width` consecutive windows at a time.
Expr vectorRow(int dims, int64_t width, Expr row) {
  return api::map(api::fn([dims, width](Expr chunk) { return vectorWindow(dims, width, chunk); }, "chunk"),
                  api::split(width, std::move(row)));
}

/// The scalars of each row of an array of vectors (`rows` dimensions around the rows).
Expr scalarRows(int rows, Expr vectors) {
  if (rows == 0) return api::asScalar(std::move(vectors));
  return api::mapN(rows, api::fn([](Expr v) { return api::asScalar(v); }, "vectors"), std::move(vectors));
}

/// The dimensions of `t`, a window (an array nest) of float or double
/// scalars or one such scalar (0); nullopt for anything else.
std::optional<int> windowDimensions(const Type &t) {
  int dims = 0;
  Type scalar = t;
  for (; scalar.isArray(); scalar = scalar.arrayElement()) ++dims;
  if (!scalar.isScalar() || (scalar.scalarKind() != ScalarKind::Float && scalar.scalarKind() != ScalarKind::Double))
    return std::nullopt;
  return dims;
}

/// Whether a work-group's outputs over elements of type `element` can be
/// vectorised: a window of scalars, or a tuple of windows and scalars (a
/// neighbourhood with grids zipped beside it) holding at least one window.
bool vectorisableElement(const Type &element) {
  if (!element.isTuple()) return windowDimensions(element).value_or(0) > 0;
  bool window = false;
  for (const Type &component : element.tupleElements()) {
    std::optional<int> dims = windowDimensions(component);
    if (!dims) return false;
    window = window || *dims > 0;
  }
  return window;
}

/// `width` consecutive elements (`chunk`: [E]width) as one element of
/// vectors: each tap of a window the vector of its lanes, a scalar one
/// vector, a tuple component by component.
Expr vectorElement(const Type &element, int64_t width, Expr chunk) {
  if (element.isTuple()) {
    std::vector<Expr> components;
    for (size_t k = 0; k < element.tupleElements().size(); ++k) {
      const int index = static_cast<int>(k);
      Expr lanes = api::map(api::fn([index](Expr t) { return api::get(index, t); }, "t"), chunk);
      components.push_back(vectorElement(element.tupleElements()[k], width, lanes));
    }
    return api::tuple(components);
  }
  const int dims = *windowDimensions(element);
  return dims == 0 ? api::at(0, api::asVector(width, std::move(chunk))) : vectorWindow(dims, width, std::move(chunk));
}

/// Lambda `f` with its parameters' declared types dropped.
Expr withoutDeclaredTypes(const Expr &f) {
  std::vector<Expr> fresh;
  for (const Expr &p : f.params()) fresh.push_back(Expr::param(p.name()));
  Expr body = transformBottomUp(f.body(), [&](const Expr &e) -> Expr {
    if (e.is(ExprKind::Param))
      for (size_t i = 0; i < fresh.size(); ++i)
        if (e.sameNode(f.params()[i])) return fresh[i];
    return e;
  });
  return Expr::lambda(std::move(fresh), std::move(body));
}

/// `f` with the declared types of its lambdas' parameters dropped (JSON
/// lambdas declare them): its neighbourhood parameter, and those of the
/// lambdas it applies to it (a zipped stream's function applies the user's
/// to a tuple), now receive vectors, which the type checker infers.
Expr withInferredParameters(const Expr &f) {
  return transformBottomUp(f, [](const Expr &e) { return e.is(ExprKind::Lambda) ? withoutDeclaredTypes(e) : e; });
}

} // namespace

Rule vectorizeStencil(int dims, int64_t width) {
  if (dims < 1 || dims > 3) throw InternalError("vectorizeStencil: 1 to 3 dimensions, found " + std::to_string(dims));
  if (!isVectorWidth(width)) throw InternalError("vectorizeStencil: width " + std::to_string(width));
  return {"vectorizeStencil" + std::to_string(dims) + "D(" + std::to_string(width) + ")",
          "mapN(f, slideN(n, 1, x)) -> mapN(dims-1, asScalar, mapN(f, mapN(dims-1, \\r. map(\\c. mapN(\\v. at(0, "
          "asVector(w, v)), moveToBack(c)), split(w, r)), slideN(n, 1, x)))) (n per dimension; w not dividing a "
          "constant x extent L: "
          "x extended at the end by clamping, take(L) of each row)",
          [dims, width](const Expr &e) -> std::optional<Expr> {
            auto m = matchStencilN(e, dims);
            if (!m || m->zipped || !m->slid[0]) return std::nullopt;
            for (const arith::Expr &step : m->steps)
              if (!step.isConstant() || step.constant() != 1) return std::nullopt;
            if (!e.type()) return std::nullopt;
            // The x extent (innermost output dimension) splits into vectors;
            // where the width does not divide it (constant extents only), the
            // last vector is partial: the input extended at the end of x by
            // clamping, the surplus lanes dropped by take (guarded stores).
            Type t = *e.type();
            for (int d = 1; d < dims; ++d) t = t.isArray() ? t.arrayElement() : t;
            if (!t.isArray()) return std::nullopt;
            int64_t extent = 0, rounded = 0;
            if (!arith::provablyDivisible(t.arrayLength(), arith::Expr(width))) {
              if (!t.arrayLength().isConstant()) return std::nullopt;
              extent = t.arrayLength().constant();
              rounded = (extent + width - 1) / width * width;
            }
            if (!m->inputs[0].type() || windowDimensions(*m->inputs[0].type()) != dims) return std::nullopt;
            std::vector<arith::Expr> extra(static_cast<size_t>(dims), arith::Expr(0));
            extra.back() = arith::Expr(rounded - extent);
            // Each dimension's own window (3x5, 5x1 and 1x3 windows are not square).
            Expr windows = slideNPerDimension(m->sizes, m->steps, extendEnds(extra, m->inputs[0]));
            auto vectors = [dims, width](Expr row) { return vectorRow(dims, width, std::move(row)); };
            Expr vectorWindows = dims == 1 ? vectors(windows) : api::mapN(dims - 1, api::fn(vectors, "row"), windows);
            Expr results = api::mapN(dims, withInferredParameters(m->f), vectorWindows);
            auto scalars = [extent, rounded](Expr row) {
              Expr lanes = api::asScalar(std::move(row));
              return rounded == extent ? lanes : api::take(arith::Expr(extent), lanes);
            };
            if (dims == 1) return scalars(results);
            return api::mapN(dims - 1, api::fn(scalars, "vectors"), results);
          }};
}

Rule vectorizeLocalOutputs(int dims, int64_t width) {
  if (dims < 1 || dims > 2)
    throw InternalError("vectorizeLocalOutputs: 1 or 2 dimensions, found " + std::to_string(dims));
  if (!isVectorWidth(width)) throw InternalError("vectorizeLocalOutputs: width " + std::to_string(width));
  return {"vectorizeLocalOutputs" + std::to_string(dims) + "D(" + std::to_string(width) + ")",
          "mapLclN(f, W) -> mapN(dims-1, asScalar, mapLclN(f, mapN(dims-1, \\r. map(\\c. mapN(\\v. at(0, asVector(w, "
          "v)), moveToBack(c)), split(w, r)), W))) (W: windows of scalars, or tuples of them and of scalars zipped "
          "beside them, each scalar one vector; w divides the x extent)",
          [dims, width](const Expr &e) -> std::optional<Expr> {
            auto m = matchMapLclNest(e, dims);
            if (!m || !m->in.type()) return std::nullopt;
            // The x extent (the innermost mapLcl's) splits into whole vectors:
            // a work-group's tile, which the explorer picks as a multiple.
            Type row = *m->in.type();
            for (int d = 1; d < dims && row.isArray(); ++d) row = row.arrayElement();
            if (!row.isArray() || !arith::provablyDivisible(row.arrayLength(), arith::Expr(width))) return std::nullopt;
            const Type element = row.arrayElement();
            if (!vectorisableElement(element)) return std::nullopt;
            auto vectors = [element, width](Expr r) {
              return api::map(
                  api::fn([element, width](Expr chunk) { return vectorElement(element, width, chunk); }, "chunk"),
                  api::split(width, std::move(r)));
            };
            Expr vectorWindows = dims == 1 ? vectors(m->in) : api::mapN(dims - 1, api::fn(vectors, "row"), m->in);
            return scalarRows(dims - 1, mapLclNest(dims, withInferredParameters(m->f), vectorWindows));
          }};
}

} // namespace liftcc::rewrite
