// Variable substitution and free-variable collection.

#include "core/arith/internal.h"

#include <algorithm>

namespace liftcc::arith {

namespace {

Expr substituteIn(Ctx &ctx, const Expr &e, const std::map<std::string, Expr> &bindings) {
  const std::vector<Expr> &ops = e.operands();
  auto all = [&] {
    std::vector<Expr> out;
    out.reserve(ops.size());
    for (const Expr &op : ops) out.push_back(substituteIn(ctx, op, bindings));
    return out;
  };
  switch (e.kind()) {
  case Kind::Constant: return e;
  case Kind::Variable: {
    auto it = bindings.find(e.varName());
    return it == bindings.end() ? e : it->second;
  }
  case Kind::Sum: return mkSum(ctx, all());
  case Kind::Product: return mkProduct(ctx, all());
  case Kind::Div: return mkDiv(ctx, substituteIn(ctx, ops[0], bindings), substituteIn(ctx, ops[1], bindings));
  case Kind::Mod: return mkMod(ctx, substituteIn(ctx, ops[0], bindings), substituteIn(ctx, ops[1], bindings));
  case Kind::Min: return mkMin(ctx, substituteIn(ctx, ops[0], bindings), substituteIn(ctx, ops[1], bindings));
  case Kind::Max: return mkMax(ctx, substituteIn(ctx, ops[0], bindings), substituteIn(ctx, ops[1], bindings));
  case Kind::Select: {
    const std::vector<Expr> r = all();
    return mkSelect(ctx, r[0], e.selectCmp(), r[1], r[2], r[3]);
  }
  }
  return e;
}

void collectVariables(const Expr &e, std::vector<std::string> &out) {
  if (e.kind() == Kind::Variable) {
    out.push_back(e.varName());
    return;
  }
  for (const Expr &op : e.operands()) collectVariables(op, out);
}

} // namespace

Expr substitute(const Expr &e, const std::map<std::string, Expr> &bindings) {
  Ctx ctx;
  return substituteIn(ctx, e, bindings);
}

std::vector<std::string> freeVariables(const Expr &e) {
  std::vector<std::string> names;
  collectVariables(e, names);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

} // namespace liftcc::arith
