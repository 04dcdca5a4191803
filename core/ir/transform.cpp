#include "core/ir/transform.h"

namespace liftcc {

namespace {

/// e's children in Expr::children()'s order, without their paths: the walks
/// here run several times per generated kernel, and building each child's
/// path string was most of their time.
std::vector<const Expr *> childrenOf(const Expr &e) {
  std::vector<const Expr *> out;
  auto add = [&](const std::vector<Expr> &list) {
    for (const Expr &c : list) out.push_back(&c);
  };
  switch (e.kind()) {
  case ExprKind::Param:
  case ExprKind::Literal:
  case ExprKind::UserFun: break;
  case ExprKind::Lambda: out.push_back(&e.body()); break;
  case ExprKind::Apply:
    out.push_back(&e.fun());
    add(e.args());
    break;
  case ExprKind::Prim:
    add(e.funs());
    add(e.args());
    break;
  }
  return out;
}

} // namespace

Expr mapChildren(const Expr &e, const std::function<Expr(const Expr &)> &f) {
  std::vector<const Expr *> children = childrenOf(e);
  if (children.empty()) return e;
  std::vector<Expr> rebuilt;
  rebuilt.reserve(children.size());
  bool changed = false;
  for (const Expr *c : children) {
    rebuilt.push_back(f(*c));
    changed = changed || !rebuilt.back().sameNode(*c);
  }
  return changed ? e.withChildren(std::move(rebuilt)) : e;
}

Expr transformBottomUp(const Expr &e, const std::function<Expr(const Expr &)> &f) {
  return f(mapChildren(e, [&](const Expr &c) { return transformBottomUp(c, f); }));
}

Expr withOp(const Expr &e, Op op, int attr) {
  return Expr::prim(op, {e.sizes(), attr, e.padMode(), e.funs(), e.args()});
}

bool containsNode(const Expr &e, const std::function<bool(const Expr &)> &pred) {
  if (pred(e)) return true;
  for (const Expr *c : childrenOf(e))
    if (containsNode(*c, pred)) return true;
  return false;
}

bool readsParam(const Expr &e, const Expr &param) {
  return containsNode(e, [&](const Expr &n) { return n.is(ExprKind::Param) && n.sameNode(param); });
}

Expr withParamReplaced(const Expr &e, const Expr &param, const Expr &by) {
  return transformBottomUp(e, [&](const Expr &n) { return n.is(ExprKind::Param) && n.sameNode(param) ? by : n; });
}

Expr bodyOver(const Program &program, const std::unordered_map<std::string, Expr> &byName) {
  return transformBottomUp(program.body(), [&](const Expr &n) {
    if (!n.is(ExprKind::Param)) return n;
    for (const Expr &in : program.inputs())
      if (n.sameNode(in)) return byName.at(in.name());
    return n;
  });
}

} // namespace liftcc
