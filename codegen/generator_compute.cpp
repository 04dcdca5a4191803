// Computing into memory: loops for the map and reduce primitives, stores of
// user-function results through write targets, and materialisation of the
// intermediate arrays a program asks for (toLocal / toPrivate).

#include "codegen/generator.h"
#include "core/ir/operands.h"
#include "core/ir/transform.h"

namespace liftcc::codegen {

namespace {

[[noreturn]] void fail(const std::string &where, const std::string &message) { throw CodegenError(where, message); }

/// Layout primitives that results can be written through: the bijective
/// ones, and take, whose writes beyond its count are dropped (guarded).
bool writableLayout(const Expr &e) { return e.info().has(opflag::LayoutOnly) || e.isPrim(Op::Take); }

/// A lambda whose body only rearranges its parameter (join, split,
/// transpose, take, nested layout maps): such maps can be written through.
bool isLayoutOnlyFunction(const Expr &f) {
  if (!f.is(ExprKind::Lambda) || f.params().size() != 1) return false;
  const Expr *e = &f.body();
  while (!e->is(ExprKind::Param)) {
    if (e->is(ExprKind::Prim) && (writableLayout(*e) || (e->isPrim(Op::Map) && isLayoutOnlyFunction(funOf(*e))))) {
      e = &inputOf(*e);
    } else if (e->is(ExprKind::Apply) && e->args().size() == 1 && isLayoutOnlyFunction(e->fun())) {
      e = &e->args().front(); // (\q. layout(q))(inner), as partial tiles leave around a result
    } else {
      return false;
    }
  }
  return e->sameNode(f.params().front());
}

AccessPath forwardStep(const Expr &layout, const AccessPath &path, const std::string &where,
                       std::vector<WriteBound> &bounds, std::optional<int> lane = std::nullopt);

/// Maps a path on the parameter of a layout-only lambda to the path of the
/// same scalar in the lambda's result (of lane `lane` of the vector at the
/// path, where asScalar spreads vectors out), and the bounds of the takes passed.
AccessPath pathOnResult(const Expr &body, const AccessPath &pathOnParam, const std::string &where,
                        std::vector<WriteBound> &bounds, std::optional<int> lane = std::nullopt) {
  if (body.is(ExprKind::Param)) return pathOnParam;
  if (body.is(ExprKind::Apply)) // a layout-only lambda applied to a layout of the parameter
    return pathOnResult(body.fun().body(), pathOnResult(body.args().front(), pathOnParam, where, bounds, lane), where,
                        bounds, lane);
  return forwardStep(body, pathOnResult(inputOf(body), pathOnParam, where, bounds, lane), where, bounds, lane);
}

/// Writing direction of a layout primitive: the path of a scalar of its
/// argument -> the path of the same scalar in its result, by the primitive's
/// write rule (views::writeThrough, beside its reading rule); take adds the
/// bound beyond which the scalar is not written. A layout map writes each
/// element through its function.
AccessPath forwardStep(const Expr &layout, const AccessPath &path, const std::string &where,
                       std::vector<WriteBound> &bounds, std::optional<int> lane) {
  if (layout.isPrim(Op::Map)) {
    const Expr &g = funOf(layout);
    if (path.empty() || path.front().isTuple) throw InternalError(where, "partial write through a layout");
    AccessPath rest(path.begin() + 1, path.end());
    return prepend(path.front(), pathOnResult(g.body(), rest, where, bounds, lane));
  }
  const size_t steps = views::writeRuleSteps(layout.op());
  if (steps == 0) fail(where, "cannot write through " + std::string(layout.info().name));
  for (size_t i = 0; i < steps; ++i)
    if (i >= path.size() || path[i].isTuple) throw InternalError(where, "partial write through a layout");
  if (layout.isPrim(Op::AsScalar) && !lane) throw InternalError(where, "asScalar: a vector is written lane by lane");
  views::Written<arith::Expr> written = views::writeThrough(layout, path, views::SymbolicIndices{}, lane);
  if (written.bound) bounds.push_back({written.bound->first, written.bound->second});
  return written.path;
}

/// asScalar in a layout (itself, or inside a layout map or lambda) and not
/// in the argument written through it: each vector of the argument lands on
/// `width` scalars of the result, so the argument is written lane by lane.
bool spreadsVectors(const Expr &layout, const Expr &argument) {
  auto asScalar = [](const Expr &x) { return x.isPrim(Op::AsScalar); };
  return containsNode(layout, asScalar) && !containsNode(argument, asScalar);
}

} // namespace

bool isCompute(const Expr &e) {
  switch (e.kind()) {
  case ExprKind::Apply: return e.fun().is(ExprKind::Lambda) && isCompute(e.fun().body());
  case ExprKind::Prim:
    if (e.info().has(opflag::Compute)) return true;
    return e.isPrim(Op::Map) && funOf(e).is(ExprKind::Lambda) && isCompute(funOf(e).body());
  default: return false;
  }
}

bool producesData(const Expr &e) {
  if (isCompute(e)) return true;
  // (\p. layout(p))(computed), or a lambda whose body computes (e.g.
  // (\x. map(join, mapSeq(f, x)))(view), which map fission leaves inside a tile).
  if (e.is(ExprKind::Apply) && e.fun().is(ExprKind::Lambda))
    return (e.args().size() == 1 && isLayoutOnlyFunction(e.fun()) && producesData(e.args().front())) ||
           producesData(e.fun().body());
  if (!e.is(ExprKind::Prim)) return false;
  if (writableLayout(e)) return producesData(inputOf(e));
  return e.isPrim(Op::Map) && isLayoutOnlyFunction(funOf(e)) && producesData(inputOf(e));
}

void Generator::gen(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope,
                    const std::string &where) {
  if (e.is(ExprKind::Apply) && e.fun().is(ExprKind::Lambda)) {
    if (e.args().size() == 1 && isLayoutOnlyFunction(e.fun()) && producesData(e.args().front())) {
      // (\p. layout(p))(computed): write the computed array through the layout.
      const Expr &body = e.fun().body(), &argument = e.args().front();
      LayoutPath onResult = [body, where](const AccessPath &p, std::vector<WriteBound> &bounds,
                                          std::optional<int> lane) {
        return pathOnResult(body, p, where, bounds, lane);
      };
      gen(argument, env, throughLayout(target, body, argument, onResult, where), scope, where + "/args/0");
      return;
    }
    Env inner = env;
    Env prepared = env;
    for (size_t i = 0; i < e.args().size(); ++i) {
      Expr arg = prepare(e.args()[i], prepared, scope, where + "/args/" + std::to_string(i));
      inner = inner.bind(e.fun().params()[i], ViewBinding{arg, share(prepared), {}});
    }
    gen(e.fun().body(), inner, target, scope, where + "/apply/body");
    return;
  }
  if (e.is(ExprKind::Prim)) {
    const OpInfo &info = e.info();
    if (info.has(opflag::MapLike | opflag::LowLevel)) {
      genMap(e, env, target, scope, where);
      return;
    }
    if (info.has(opflag::ReduceLike | opflag::LowLevel)) {
      genReduce(e, env, target, scope, where);
      return;
    }
    if (e.isPrim(Op::SlideSeq)) {
      genSlideSeq(e, env, target, scope, where);
      return;
    }
    if (info.has(opflag::AddressSpace)) {
      // The address space matters where an array is materialised (see
      // materialize); writing into an existing target it is f(in).
      const Expr &f = funOf(e);
      Env prepared = env;
      Expr in = prepare(inputOf(e), prepared, scope, where + "/in");
      if (f.is(ExprKind::UserFun)) {
        store(target({}), callUserFun(f, {read(in, prepared, {}, where + "/in")}, e.typeOrThrow()));
        return;
      }
      gen(f.body(), env.bind(f.params().front(), ViewBinding{in, share(prepared), {}}), target, scope,
          where + "/f/body");
      return;
    }
    switch (e.op()) {
    case Op::Map:
      if (isCompute(e)) fail(where, "map must be lowered to mapGlb, mapWrg/mapLcl or mapSeq before code generation");
      break;
    case Op::Reduce: fail(where, "reduce must be lowered to reduceSeq before code generation");
    case Op::Iterate: fail(where, "iterate is supported only as the whole program (iterating one of its inputs)");
    default: break;
    }
    if (producesData(e)) {
      genLayoutWrite(e, env, target, scope, where);
      return;
    }
  }
  if (writesComponents(e)) {
    genComponents(e, env, target, scope, where);
    return;
  }
  // A scalar computed by user functions (or copied from a view): one store.
  if (!e.typeOrThrow().isScalar() && !e.typeOrThrow().isVector())
    fail(where, "nothing computes this array of type " + e.typeOrThrow().str() +
                    "; apply a user function to its elements (e.g. mapSeq(id))");
  // Arrays computed inside the scalar expression (e.g. at(0, reduceSeq(...)))
  // are materialised first, in this work-item's private memory.
  Env prepared = env;
  Expr scalar = prepare(e, prepared, scope, where);
  std::string value = read(scalar, prepared, {}, where);
  store(target({}), value);
}

void Generator::genLayoutWrite(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope,
                               const std::string &where) {
  // The scalar at path p of the argument lands at forwardStep(e, p) of the
  // result, so the argument is generated into the composed target.
  LayoutPath onResult = [e, where](const AccessPath &p, std::vector<WriteBound> &bounds, std::optional<int> lane) {
    return forwardStep(e, p, where, bounds, lane);
  };
  gen(inputOf(e), env, throughLayout(target, e, inputOf(e), onResult, where), scope, where + "/in");
}

WriteTarget Generator::throughLayout(const WriteTarget &target, const Expr &layout, const Expr &argument,
                                     const LayoutPath &onResult, const std::string &where) {
  if (!spreadsVectors(layout, argument)) {
    return [this, target, onResult](const AccessPath &p) {
      std::vector<WriteBound> bounds;
      AccessPath q = onResult(p, bounds, std::nullopt);
      return guarded(target(q), bounds);
    };
  }
  Type vectors = argument.typeOrThrow();
  return [this, target, onResult, vectors, where](const AccessPath &p) {
    return vectorLvalue(
        vectors, p,
        [&](int lane) {
          std::vector<WriteBound> bounds;
          AccessPath q = onResult(p, bounds, lane);
          return guarded(target(q), bounds);
        },
        where);
  };
}

bool Generator::writesComponents(const Expr &e) {
  if (e.isPrim(Op::Tuple)) return true;
  if (!e.isPrim(Op::Zip)) return false;
  for (const Expr &in : e.args())
    if (!producesData(in) && !writesComponents(in)) return false;
  return true;
}

void Generator::genComponents(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope,
                              const std::string &where) {
  // A tuple's component k is the scalars below step k; a zip's input k is
  // component k of every element (the result's components are separate
  // buffers, core/interp/components.h, so each is written on its own).
  for (size_t k = 0; k < e.args().size(); ++k) {
    int component = static_cast<int>(k);
    bool zip = e.isPrim(Op::Zip);
    WriteTarget inner = [target, component, zip](const AccessPath &p) {
      AccessPath path = p;
      path.insert(path.begin() + (zip ? 1 : 0), PathStep::tupleComponent(component));
      return target(path);
    };
    gen(e.args()[k], env, inner, scope, where + "/in/" + std::to_string(k));
  }
}

Lvalue Generator::guarded(Lvalue target, const std::vector<WriteBound> &bounds) {
  for (const WriteBound &b : bounds) {
    // Where the tile divides the extent there is no take; where the ranges
    // prove the index in bounds (e.g. a boundary-specialised interior), no guard.
    if (arith::provablyLess(b.index, b.count)) continue;
    target.guard += (target.guard.empty() ? "" : " && ") + index(b.index) + " < " + index(b.count);
  }
  return target;
}

} // namespace liftcc::codegen
