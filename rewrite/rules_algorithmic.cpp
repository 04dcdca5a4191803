// The algorithmic rules of the Lift papers: they change how a result is
// computed, never what.

#include "core/ir/operands.h"
#include "core/ir/transform.h"
#include "primitives/api.h"
#include "rewrite/rule.h"

#include <algorithm>

namespace liftcc::rewrite {

namespace {

/// Applies a unary function value (lambda or user function) to an argument.
Expr call(const Expr &f, Expr arg) { return Expr::apply(f, {std::move(arg)}); }

std::optional<arith::Expr> lengthOf(const Expr &e) {
  if (!e.type() || !e.type()->isArray()) return std::nullopt;
  return e.type()->arrayLength();
}

} // namespace

Rule mapFusion() {
  return {"mapFusion", "map(f, map(g, x)) -> map(\\y. f(g(y)), x)", [](const Expr &e) -> std::optional<Expr> {
            if (!e.isPrim(Op::Map) || !inputOf(e).isPrim(Op::Map)) return std::nullopt;
            const Expr &f = funOf(e), &inner = inputOf(e);
            const Expr &g = funOf(inner);
            Expr y = Expr::param("y");
            return api::map(Expr::lambda({y}, call(f, call(g, y))), inputOf(inner));
          }};
}

Rule mapFission() {
  return {"mapFission", "map(\\y. P(Q(y)), x) -> map(\\z. P(z), map(\\y. Q(y), x))",
          [](const Expr &e) -> std::optional<Expr> {
            if (!e.isPrim(Op::Map) || !funOf(e).is(ExprKind::Lambda)) return std::nullopt;
            const Expr &f = funOf(e);
            const Expr &y = f.params().front();
            const Expr &body = f.body();
            // P is a primitive with exactly one data operand that mentions y;
            // that operand (Q(y)) must not be y itself, and y must not occur in
            // P's other operands or functions.
            if (!body.is(ExprKind::Prim)) return std::nullopt;
            std::vector<Child> children = body.children();
            std::optional<size_t> q;
            for (size_t i = 0; i < children.size(); ++i) {
              if (!readsParam(*children[i].expr, y)) continue;
              if (q || i < body.funs().size()) return std::nullopt;
              q = i;
            }
            if (!q) return std::nullopt;
            const Expr &inner = *children[*q].expr;
            if (inner.is(ExprKind::Param)) return std::nullopt;
            Expr z = Expr::param("z");
            std::vector<Expr> rebuilt;
            for (size_t i = 0; i < children.size(); ++i) rebuilt.push_back(i == *q ? z : *children[i].expr);
            Expr outer = Expr::lambda({z}, body.withChildren(std::move(rebuilt)));
            return api::map(outer, api::map(Expr::lambda({y}, inner), inputOf(e)));
          }};
}

Rule splitJoin(arith::Expr n) {
  return {"splitJoin(" + n.str() + ")", "map(f, x) -> join(map(\\c. map(f, c), split(n, x)))",
          [n](const Expr &e) -> std::optional<Expr> {
            if (!e.isPrim(Op::Map)) return std::nullopt;
            auto length = lengthOf(inputOf(e));
            if (!length || !arith::provablyDivisible(*length, n) || *length == n) return std::nullopt;
            const Expr &f = funOf(e);
            Expr c = Expr::param("c");
            return api::join(api::map(Expr::lambda({c}, api::map(f, c)), api::split(n, inputOf(e))));
          }};
}

Rule joinSplit() {
  return {"joinSplit", "join(split(n, x)) -> x", [](const Expr &e) -> std::optional<Expr> {
            if (!e.isPrim(Op::Join) || !inputOf(e).isPrim(Op::Split)) return std::nullopt;
            return inputOf(inputOf(e));
          }};
}

Rule splitJoinCancel() {
  return {"splitJoinCancel", "split(n, join(x)) -> x  when x: [[T]n]m", [](const Expr &e) -> std::optional<Expr> {
            if (!e.isPrim(Op::Split) || !inputOf(e).isPrim(Op::Join)) return std::nullopt;
            const Expr &x = inputOf(inputOf(e));
            if (!x.type() || !x.type()->isArray() || !x.type()->arrayElement().isArray()) return std::nullopt;
            if (!arith::provablyEqual(x.type()->arrayElement().arrayLength(), splitSize(e))) return std::nullopt;
            return x;
          }};
}

Rule transposeTranspose() {
  return {"transposeTranspose", "transpose(transpose(x)) -> x", [](const Expr &e) -> std::optional<Expr> {
            if (!e.isPrim(Op::Transpose) || !inputOf(e).isPrim(Op::Transpose)) return std::nullopt;
            return inputOf(inputOf(e));
          }};
}

Rule reduceMapFusion() {
  return {"reduceMapFusion", "reduce(f, z, map(g, x)) -> reduce(\\(a, y). f(a, g(y)), z, x)",
          [](const Expr &e) -> std::optional<Expr> {
            if (!e.isPrim(Op::Reduce) || !inputOf(e).isPrim(Op::Map)) return std::nullopt;
            const Expr &f = funOf(e), &inner = inputOf(e);
            Expr a = Expr::param("a"), y = Expr::param("y");
            Expr fused = Expr::lambda({a, y}, Expr::apply(f, {a, call(funOf(inner), y)}));
            return api::reduce(fused, reduceInit(e), inputOf(inner));
          }};
}

Rule iterateAsReduction() {
  return {
      "iterateAsReduction",
      "iterate(n, f, x) -> at(0, reduce(\\(a, i). f(a), x, generate(n, \\i. i))) for x a scalar or a tuple of scalars",
      [](const Expr &e) -> std::optional<Expr> {
        // A state of scalars is a work-item's own: the iteration becomes a
        // sequential loop around f in the kernel (a host loop runs over
        // whole arrays only). The indices are the loop's, never read.
        if (!e.isPrim(Op::Iterate) || !inputOf(e).type()) return std::nullopt;
        const Type &state = *inputOf(e).type();
        bool scalars = state.isScalar();
        if (state.isTuple())
          scalars = std::all_of(state.tupleElements().begin(), state.tupleElements().end(),
                                [](const Type &t) { return t.isScalar(); });
        if (!scalars) return std::nullopt;
        Expr a = Expr::param("a"), i = Expr::param("i");
        Expr step = Expr::lambda({a, i}, call(funOf(e), a));
        Expr indices = api::generate(iterateCount(e), api::fn([](Expr k) { return k; }, "k"));
        return api::at(arith::Expr(0), api::reduce(step, inputOf(e), indices));
      }};
}

namespace {

/// The iterates of `e` outside any function it holds (an iterate inside a
/// lambda may read that lambda's parameters).
void iteratesOutsideFunctions(const Expr &e, std::vector<Expr> &out) {
  if (e.isPrim(Op::Iterate)) {
    if (std::none_of(out.begin(), out.end(), [&](const Expr &o) { return o.sameNode(e); })) out.push_back(e);
    return;
  }
  for (const Child &c : e.children())
    if (!c.expr->is(ExprKind::Lambda) && !c.expr->is(ExprKind::UserFun)) iteratesOutsideFunctions(*c.expr, out);
}

/// \q. body with `a` read as get(0, q) and `b` as get(1, q): a function
/// over the elements of zip(A, B) reading both.
Expr overPairs(const Expr &body, const Expr &a, const Expr &b) {
  Expr q = Expr::param("q");
  return Expr::lambda({q}, withParamReplaced(withParamReplaced(body, a, api::get(0, q)), b, api::get(1, q)));
}

} // namespace

Rule iterateOutOfMap() {
  return {"iterateOutOfMap",
          "map(\\x. P(iterate(n, f, Q(x))), X) -> map(\\s. P(s), iterate(n, \\Y. map(f, Y), map(\\x. Q(x), X))) for an "
          "array state; where f or P reads x, it reads X's element beside its own: map(.., zip(Y, X))",
          [](const Expr &e) -> std::optional<Expr> {
            // Each element's array iterated on its own is every element's
            // iterated together: one host loop over the whole array.
            if (!e.isPrim(Op::Map) || !funOf(e).is(ExprKind::Lambda) || funOf(e).params().size() != 1)
              return std::nullopt;
            const Expr &g = funOf(e), &x = g.params()[0], &in = inputOf(e);
            std::vector<Expr> loops;
            iteratesOutsideFunctions(g.body(), loops);
            if (loops.size() != 1 || !loops.front().type() || !loops.front().type()->isArray()) return std::nullopt;
            const Expr &loop = loops.front(), &f = funOf(loop);
            Expr rows = Expr::param("rows");
            Expr step = api::map(f, rows);
            if (readsParam(f, x)) { // a step reading the element it started from: X beside the state
              if (!f.is(ExprKind::Lambda) || f.params().size() != 1) return std::nullopt;
              step = api::map(overPairs(f.body(), f.params()[0], x), api::zip(rows, in));
            }
            Expr start = inputOf(loop).sameNode(x) ? in : api::map(Expr::lambda({x}, inputOf(loop)), in);
            Expr hoisted = api::iterate(iterateCount(loop), Expr::lambda({rows}, step), std::move(start));
            Expr s = Expr::param("s");
            Expr post = transformBottomUp(g.body(), [&](const Expr &n) { return n.sameNode(loop) ? s : n; });
            if (post.sameNode(s)) return hoisted;
            if (readsParam(post, x)) return api::map(overPairs(post, s, x), api::zip(hoisted, in));
            return api::map(Expr::lambda({s}, post), hoisted);
          }};
}

} // namespace liftcc::rewrite
