// Int values computed as index arithmetic: an atDynamic index that is an
// affine user function (cfun::Function::affine) of indices and of elements
// of views over them (generate's index, padded, reindexed) becomes an
// arith::Expr instead of a variable spelled as its C text, so that the range
// analysis can simplify it. A time tile's source index `at + offset`, where
// the offset is the clamped position minus the position, is then the
// position itself wherever the ranges prove it inside the grid (a
// specialised interior): no offset arithmetic and no clamp there.

#include "codegen/generator.h"
#include "core/ir/operands.h"

namespace liftcc::codegen {

namespace {

/// Deeper views than this are left to the C text (a guard against runaway
/// recursion; a 3D time tile's offsets lie about 100 views deep).
constexpr int kMaxIndexValueDepth = 1024;

AccessPath afterFirst(const AccessPath &path) { return AccessPath(path.begin() + 1, path.end()); }

} // namespace

std::optional<arith::Expr> Generator::indexValue(const Expr &e, const Env &env, const AccessPath &path,
                                                 int depth) const {
  if (depth > kMaxIndexValueDepth) return std::nullopt;
  switch (e.kind()) {
  case ExprKind::Param: {
    const Binding *b = env.lookup(e);
    if (!b) return std::nullopt;
    if (const auto *index = std::get_if<IndexBinding>(b))
      return path.empty() ? std::optional(index->value) : std::nullopt;
    if (const auto *view = std::get_if<ViewBinding>(b))
      return indexValue(view->expr, *view->env, concat(view->prefix, path), depth + 1);
    return std::nullopt; // memory, a ring, a scalar: read at run time
  }
  case ExprKind::Literal:
    if (!path.empty() || e.literal().kind() != ScalarKind::Int) return std::nullopt;
    return arith::Expr(int64_t(e.literal().asInt()));
  case ExprKind::Apply: return appliedIndexValue(e, env, path, depth);
  case ExprKind::Prim: return primIndexValue(e, env, path, depth);
  default: return std::nullopt;
  }
}

std::optional<arith::Expr> Generator::appliedIndexValue(const Expr &e, const Env &env, const AccessPath &path,
                                                        int depth) const {
  const Expr &f = e.fun();
  if (f.is(ExprKind::Lambda)) {
    Env inner = env;
    for (size_t i = 0; i < f.params().size(); ++i)
      inner = inner.bind(f.params()[i], ViewBinding{e.args()[i], share(env), {}});
    return indexValue(f.body(), inner, path, depth + 1);
  }
  if (!f.is(ExprKind::UserFun) || !path.empty()) return std::nullopt;
  std::optional<cfun::Function::Affine> affine = f.userFun().affine();
  if (!affine) return std::nullopt;
  arith::Expr sum(affine->constant);
  for (size_t i = 0; i < e.args().size(); ++i) {
    const int64_t c = affine->coefficients[i];
    if (c == 0) continue;
    std::optional<arith::Expr> arg = indexValue(e.args()[i], env, {}, depth + 1);
    if (!arg) return std::nullopt;
    sum = sum + arith::Expr(c) * *arg;
  }
  return sum;
}

std::optional<arith::Expr> Generator::primIndexValue(const Expr &e, const Env &env, const AccessPath &path,
                                                     int depth) const {
  switch (views::indexRule(e.op()).kind) {
  case views::RuleKind::Reindex: {
    if (e.isPrim(Op::AsVector) || e.isPrim(Op::AsScalar) || views::missingStep(e.op(), path)) return std::nullopt;
    views::Reindexed<arith::Expr> source = views::reindex(e, path, views::SymbolicIndices{});
    // A constant pad's value is selected at run time.
    if (source.boundary && source.boundary->constant) return std::nullopt;
    return indexValue(e.args().at(source.operand), env, source.path, depth + 1);
  }
  case views::RuleKind::Function: {
    const Expr &f = funOf(e);
    if (path.empty() || path.front().isTuple || !f.is(ExprKind::Lambda)) return std::nullopt;
    Env inner = e.isPrim(Op::Generate)
                    ? env.bind(f.params().front(), IndexBinding{path.front().index})
                    : env.bind(f.params().front(), ViewBinding{inputOf(e), share(env), {path.front()}});
    return indexValue(f.body(), inner, afterFirst(path), depth + 1);
  }
  case views::RuleKind::DataIndex: {
    std::optional<arith::Expr> i = indexValue(dynamicIndexOf(e), env, {}, depth + 1);
    if (!i) return std::nullopt;
    const arith::Expr n = inputOf(e).typeOrThrow().arrayLength();
    AccessPath into{PathStep::arrayIndex(arith::simplify(arith::min(arith::max(*i, 0), n - 1)))};
    into.insert(into.end(), path.begin(), path.end());
    return indexValue(inputOf(e), env, into, depth + 1);
  }
  case views::RuleKind::Scalar: return path.empty() ? std::optional(sizeValueOf(e)) : std::nullopt;
  case views::RuleKind::Computed: break;
  }
  return std::nullopt;
}

} // namespace liftcc::codegen
