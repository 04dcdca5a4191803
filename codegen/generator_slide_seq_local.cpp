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

/// The zipped plane copy `map(\p. tuple(..., toLocal(h, get(k, p)), ...,
/// get(j, p), ...), zip(parts))`: one component copied to local memory, the
/// others read where they are.
struct ZippedPlanes {
  const Expr *copy = nullptr;               ///< h
  size_t copied = 0;                        ///< k
  const std::vector<Expr> *parts = nullptr; ///< the zip's operands
};

std::optional<ZippedPlanes> zippedPlaneCopy(const Expr &in) {
  if (!in.is(ExprKind::Prim) || !in.info().has(opflag::MapLike) || !inputOf(in).isPrim(Op::Zip)) return std::nullopt;
  const Expr &g = funOf(in);
  if (!g.is(ExprKind::Lambda) || g.params().size() != 1 || !g.body().isPrim(Op::Tuple)) return std::nullopt;
  const std::vector<Expr> &components = inputsOf(g.body());
  if (components.size() != inputsOf(inputOf(in)).size()) return std::nullopt;
  auto component = [&](const Expr &e, size_t k) {
    return e.isPrim(Op::Get) && getIndex(e) == static_cast<int>(k) && inputOf(e).sameNode(g.params()[0]);
  };
  ZippedPlanes zipped;
  zipped.parts = &inputsOf(inputOf(in));
  for (size_t k = 0; k < components.size(); ++k) {
    const Expr &c = components[k];
    if (component(c, k)) continue;
    if (zipped.copy || !c.isPrim(Op::ToLocal) || !component(inputOf(c), k)) return std::nullopt;
    const Expr &h = funOf(c);
    if (!h.is(ExprKind::Lambda) || h.params().size() != 1) return std::nullopt;
    zipped.copy = &h;
    zipped.copied = k;
  }
  if (!zipped.copy) return std::nullopt;
  return zipped;
}

} // namespace

std::string Generator::declareRing(const Type &plane, int64_t n, const std::string &where) {
  Type scalar = plane;
  int64_t planeScalars = 1;
  while (scalar.isArray()) {
    if (!scalar.arrayLength().isConstant())
      fail(where,
           "a plane streamed through local memory needs constant extents (the tile plus halo), found " + plane.str());
    planeScalars *= scalar.arrayLength().constant();
    scalar = scalar.arrayElement();
  }
  if (!scalar.isScalar()) fail(where, "a plane streamed through local memory must hold scalars, found " + plane.str());
  const ScalarKind kind = scalar.scalarKind();
  if (kind == ScalarKind::Double) usesDouble_ = true;
  const std::string ring = freshName("ring");
  localDeclarations_.push_back({kir::ArrayDecl{kir::ArraySpace::Local, kind, ring, std::to_string(n * planeScalars)}});
  localBytes_ += n * planeScalars * (kind == ScalarKind::Double ? 8 : kind == ScalarKind::Bool ? 1 : 4);
  return ring;
}

void Generator::genSlideSeqLocal(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope,
                                 const std::string &where) {
  if (!slideSize(e).isConstant() || !slideStep(e).isConstant())
    fail(where, "slideSeq on a work-group needs a constant window size and step, found " + slideSize(e).str() +
                    " and " + slideStep(e).str());
  const int64_t n = slideSize(e).constant(), s = slideStep(e).constant();
  const Expr &f = funOf(e);
  const Expr *copy = planeCopy(inputOf(e));
  std::optional<ZippedPlanes> zipped = copy ? std::nullopt : zippedPlaneCopy(inputOf(e));
  if (zipped) copy = zipped->copy;
  if (!copy || !f.is(ExprKind::Lambda) || f.params().size() != 1)
    fail(where, "slideSeq inside mapWrg must be nested in mapLcl (each work-item owns its private window), or "
                "stream planes through local memory: slideSeq(n, s, \\w. ..., map(\\p. toLocal(copy, p), planes))");
  const Expr &planesMap = inputOf(e);
  Env prepared = env;
  std::string copiedWhere = zipped ? where + "/in/in/in/" + std::to_string(zipped->copied) : where + "/in/in";
  Expr planes = prepare(zipped ? (*zipped->parts)[zipped->copied] : inputOf(planesMap), prepared, scope, copiedWhere);
  // The zipped inputs' planes, read where they are (the copied one: the ring).
  std::vector<Expr> parts;
  for (size_t k = 0; zipped && k < zipped->parts->size(); ++k)
    parts.push_back(k == zipped->copied
                        ? planes
                        : prepare((*zipped->parts)[k], prepared, scope, where + "/in/in/in/" + std::to_string(k)));

  // The ring: `n` planes of constant size in local memory.
  const Type &plane = planes.typeOrThrow().arrayElement();
  const std::string ring = declareRing(plane, n, where + "/in");
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
    if (zipped) bodyEnv = zippedWindow(parts, zipped->copied, f.params()[0], windows, first, step, e, windowEnv);
    gen(f.body(), bodyEnv, elementTarget, scope, where + "/f/body");
    body_.barrier();
  });
}

} // namespace liftcc::codegen

namespace liftcc::codegen {

Env Generator::zippedWindow(const std::vector<Expr> &parts, size_t copied, const Expr &param, const Expr &ringWindows,
                            const arith::Expr &first, const arith::Expr &step, const Expr &slideSeq, const Env &env) {
  // The window at `step`: component k the ring's planes (at slot `first`),
  // the others their own planes' window, as views: zip(ring, slide(n, s, part)...).
  const int64_t n = slideSize(slideSeq).constant(), s = slideStep(slideSeq).constant();
  const arith::Expr count = slideSeq.typeOrThrow().arrayLength();
  Env out = env;
  std::vector<Expr> components;
  std::vector<Type> elementTypes;
  for (size_t k = 0; k < parts.size(); ++k) {
    const Expr &part = parts[k];
    const Type &plane = part.typeOrThrow().arrayElement();
    const Type window = Type::array(plane, arith::Expr(n));
    Expr component = Expr::param(freshName("window"), window);
    if (k == copied) {
      out = out.bind(component, ViewBinding{ringWindows, share(env), {PathStep::arrayIndex(first)}});
    } else {
      Expr windows = api::slide(arith::Expr(n), arith::Expr(s), part).withType(Type::array(window, count));
      out = out.bind(component, ViewBinding{windows, share(env), {PathStep::arrayIndex(step)}});
    }
    components.push_back(component);
    elementTypes.push_back(plane);
  }
  Expr zip = api::zip(components).withType(Type::array(Type::tuple(elementTypes), arith::Expr(n)));
  return out.bind(param, ViewBinding{zip, share(out), {}});
}

} // namespace liftcc::codegen
