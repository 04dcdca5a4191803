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

#include <algorithm>

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

/// The planes a stream through local memory reads: per zip component (one
/// without a zip) its planes and, when they go through a local ring, the
/// copy h of `map(\\p. toLocal(h, p), planes)` or, zipped,
/// `map(\\p. tuple(..., toLocal(h, get(k, p)), ..., get(j, p), ...), zip(parts))`.
struct StreamedPlanes {
  std::vector<const Expr *> copies; ///< h, or nullptr: read where it is
  std::vector<Expr> parts;
  bool zipped = false;
};

std::optional<StreamedPlanes> streamedPlanes(const Expr &in) {
  if (const Expr *h = planeCopy(in)) return StreamedPlanes{{h}, {inputOf(in)}, false};
  if (!in.is(ExprKind::Prim) || !in.info().has(opflag::MapLike) || !inputOf(in).isPrim(Op::Zip)) return std::nullopt;
  const Expr &g = funOf(in);
  if (!g.is(ExprKind::Lambda) || g.params().size() != 1 || !g.body().isPrim(Op::Tuple)) return std::nullopt;
  const std::vector<Expr> &components = inputsOf(g.body());
  if (components.size() != inputsOf(inputOf(in)).size()) return std::nullopt;
  auto component = [&](const Expr &e, size_t k) {
    return e.isPrim(Op::Get) && getIndex(e) == static_cast<int>(k) && inputOf(e).sameNode(g.params()[0]);
  };
  StreamedPlanes streamed{{}, inputsOf(inputOf(in)), true};
  for (size_t k = 0; k < components.size(); ++k) {
    const Expr &c = components[k];
    if (component(c, k)) {
      streamed.copies.push_back(nullptr);
      continue;
    }
    if (!c.isPrim(Op::ToLocal) || !component(inputOf(c), k)) return std::nullopt;
    const Expr &h = funOf(c);
    if (!h.is(ExprKind::Lambda) || h.params().size() != 1) return std::nullopt;
    streamed.copies.push_back(&h);
  }
  if (std::all_of(streamed.copies.begin(), streamed.copies.end(), [](const Expr *h) { return !h; }))
    return std::nullopt;
  return streamed;
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
  std::optional<StreamedPlanes> streamed = streamedPlanes(inputOf(e));
  if (!streamed || !f.is(ExprKind::Lambda) || f.params().size() != 1)
    fail(where, "slideSeq inside mapWrg must be nested in mapLcl (each work-item owns its private window), or "
                "stream planes through local memory: slideSeq(n, s, \\w. ..., map(\\p. toLocal(copy, p), planes))");
  Env prepared = env;
  std::vector<Expr> parts;
  for (size_t k = 0; k < streamed->parts.size(); ++k)
    parts.push_back(prepare(streamed->parts[k], prepared, scope,
                            streamed->zipped ? where + "/in/in/in/" + std::to_string(k) : where + "/in/in"));

  // A ring of `n` planes of constant size in local memory per copied input;
  // its window as a view of the ring, in window order.
  std::vector<std::string> rings(parts.size());
  std::vector<std::optional<Expr>> ringWindows(parts.size());
  Env windowEnv = prepared;
  for (size_t k = 0; k < parts.size(); ++k) {
    if (!streamed->copies[k]) continue;
    const Type &plane = parts[k].typeOrThrow().arrayElement();
    rings[k] = declareRing(plane, n, where + "/in");
    const Type ringType = Type::array(plane, arith::Expr(n));
    Expr ringParam = Expr::param(rings[k], ringType);
    windowEnv = windowEnv.bind(ringParam, MemoryBinding{rings[k], ringType, AddressSpace::Local});
    Expr wrapped = api::pad(arith::Expr(0), arith::Expr(n - 1), PadMode::Wrap, ringParam)
                       .withType(Type::array(plane, arith::Expr(2 * n - 1)));
    ringWindows[k] = api::slide(arith::Expr(n), arith::Expr(1), wrapped)
                         .withType(Type::array(Type::array(plane, arith::Expr(n)), arith::Expr(n)));
  }
  // Plane `index` of each copied input into slot index % n of its ring, copied by the work-group.
  auto load = [&](const arith::Expr &index) {
    for (size_t k = 0; k < parts.size(); ++k)
      if (streamed->copies[k]) loadPlane(*streamed->copies[k], parts[k], rings[k], index, n, prepared, scope, where);
  };
  const int64_t keep = std::max<int64_t>(n - s, 0);
  for (int64_t k = 0; k < keep; ++k) load(arith::Expr(k));

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
    Env bodyEnv = streamed->zipped
                      ? zippedWindow(parts, ringWindows, f.params()[0], first, step, e, windowEnv)
                      : windowEnv.bind(f.params()[0],
                                       ViewBinding{*ringWindows[0], share(windowEnv), {PathStep::arrayIndex(first)}});
    gen(f.body(), bodyEnv, elementTarget, scope, where + "/f/body");
    body_.barrier();
  });
}

void Generator::loadPlane(const Expr &copy, const Expr &planes, const std::string &ring, const arith::Expr &index,
                          int64_t n, const Env &env, const Scope &scope, const std::string &where) {
  const Type ringType = Type::array(planes.typeOrThrow().arrayElement(), arith::Expr(n));
  arith::Expr slot = index % arith::Expr(n);
  WriteTarget slotTarget = [this, ring, ringType, slot, where](const AccessPath &path) {
    arith::Expr offset = linearize(ringType, prepend(PathStep::arrayIndex(slot), path), where);
    return bufferElement(ring + "[" + this->bufferIndex(offset) + "]", ring, offset);
  };
  Env copyEnv = env.bind(copy.params()[0], ViewBinding{planes, share(env), {PathStep::arrayIndex(index)}});
  gen(copy.body(), copyEnv, slotTarget, scope, where + "/in/f/body/f/body");
}

Env Generator::zippedWindow(const std::vector<Expr> &parts, const std::vector<std::optional<Expr>> &ringWindows,
                            const Expr &param, const arith::Expr &first, const arith::Expr &step, const Expr &slideSeq,
                            const Env &env) {
  // The window at `step`: each copied component its ring's planes (at slot
  // `first`), the others their own planes' window, as views:
  // zip(ring, slide(n, s, part), ...).
  const int64_t n = slideSize(slideSeq).constant(), s = slideStep(slideSeq).constant();
  const arith::Expr count = slideSeq.typeOrThrow().arrayLength();
  Env out = env;
  std::vector<Expr> components;
  std::vector<Type> elementTypes;
  for (size_t k = 0; k < parts.size(); ++k) {
    const Type &plane = parts[k].typeOrThrow().arrayElement();
    const Type window = Type::array(plane, arith::Expr(n));
    Expr component = Expr::param(freshName("window"), window);
    if (ringWindows[k]) {
      out = out.bind(component, ViewBinding{*ringWindows[k], share(env), {PathStep::arrayIndex(first)}});
    } else {
      Expr windows = api::slide(arith::Expr(n), arith::Expr(s), parts[k]).withType(Type::array(window, count));
      out = out.bind(component, ViewBinding{windows, share(env), {PathStep::arrayIndex(step)}});
    }
    components.push_back(component);
    elementTypes.push_back(plane);
  }
  Expr zip = api::zip(components).withType(Type::array(Type::tuple(elementTypes), arith::Expr(n)));
  return out.bind(param, ViewBinding{zip, share(out), {}});
}

} // namespace liftcc::codegen
