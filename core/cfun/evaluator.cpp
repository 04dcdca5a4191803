#include "core/cfun/evaluator.h"

#include "core/cfun/convert.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace liftcc::cfun {
namespace {

/// Wrapping int arithmetic. C leaves signed overflow undefined; GPUs wrap,
/// and computing in uint32_t lets us do the same without UB of our own.
int32_t wrap(uint32_t v) {
  // Two's-complement reinterpretation, well-defined since C++20.
  return static_cast<int32_t>(v);
}

template <typename T> T arith(ir::ArithOp op, T x, T y) {
  switch (op) {
  case ir::ArithOp::Add: return x + y;
  case ir::ArithOp::Sub: return x - y;
  case ir::ArithOp::Mul: return x * y;
  case ir::ArithOp::Div: return x / y; // IEEE: x/0 is +-inf or NaN
  case ir::ArithOp::Rem: break;        // int only (checked)
  }
  return T(0);
}

template <typename T> bool compare(ir::CompareOp op, T x, T y) {
  switch (op) {
  case ir::CompareOp::Lt: return x < y;
  case ir::CompareOp::Le: return x <= y;
  case ir::CompareOp::Gt: return x > y;
  case ir::CompareOp::Ge: return x >= y;
  case ir::CompareOp::Eq: return x == y;
  case ir::CompareOp::Ne: return x != y;
  }
  return false;
}

class Evaluator {
public:
  Evaluator(const ir::Program &program, std::string_view function, std::span<const Scalar> args)
      : function_(function), slots_(program.slotTypes.size()) {
    for (std::size_t i = 0; i < args.size() && i < slots_.size(); ++i) slots_[i] = args[i];
  }

  /// Returns true when `s` executed a return (the value is in result_).
  bool exec(const ir::Stmt &s) {
    switch (s.kind) {
    case ir::StmtKind::Store: slots_[s.slot] = eval(*s.value); return false;
    case ir::StmtKind::Return: result_ = eval(*s.value); return true;
    case ir::StmtKind::Block:
      for (const ir::Stmt *t : s.body)
        if (exec(*t)) return true;
      return false;
    case ir::StmtKind::If:
      if (eval(*s.cond).asBool()) return exec(*s.thenStmt);
      return s.elseStmt ? exec(*s.elseStmt) : false;
    }
    return false;
  }

  const Scalar &result() const { return result_; }

private:
  [[noreturn]] void fail(const ir::Expr &e, const std::string &reason) const {
    throw CFunEvalError(std::string(function_), e.pos, reason);
  }

  Scalar eval(const ir::Expr &e) {
    switch (e.kind) {
    case ir::ExprKind::Const: return e.value;
    case ir::ExprKind::Load: return slots_[e.slot];
    case ir::ExprKind::Neg: {
      Scalar x = eval(*e.a);
      switch (e.type) {
      case ScalarKind::Int: return Scalar::ofInt(wrap(0u - static_cast<uint32_t>(x.asInt())));
      case ScalarKind::Float: return Scalar::ofFloat(-x.asFloat());
      case ScalarKind::Double: return Scalar::ofDouble(-x.asDouble());
      case ScalarKind::Bool: break;
      }
      break;
    }
    case ir::ExprKind::Not: return Scalar::ofBool(!eval(*e.a).asBool());
    case ir::ExprKind::Arith: return evalArith(e);
    case ir::ExprKind::Compare: {
      Scalar x = eval(*e.a), y = eval(*e.b);
      switch (e.operandType) {
      case ScalarKind::Int: return Scalar::ofBool(compare(e.compare, x.asInt(), y.asInt()));
      case ScalarKind::Float: return Scalar::ofBool(compare(e.compare, x.asFloat(), y.asFloat()));
      case ScalarKind::Double: return Scalar::ofBool(compare(e.compare, x.asDouble(), y.asDouble()));
      case ScalarKind::Bool: break;
      }
      break;
    }
    case ir::ExprKind::And: return Scalar::ofBool(eval(*e.a).asBool() && eval(*e.b).asBool());
    case ir::ExprKind::Or: return Scalar::ofBool(eval(*e.a).asBool() || eval(*e.b).asBool());
    case ir::ExprKind::Conditional: return eval(*e.a).asBool() ? eval(*e.b) : eval(*e.c);
    case ir::ExprKind::Convert: return convertScalar(eval(*e.a), e.type);
    case ir::ExprKind::Call: {
      Scalar args[2];
      std::size_t n = e.args.size() < 2 ? e.args.size() : 2;
      for (std::size_t i = 0; i < n; ++i) args[i] = eval(*e.args[i]);
      return evalBuiltin(e.builtin, e.operandType, args);
    }
    }
    throw InternalError("user function evaluator: ill-typed expression");
  }

  Scalar evalArith(const ir::Expr &e) {
    Scalar x = eval(*e.a), y = eval(*e.b);
    switch (e.type) {
    case ScalarKind::Int: return Scalar::ofInt(intArith(e, x.asInt(), y.asInt()));
    // Float operands stay float: x86-64 and GPUs round each float
    // operation to float, and so must we (no double intermediate).
    case ScalarKind::Float: return Scalar::ofFloat(arith(e.arith, x.asFloat(), y.asFloat()));
    case ScalarKind::Double: return Scalar::ofDouble(arith(e.arith, x.asDouble(), y.asDouble()));
    case ScalarKind::Bool: break;
    }
    throw InternalError("user function evaluator: ill-typed arithmetic");
  }

  int32_t intArith(const ir::Expr &e, int32_t x, int32_t y) const {
    uint32_t ux = static_cast<uint32_t>(x), uy = static_cast<uint32_t>(y);
    switch (e.arith) {
    case ir::ArithOp::Add: return wrap(ux + uy);
    case ir::ArithOp::Sub: return wrap(ux - uy);
    case ir::ArithOp::Mul: return wrap(ux * uy);
    case ir::ArithOp::Div:
    case ir::ArithOp::Rem: {
      const char *what = e.arith == ir::ArithOp::Div ? "integer division" : "integer remainder";
      if (y == 0) fail(e, std::string(what) + " by zero (undefined in C)");
      if (x == std::numeric_limits<int32_t>::min() && y == -1)
        fail(e, std::string(what) + " INT_MIN by -1 overflows (undefined in C)");
      // C99 and C++11: quotient truncates toward zero, remainder has the
      // sign of the dividend; C++ guarantees the same for int32_t.
      return e.arith == ir::ArithOp::Div ? x / y : x % y;
    }
    }
    return 0;
  }

  std::string_view function_;
  std::vector<Scalar> slots_;
  Scalar result_;
};

} // namespace

Scalar evaluate(const ir::Program &program, std::string_view function, std::span<const Scalar> args) {
  Evaluator ev(program, function, args);
  ev.exec(*program.body);
  return ev.result();
}

} // namespace liftcc::cfun
