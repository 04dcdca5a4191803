#include "core/ir/transform.h"

namespace liftcc {

Expr mapChildren(const Expr &e, const std::function<Expr(const Expr &)> &f) {
  std::vector<Child> children = e.children();
  if (children.empty()) return e;
  std::vector<Expr> rebuilt;
  rebuilt.reserve(children.size());
  bool changed = false;
  for (const Child &c : children) {
    rebuilt.push_back(f(*c.expr));
    changed = changed || !rebuilt.back().sameNode(*c.expr);
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
  for (const Child &c : e.children())
    if (containsNode(*c.expr, pred)) return true;
  return false;
}

} // namespace liftcc
