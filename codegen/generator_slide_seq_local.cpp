// slideSeq run by a whole work-group (2.5D streaming through local memory,
// rewrite rule streamPlanesThroughLocal): the window's elements are planes
// (a tile plus its halo) that the work-group copies cooperatively into local
// memory as they enter the window; the step's function (mapLcl over the
// plane's outputs) reads its neighbourhoods from there.
//
// The window lives in a local ring of `size` planes: element i of the input
// goes to slot i % size, so moving on by one step loads only the `step` new
// planes and copies nothing. The function sees the window as the view
// slide(size, 1, pad(0, size-1, wrap, ring)) at (w*step) % size, the ring's
// slots in window order. Barriers: after the new planes are stored (every
// work-item reads every plane) and after the step's outputs (the next step
// overwrites the slot of the window's oldest plane).

#include "codegen/generator.h"
#include "core/ir/operands.h"
#include "primitives/api.h"

namespace liftcc::codegen {

namespace {

[[noreturn]] void fail(const std::string &where, const std::string &message) { throw CodegenError(where, message); }

/// The plane copy of the input `map(\p. toLocal(h, p), planes)` (any map-like
/// op: the lowering makes it mapSeq or mapSeqUnroll): h, or nothing.
const Expr *planeCopy(const Expr &in) {
  if (!in.is(ExprKind::Prim) || !in.info().has(opflag::MapLike)) return nullptr;
  const Expr &g = funOf(in);
  if (!g.is(ExprKind::Lambda) || g.params().size() != 1) return nullptr;
  const Expr &body = g.body();
  if (!body.isPrim(Op::ToLocal) || !inputOf(body).is(ExprKind::Param) || !inputOf(body).sameNode(g.params()[0]))
    return nullptr;
  const Expr &h = funOf(body);
  if (!h.is(ExprKind::Lambda) || h.params().size() != 1) return nullptr;
  return &h;
}

} // namespace

void Generator::genSlideSeqLocal(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope,
                                 const std::string &where) {
  if (!slideSize(e).isConstant() || !slideStep(e).isConstant())
    fail(where, "slideSeq on a work-group needs a constant window size and step, found " + slideSize(e).str() +
                    " and " + slideStep(e).str());
  const int64_t n = slideSize(e).constant(), s = slideStep(e).constant();
  const Expr &f = funOf(e);
  const Expr *copy = planeCopy(inputOf(e));
  if (!copy || !f.is(ExprKind::Lambda) || f.params().size() != 1)
    fail(where, "slideSeq inside mapWrg must be nested in mapLcl (each work-item owns its private window), or "
                "stream planes through local memory: slideSeq(n, s, \\w. ..., map(\\p. toLocal(copy, p), planes))");
  const Expr &planesMap = inputOf(e);
  Env prepared = env;
  Expr planes = prepare(inputOf(planesMap), prepared, scope, where + "/in/in");

  // The ring: `n` planes of constant size in local memory.
  const Type &plane = planesMap.typeOrThrow().arrayElement();
  Type scalar = plane;
  int64_t planeScalars = 1;
  while (scalar.isArray()) {
    if (!scalar.arrayLength().isConstant())
      fail(where + "/in",
           "a plane streamed through local memory needs constant extents (the tile plus halo), found " + plane.str());
    planeScalars *= scalar.arrayLength().constant();
    scalar = scalar.arrayElement();
  }
  if (!scalar.isScalar())
    fail(where + "/in", "a plane streamed through local memory must hold scalars, found " + plane.str());
  const ScalarKind kind = scalar.scalarKind();
  if (kind == ScalarKind::Double) usesDouble_ = true;
  const std::string ring = freshName("ring");
  localDeclarations_.push_back({kir::ArrayDecl{kir::ArraySpace::Local, kind, ring, std::to_string(n * planeScalars)}});
  localBytes_ += n * planeScalars * (kind == ScalarKind::Double ? 8 : kind == ScalarKind::Bool ? 1 : 4);
  const Type ringType = Type::array(plane, arith::Expr(n));

  // Plane `index` of the input into slot index % n, copied by the work-group.
  auto load = [&](const arith::Expr &index) {
    arith::Expr slot = index % arith::Expr(n);
    WriteTarget slotTarget = [this, ring, ringType, slot, where](const AccessPath &path) {
      arith::Expr offset = linearize(ringType, prepend(PathStep::arrayIndex(slot), path), where);
      return bufferElement(ring + "[" + this->bufferIndex(offset) + "]", ring, offset);
    };
    Env copyEnv = prepared.bind(copy->params()[0], ViewBinding{planes, share(prepared), {PathStep::arrayIndex(index)}});
    gen(copy->body(), copyEnv, slotTarget, scope, where + "/in/f/body/f/body");
  };

  const int64_t keep = std::max<int64_t>(n - s, 0);
  for (int64_t k = 0; k < keep; ++k) load(arith::Expr(k));

  // The window as a view of the ring, in window order.
  Expr ringParam = Expr::param(ring, ringType);
  Env windowEnv = prepared.bind(ringParam, MemoryBinding{ring, ringType, AddressSpace::Local});
  Expr wrapped = api::pad(arith::Expr(0), arith::Expr(n - 1), PadMode::Wrap, ringParam)
                     .withType(Type::array(plane, arith::Expr(2 * n - 1)));
  Expr windows = api::slide(arith::Expr(n), arith::Expr(1), wrapped)
                     .withType(Type::array(Type::array(plane, arith::Expr(n)), arith::Expr(n)));

  arith::Expr count = e.typeOrThrow().arrayLength();
  std::string w = freshName("w");
  arith::Expr step = arith::Expr::index(w, count);
  body_.forLoop(indexType(), w, "0", index(count), "1", [&] {
    for (int64_t k = keep; k < n; ++k) load(step * arith::Expr(s) + arith::Expr(k));
    body_.barrier();
    WriteTarget elementTarget = [target, step](const AccessPath &p) {
      return target(prepend(PathStep::arrayIndex(step), p));
    };
    arith::Expr first = (step * arith::Expr(s)) % arith::Expr(n);
    Env bodyEnv = windowEnv.bind(f.params()[0], ViewBinding{windows, share(windowEnv), {PathStep::arrayIndex(first)}});
    gen(f.body(), bodyEnv, elementTarget, scope, where + "/f/body");
    body_.barrier();
  });
}

} // namespace liftcc::codegen
