#include "core/cfun/magnitude_twin.h"

#include "core/cfun/checker.h"
#include "core/cfun/parser.h"
#include "core/cfun/printer.h"

#include <cmath>

namespace liftcc::cfun {

namespace {

bool isConstant(const ir::Expr &e) {
  return e.kind == ir::ExprKind::Const || (e.kind == ir::ExprKind::Convert && isConstant(*e.a));
}

/// Rewrites `e` in place into its magnitude form; false when it has none.
bool twin(ir::Expr &e) {
  switch (e.kind) {
  case ir::ExprKind::Const: e.value = absoluteValue(e.value); return e.type != ScalarKind::Bool;
  case ir::ExprKind::Load: return e.type != ScalarKind::Bool;
  case ir::ExprKind::Neg:
    // |-a| = |a|: fabs of a non-negative value is that value.
    if (!isFloating(e.type)) return false;
    e.kind = ir::ExprKind::Call;
    e.builtin = Builtin::Fabs;
    e.operandType = e.type;
    e.args = {e.a};
    return true;
  case ir::ExprKind::Arith:
    if (!isFloating(e.type)) return false;
    if (e.arith == ir::ArithOp::Sub) e.arith = ir::ArithOp::Add;
    return e.arith == ir::ArithOp::Add || e.arith == ir::ArithOp::Mul ||
           (e.arith == ir::ArithOp::Div && isConstant(*e.b));
  case ir::ExprKind::Convert: return e.type != ScalarKind::Bool && (isFloating(e.type) || !isFloating(e.a->type));
  case ir::ExprKind::Call:
    if (e.builtin == Builtin::Fmin) e.builtin = Builtin::Fmax;
    return e.builtin == Builtin::Fabs || e.builtin == Builtin::Fmax;
  case ir::ExprKind::Not:
  case ir::ExprKind::Compare:
  case ir::ExprKind::And:
  case ir::ExprKind::Or:
  case ir::ExprKind::Conditional: return false;
  }
  return false;
}

bool straightLine(const ir::Stmt &s) {
  switch (s.kind) {
  case ir::StmtKind::Store:
  case ir::StmtKind::Return: return true;
  case ir::StmtKind::Block:
    for (const ir::Stmt *t : s.body)
      if (!straightLine(*t)) return false;
    return true;
  case ir::StmtKind::If: return false;
  }
  return false;
}

} // namespace

std::optional<Function> magnitudeTwin(const Function &function) {
  if (!isFloating(function.result())) return std::nullopt;
  std::unique_ptr<ir::Program> program =
      checkBody(*parseBody(function.body()), function.name(), function.params(), function.result());
  if (!straightLine(*program->body)) return std::nullopt;
  for (ir::Expr &e : program->exprs)
    if (!twin(e)) return std::nullopt;
  // No floating -> int conversion is left (twin refuses them).
  std::string body = printBody(*program, function.params(),
                               [](ScalarKind, const std::string &operand) { return "((int)" + operand + ")"; });
  return Function::compile(function.name(), function.params(), function.result(), body);
}

} // namespace liftcc::cfun
