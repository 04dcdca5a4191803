#pragma once
// Typed, resolved form of a user function, produced by the checker and run
// by the evaluator.
//
// All of C's implicit conversions are explicit Convert nodes here, so every
// operator sees operands of exactly its operation type and the evaluator
// never has to reason about promotions. Variables are numbered slots.

#include "core/cfun/builtins.h"
#include "core/cfun/errors.h"
#include "core/scalar.h"

#include <deque>
#include <optional>
#include <vector>

namespace liftcc::cfun::ir {

enum class ExprKind {
  Const,       ///< `value`
  Load,        ///< slot `slot`
  Neg,         ///< -a, in `type` (Int, Float or Double)
  Not,         ///< !a, a is Bool, result Bool
  Arith,       ///< a op b, both and the result of `type`
  Compare,     ///< a op b, both of `operandType`, result Bool
  And,         ///< a && b, short-circuit, Bool operands
  Or,          ///< a || b, short-circuit, Bool operands
  Conditional, ///< a ? b : c, a Bool, b and c of `type`
  Convert,     ///< (type)a, from a->type, which differs from `type`
  Call,        ///< builtin(args), args of `operandType`
};

enum class ArithOp { Add, Sub, Mul, Div, Rem };
enum class CompareOp { Lt, Le, Gt, Ge, Eq, Ne };

struct Expr {
  ExprKind kind;
  ScalarKind type;                          ///< result type
  SourcePos pos;                            ///< for evaluation errors
  Scalar value;                             ///< Const
  int slot = -1;                            ///< Load
  ArithOp arith = ArithOp::Add;             ///< Arith
  CompareOp compare = CompareOp::Eq;        ///< Compare
  ScalarKind operandType = ScalarKind::Int; ///< Compare, Call
  Builtin builtin = Builtin::Sqrt;          ///< Call
  const Expr *a = nullptr, *b = nullptr, *c = nullptr;
  std::vector<const Expr *> args; ///< Call
};

enum class StmtKind { Store, If, Block, Return };

struct Stmt {
  StmtKind kind;
  int slot = -1;                  ///< Store: destination
  const Expr *value = nullptr;    ///< Store, Return: already of the slot's / result type
  const Expr *cond = nullptr;     ///< If: Bool
  const Stmt *thenStmt = nullptr; ///< If
  const Stmt *elseStmt = nullptr; ///< If, may be null
  std::vector<const Stmt *> body; ///< Block
};

struct Program {
  std::deque<Expr> exprs;
  std::deque<Stmt> stmts;
  const Stmt *body = nullptr;        ///< a Block; every path through it returns
  std::vector<ScalarKind> slotTypes; ///< parameters first, then locals
  ScalarKind result = ScalarKind::Int;
  bool usesDouble = false;
  /// Some floating value is converted to int (explicitly or implicitly,
  /// folded or not): C leaves NaN and out-of-range values undefined there, so
  /// emitters must print the body from this IR with saturating conversions.
  bool convertsFloatingToInt = false;
  /// The widest floating kind (double over float) of the values the return
  /// statements give before their conversion to the result type; none when
  /// no return gives a floating value (a stencil form whose first grid is an
  /// int or bool mask returns this kind instead: stencil_form.cpp).
  std::optional<ScalarKind> widestFloatingReturn;
};

} // namespace liftcc::cfun::ir
