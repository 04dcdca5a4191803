// Loops: the lowered maps and sequential reductions, and the legality of
// nesting parallel maps.

#include "codegen/generator.h"
#include "core/arith/index_range.h"
#include "core/ir/operands.h"
#include "primitives/api.h"

namespace liftcc::codegen {

namespace {
[[noreturn]] void fail(const std::string &where, const std::string &message) { throw CodegenError(where, message); }
} // namespace

void Generator::checkNesting(const Expr &e, const Scope &scope, const std::string &where) const {
  const std::string name(e.info().name);
  bool parallel = e.info().has(opflag::Parallel);
  int d = e.attr();
  if (parallel && (d < 0 || d > 2))
    fail(where + "/dim", name + ": dimension must be 0, 1 or 2, found " + std::to_string(d));
  switch (e.op()) {
  case Op::MapGlb:
    if (scope.inWrg() || scope.inLcl()) fail(where, "mapGlb cannot be nested inside mapWrg or mapLcl");
    if (scope.glb[d])
      fail(where, "mapGlb(" + std::to_string(d) + ") is nested inside another mapGlb(" + std::to_string(d) + ")");
    if (scope.sequential) fail(where, "mapGlb cannot be nested inside a sequential loop");
    return;
  case Op::MapWrg:
    if (scope.inGlb() || scope.inLcl()) fail(where, "mapWrg cannot be nested inside mapGlb or mapLcl");
    if (scope.wrg[d])
      fail(where, "mapWrg(" + std::to_string(d) + ") is nested inside another mapWrg(" + std::to_string(d) + ")");
    if (scope.sequential) fail(where, "mapWrg cannot be nested inside a sequential loop");
    return;
  case Op::MapLcl:
    if (!scope.inWrg()) fail(where, "mapLcl must be nested inside mapWrg");
    if (scope.lcl[d])
      fail(where, "mapLcl(" + std::to_string(d) + ") is nested inside another mapLcl(" + std::to_string(d) + ")");
    if (scope.sequential) fail(where, "mapLcl cannot be nested inside a sequential loop");
    return;
  default: return;
  }
}

bool Generator::unrolledHere(int64_t n) const {
  if (dialect_.target() == Target::CUDA && n > kMaxUnrolledCudaLoop) return false;
  return n <= kMaxUnrolledCopies / unrolledCopies_;
}

Generator::MapIndex Generator::mapIndex(const Expr &e, const arith::Expr &n, Scope &inner, const std::string &where) {
  int d = e.attr();
  // A parallel map's extent, and its index for the margin search (boundary
  // specialisation narrows it in the interior: boundary_facts.h).
  auto record = [&](std::array<std::optional<arith::Expr>, 3> &extents, const std::string &var) {
    if (extents[d] && *extents[d] != n)
      fail(where, std::string(e.info().name) + "(" + std::to_string(d) + ") has extent " + n.str() +
                      " but another map on the same dimension has " + extents[d]->str());
    extents[d] = n;
    boundaryFacts_.maps.push_back({var, d, n});
    return var;
  };
  switch (e.op()) {
  case Op::MapGlb:
    inner.glb[d] = true;
    return {record(glbExtent_, freshName("gid" + std::to_string(d))), indexBuiltin(&Dialect::globalId, d),
            indexBuiltin(&Dialect::globalSize, d)};
  case Op::MapWrg:
    inner.wrg[d] = true;
    return {record(wrgExtent_, freshName("wg" + std::to_string(d))), indexBuiltin(&Dialect::groupId, d),
            indexBuiltin(&Dialect::numGroups, d)};
  case Op::MapLcl:
    inner.lcl[d] = true;
    if (!lclExtent_[d] ||
        (n.isConstant() && (!lclExtent_[d]->isConstant() || n.constant() > lclExtent_[d]->constant())))
      lclExtent_[d] = n; // the widest mapLcl decides the default work-group size
    return {freshName("lid" + std::to_string(d)), indexBuiltin(&Dialect::localId, d),
            indexBuiltin(&Dialect::localSize, d)};
  default: inner.sequential = true; return {freshName("i"), "0", "1"};
  }
}

void Generator::genMap(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope,
                       const std::string &where) {
  checkNesting(e, scope, where);
  const Expr &f = funOf(e);
  Env prepared = env;
  Expr in = prepare(inputOf(e), prepared, scope, where + "/in");
  arith::Expr n = inputOf(e).typeOrThrow().arrayLength();
  Scope inner = scope;
  MapIndex index = mapIndex(e, n, inner, where);

  auto emitBody = [&](const arith::Expr &i) {
    WriteTarget elementTarget = [target, i](const AccessPath &p) {
      return target(prepend(PathStep::arrayIndex(i), p));
    };
    AccessPath element{PathStep::arrayIndex(i)};
    if (f.is(ExprKind::UserFun)) {
      store(elementTarget({}),
            callUserFun(f, {read(in, prepared, element, where + "/in")}, e.typeOrThrow().arrayElement()));
      return;
    }
    Env bodyEnv = prepared.bind(f.params()[0], ViewBinding{in, share(prepared), element});
    gen(f.body(), bodyEnv, elementTarget, inner, where + "/f/body");
  };
  emitMapIterations(e, n, index, emitBody, where);
}

void Generator::emitMapIterations(const Expr &e, const arith::Expr &n, const MapIndex &index,
                                  const std::function<void(const arith::Expr &)> &emitBody, const std::string &where) {
  const int d = e.attr();
  const std::string &var = index.var;
  if (e.op() == Op::MapSeqUnroll) {
    if (!n.isConstant()) fail(where, "mapSeqUnroll needs a constant extent, found " + n.str());
    if (unrolledHere(n.constant())) {
      int64_t saved = unrolledCopies_;
      unrolledCopies_ *= std::max<int64_t>(1, n.constant());
      for (int64_t k = 0; k < n.constant(); ++k) body_.scope([&] { emitBody(arith::Expr(k)); });
      unrolledCopies_ = saved;
      return;
    }
    // Too many copies: the same iterations as a loop (below).
  }

  bool narrowed = interior_ && (e.op() == Op::MapGlb || e.op() == Op::MapWrg);
  auto loopBody = [&] {
    emitBody(narrowed ? arith::indexWithin(var, interior_->lo[d], n - interior_->hi[d]) : arith::Expr::index(var, n));
  };
  if (e.op() == Op::MapGlb) {
    // The launch provides at least one work-item per element
    // (Kernel::globalSize), so each runs the body at most once: a guard, not
    // a loop. CPU OpenCL compilers vectorise the guarded form far better.
    body_.let(indexType(), var, index.start);
    bool dropGuard = guardFree(e.op(), d, n);
    droppedGuard_ = droppedGuard_ || dropGuard;
    // The interior of a boundary-specialised kernel (interior_) is entered
    // only by whole work-groups inside the extent: no guard either.
    if (interior_ || dropGuard)
      body_.scope(loopBody);
    else
      body_.ifThen(var + " < " + this->index(n), loopBody);
  } else if (e.op() == Op::MapWrg) {
    // The launch provides exactly one work-group per element (Kernel::globalSize
    // is the extent times the work-group size, and planLaunch refuses another
    // work-group size), so every work-group runs the body once and needs no
    // guard. That keeps the barriers of local tiles out of conditional code,
    // and no barrier ends the body: nothing of the work-group runs after it.
    // (PoCL 3.1 crashes on a kernel whose only barrier sits in the mapWrg
    // guard, see tests/codegen_opencl_test.cpp.) The block scopes the names.
    body_.let(indexType(), var, index.start);
    body_.scope(loopBody);
  } else if (e.op() == Op::MapLcl && lclCopies_[d] > 1) {
    // A stream's step with register queues (generator_register_queue.cpp):
    // each of the work-item's positions a copy of its own, so that each
    // reads its own queue (the copies divide the extent: no guard).
    const int64_t local = n.constant() / lclCopies_[d];
    body_.let(indexType(), var, index.start);
    for (int64_t c = 0; c < lclCopies_[d]; ++c)
      body_.scope([&] {
        lclIndex_[d] = arith::Expr::var(var, arith::Range::between(0, local - 1)) + arith::Expr(c * local);
        lclCopy_[d] = c;
        emitBody(*lclIndex_[d]);
      });
    lclIndex_[d].reset();
    lclCopy_[d] = 0;
  } else if (e.op() == Op::MapLcl) {
    // The body knows its work-item's position (a stream's register queue, queuedSlot).
    auto positioned = [&] {
      lclIndex_[d] = arith::Expr::index(var, n);
      loopBody();
      lclIndex_[d].reset(); // mapLcl(d) does not nest in mapLcl(d) (checkNesting)
    };
    // A kernel that requires its work-group size (a stream's queues or
    // spread copies) runs the body at most once per work-item where the
    // group covers the extent: no loop, and no guard where it fits exactly.
    const int64_t local = options_.localSize[static_cast<size_t>(d)];
    if (assumesLocalSize_ && n.isConstant() && local >= n.constant()) {
      body_.let(indexType(), var, index.start);
      if (local == n.constant())
        body_.scope(positioned);
      else
        body_.ifThen(var + " < " + this->index(n), positioned);
    } else {
      body_.forLoop(indexType(), var, index.start, this->index(n), index.stride, positioned);
    }
  } else {
    body_.forLoop(indexType(), var, index.start, this->index(n), index.stride, loopBody);
  }
}

void Generator::genReduce(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope,
                          const std::string &where) {
  const Expr &f = funOf(e);
  Env prepared = env;
  Expr in = prepare(inputOf(e), prepared, scope, where + "/in");
  Expr init = prepare(reduceInit(e), prepared, scope, where + "/init");
  const Type &accType = reduceInit(e).typeOrThrow();
  // The accumulator: one scalar, or one per component of a tuple of scalars.
  std::vector<AccessPath> components{{}};
  bool scalars = accType.isScalar();
  if (accType.isTuple()) {
    components.clear();
    scalars = true;
    for (size_t k = 0; k < accType.tupleElements().size(); ++k) {
      scalars = scalars && accType.tupleElements()[k].isScalar();
      components.push_back({PathStep::tupleComponent(static_cast<int>(k))});
    }
  }
  if (!scalars)
    fail(where + "/init", "reduceSeq with an accumulator of type " + accType.str() +
                              " is not supported: a scalar or a tuple of scalars");
  if (f.is(ExprKind::Lambda) && isCompute(f.body()))
    fail(where + "/f", "the reduction operator must compute a scalar with user functions");
  if (f.is(ExprKind::UserFun) && accType.isTuple())
    fail(where + "/f", "a reduction over a tuple accumulator needs a lambda building the tuple, not a user function");
  arith::Expr n = inputOf(e).typeOrThrow().arrayLength();

  std::vector<std::string> acc;
  std::vector<Expr> accParams;
  Env accEnv = prepared;
  for (size_t k = 0; k < components.size(); ++k) {
    const Type component = accType.isTuple() ? accType.tupleElements()[k] : accType;
    acc.push_back(freshName("acc"));
    body_.let(std::string(scalarKindName(component.scalarKind())), acc.back(),
              read(init, prepared, components[k], where + "/init"), false);
    accParams.push_back(Expr::param(acc.back(), component));
    accEnv = accEnv.bind(accParams.back(), ScalarBinding{acc.back()});
  }
  // The accumulator as f's first argument: the scalar, or the tuple of the components' scalars.
  const Binding accumulator = accType.isTuple()
                                  ? Binding{ViewBinding{api::tuple(accParams).withType(accType), share(accEnv), {}}}
                                  : Binding{ScalarBinding{acc.front()}};
  auto emitStep = [&](const arith::Expr &j) {
    AccessPath element{PathStep::arrayIndex(j)};
    if (f.is(ExprKind::UserFun)) {
      body_.assign(acc.front(), callUserFun(f, {acc.front(), read(in, prepared, element, where + "/in")}, accType));
      return;
    }
    Env fe = prepared.bind(f.params()[0], accumulator).bind(f.params()[1], ViewBinding{in, share(prepared), element});
    if (components.size() == 1) {
      body_.assign(acc.front(), read(f.body(), fe, components.front(), where + "/f/body"));
      return;
    }
    // Every component from the accumulator before the step, then all updated.
    std::vector<std::string> next;
    for (size_t k = 0; k < components.size(); ++k) {
      next.push_back(freshName("next"));
      body_.let(std::string(scalarKindName(accType.tupleElements()[k].scalarKind())), next.back(),
                read(f.body(), fe, components[k], where + "/f/body"));
    }
    for (size_t k = 0; k < components.size(); ++k) body_.assign(acc[k], next[k]);
  };
  if (e.op() == Op::ReduceSeqUnroll && !n.isConstant())
    fail(where, "reduceSeqUnroll needs a constant extent, found " + n.str());
  if (e.op() == Op::ReduceSeqUnroll && unrolledHere(n.constant())) {
    for (int64_t k = 0; k < n.constant(); ++k) emitStep(arith::Expr(k));
  } else {
    std::string j = freshName("j");
    body_.forLoop(indexType(), j, "0", index(n), "1", [&] { emitStep(arith::Expr::index(j, n)); });
  }
  for (size_t k = 0; k < components.size(); ++k)
    store(target(concat({PathStep::arrayIndex(0)}, components[k])), acc[k]);
}

} // namespace liftcc::codegen
