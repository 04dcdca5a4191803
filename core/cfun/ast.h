#pragma once
// Untyped syntax tree produced by the parser.
//
// Nodes are owned by the Tree in deques (stable addresses) and refer to each
// other by plain pointers, so destroying a deep tree is not recursive and
// cannot overflow the stack.

#include "core/cfun/errors.h"
#include "core/scalar.h"

#include <deque>
#include <string>
#include <vector>

namespace liftcc::cfun::ast {

enum class ExprKind { Literal, Name, Unary, Binary, Conditional, Cast, Call };
enum class UnaryOp { Neg, Plus, Not };
enum class BinaryOp { Mul, Div, Rem, Add, Sub, Lt, Le, Gt, Ge, Eq, Ne, And, Or };

struct Expr {
  ExprKind kind;
  SourcePos pos;    ///< the operator, or the first token of a leaf/call/cast
  int depth = 1;    ///< height of this subtree, bounded by kMaxTreeDepth
  Scalar literal;   ///< Literal
  std::string name; ///< Name, Call
  UnaryOp unaryOp = UnaryOp::Neg;
  BinaryOp binaryOp = BinaryOp::Add;
  ScalarKind castTo = ScalarKind::Int;
  const Expr *a = nullptr, *b = nullptr, *c = nullptr; ///< operands in source order
  std::vector<const Expr *> args;                      ///< Call
};

enum class StmtKind { Decl, Assign, If, Block, Return, Empty };
enum class AssignOp { Set, Add, Sub, Mul, Div };

struct Stmt {
  StmtKind kind;
  SourcePos pos; ///< first token of the statement
  // Decl: [const] declType name = value;   Assign: name assignOp value;
  bool isConst = false;
  ScalarKind declType = ScalarKind::Int;
  std::string name;
  SourcePos namePos;
  AssignOp assignOp = AssignOp::Set;
  const Expr *value = nullptr; ///< Decl, Assign, Return
  // If
  const Expr *cond = nullptr;
  const Stmt *thenStmt = nullptr, *elseStmt = nullptr;
  // Block
  std::vector<const Stmt *> body;
};

struct Tree {
  std::deque<Expr> exprs;
  std::deque<Stmt> stmts;
  std::vector<const Stmt *> body; ///< top-level statements
  SourcePos end;                  ///< just past the last character
};

} // namespace liftcc::cfun::ast
