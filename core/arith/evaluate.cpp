// Concrete evaluation with C semantics (wrapping instead of overflow UB).

#include "core/arith/internal.h"

#include <algorithm>

namespace liftcc::arith {

namespace {

bool compare(CmpOp op, int64_t a, int64_t b) {
  switch (op) {
  case CmpOp::Lt: return a < b;
  case CmpOp::Le: return a <= b;
  case CmpOp::Eq: return a == b;
  case CmpOp::Ne: return a != b;
  case CmpOp::Ge: return a >= b;
  case CmpOp::Gt: return a > b;
  }
  return false;
}

int64_t eval(const Expr &e, const std::map<std::string, int64_t> &values) {
  const std::vector<Expr> &ops = e.operands();
  switch (e.kind()) {
  case Kind::Constant: return e.constant();
  case Kind::Variable: {
    auto it = values.find(e.varName());
    if (it == values.end()) throw EvalError("unbound variable '" + e.varName() + "'");
    return it->second;
  }
  case Kind::Sum: {
    int64_t r = 0;
    for (const Expr &t : ops) r = wrapAdd(r, eval(t, values));
    return r;
  }
  case Kind::Product: {
    int64_t r = 1;
    for (const Expr &f : ops) r = wrapMul(r, eval(f, values));
    return r;
  }
  case Kind::Div:
  case Kind::Mod: {
    const int64_t a = eval(ops[0], values);
    const int64_t b = eval(ops[1], values);
    if (b == 0) throw EvalError("division by zero in '" + e.str() + "'");
    return e.kind() == Kind::Div ? cDiv(a, b) : cMod(a, b);
  }
  case Kind::Min: return std::min(eval(ops[0], values), eval(ops[1], values));
  case Kind::Max: return std::max(eval(ops[0], values), eval(ops[1], values));
  case Kind::Select:
    // Like C, only the chosen branch is evaluated.
    return compare(e.selectCmp(), eval(ops[0], values), eval(ops[1], values)) ? eval(ops[2], values)
                                                                              : eval(ops[3], values);
  }
  return 0;
}

} // namespace

int64_t evaluate(const Expr &e, const std::map<std::string, int64_t> &values) { return eval(e, values); }

} // namespace liftcc::arith
