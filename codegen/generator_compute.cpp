// Computing into memory: loops for the map and reduce primitives, stores of
// user-function results through write targets, and materialisation of the
// intermediate arrays a program asks for (toLocal / toPrivate).

#include "codegen/generator.h"

namespace liftcc::codegen {

namespace {

[[noreturn]] void fail(const std::string &where, const std::string &message) { throw CodegenError(where, message); }

/// A lambda whose body only rearranges its parameter (join, split,
/// transpose, nested layout maps): such maps can be written through.
bool isLayoutOnlyFunction(const Expr &f) {
  if (!f.is(ExprKind::Lambda) || f.params().size() != 1) return false;
  const Expr *e = &f.body();
  while (e->is(ExprKind::Prim)) {
    switch (e->op()) {
    case Op::Join:
    case Op::Split:
    case Op::Transpose: e = &e->args()[0]; continue;
    case Op::Map:
      if (!isLayoutOnlyFunction(e->funs()[0])) return false;
      e = &e->args()[0];
      continue;
    default: return false;
    }
  }
  return e->is(ExprKind::Param) && e->sameNode(f.params()[0]);
}

AccessPath forwardStep(const Expr &layout, const AccessPath &path, const std::string &where);

/// Maps a path on the parameter of a layout-only lambda to the path of the
/// same scalar in the lambda's result.
AccessPath pathOnResult(const Expr &body, const AccessPath &pathOnParam, const std::string &where) {
  if (body.is(ExprKind::Param)) return pathOnParam;
  return forwardStep(body, pathOnResult(body.args()[0], pathOnParam, where), where);
}

/// Writing direction of a layout primitive: the path of a scalar of its
/// argument -> the path of the same scalar in its result (the inverse of
/// the reading direction in generator_views.cpp).
AccessPath forwardStep(const Expr &layout, const AccessPath &path, const std::string &where) {
  auto step = [&](size_t i) -> const arith::Expr & {
    if (i >= path.size() || path[i].isTuple) fail(where, "internal error: partial write through a layout");
    return path[i].index;
  };
  auto rest = [&](size_t n) { return AccessPath(path.begin() + static_cast<std::ptrdiff_t>(n), path.end()); };
  switch (layout.op()) {
  case Op::Join: {
    arith::Expr inner = layout.args()[0].typeOrThrow().arrayElement().arrayLength();
    return prepend(PathStep::arrayIndex(step(0) * inner + step(1)), rest(2));
  }
  case Op::Split: {
    const arith::Expr &k = layout.sizes()[0];
    return concat({PathStep::arrayIndex(step(0) / k), PathStep::arrayIndex(step(0) % k)}, rest(1));
  }
  case Op::Transpose: return concat({PathStep::arrayIndex(step(1)), PathStep::arrayIndex(step(0))}, rest(2));
  case Op::Map: {
    const Expr &g = layout.funs()[0];
    return prepend(PathStep::arrayIndex(step(0)), pathOnResult(g.body(), rest(1), where));
  }
  default: fail(where, "cannot write through " + std::string(layout.info().name));
  }
}

} // namespace

bool isCompute(const Expr &e) {
  switch (e.kind()) {
  case ExprKind::Apply: return e.fun().is(ExprKind::Lambda) && isCompute(e.fun().body());
  case ExprKind::Prim:
    switch (e.op()) {
    case Op::MapGlb: case Op::MapWrg: case Op::MapLcl: case Op::MapSeq: case Op::MapSeqUnroll:
    case Op::ReduceSeq: case Op::ReduceSeqUnroll: case Op::Reduce: case Op::Iterate:
    case Op::ToGlobal: case Op::ToLocal: case Op::ToPrivate:
      return true;
    case Op::Map: return e.funs()[0].is(ExprKind::Lambda) && isCompute(e.funs()[0].body());
    default: return false;
    }
  default: return false;
  }
}

bool producesData(const Expr &e) {
  if (isCompute(e)) return true;
  if (e.is(ExprKind::Apply) && e.fun().is(ExprKind::Lambda) && e.args().size() == 1)
    return isLayoutOnlyFunction(e.fun()) && producesData(e.args()[0]);
  if (!e.is(ExprKind::Prim)) return false;
  switch (e.op()) {
  case Op::Join: case Op::Split: case Op::Transpose: return producesData(e.args()[0]);
  case Op::Map: return isLayoutOnlyFunction(e.funs()[0]) && producesData(e.args()[0]);
  default: return false;
  }
}

void Generator::gen(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope, const std::string &where) {
  if (e.is(ExprKind::Apply) && e.fun().is(ExprKind::Lambda)) {
    if (e.args().size() == 1 && isLayoutOnlyFunction(e.fun()) && producesData(e.args()[0])) {
      // (\p. layout(p))(computed): write the computed array through the layout.
      Expr body = e.fun().body();
      WriteTarget inner = [target, body, where](const AccessPath &p) { return target(pathOnResult(body, p, where)); };
      gen(e.args()[0], env, inner, scope, where + "/args/0");
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
    switch (e.op()) {
    case Op::MapGlb: case Op::MapWrg: case Op::MapLcl: case Op::MapSeq: case Op::MapSeqUnroll:
      genMap(e, env, target, scope, where);
      return;
    case Op::ReduceSeq: case Op::ReduceSeqUnroll: genReduce(e, env, target, scope, where); return;
    case Op::ToGlobal: case Op::ToLocal: case Op::ToPrivate: {
      // The address space matters where an array is materialised (see
      // materialize); writing into an existing target it is f(in).
      const Expr &f = e.funs()[0];
      Env prepared = env;
      Expr in = prepare(e.args()[0], prepared, scope, where + "/in");
      if (f.is(ExprKind::UserFun)) {
        body_.line(target({}) + " = " + callUserFun(f, {read(in, prepared, {}, where + "/in")}) + ";");
        return;
      }
      gen(f.body(), env.bind(f.params()[0], ViewBinding{in, share(prepared), {}}), target, scope, where + "/f/body");
      return;
    }
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
  // A scalar computed by user functions (or copied from a view): one store.
  if (!e.typeOrThrow().isScalar())
    fail(where, "nothing computes this array of type " + e.typeOrThrow().str() +
                    "; apply a user function to its elements (e.g. mapSeq(id))");
  // Arrays computed inside the scalar expression (e.g. at(0, reduceSeq(...)))
  // are materialised first, in this work-item's private memory.
  Env prepared = env;
  Expr scalar = prepare(e, prepared, scope, where);
  std::string value = read(scalar, prepared, {}, where);
  body_.line(target({}) + " = " + value + ";");
}

void Generator::genLayoutWrite(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope,
                               const std::string &where) {
  // The scalar at path p of the argument lands at forwardStep(e, p) of the
  // result, so the argument is generated into the composed target.
  WriteTarget inner = [target, e, where](const AccessPath &p) { return target(forwardStep(e, p, where)); };
  gen(e.args()[0], env, inner, scope, where + "/in");
}

} // namespace liftcc::codegen
