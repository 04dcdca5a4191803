#include "core/cfun/checker.h"

#include "core/cfun/builtins.h"
#include "core/cfun/convert.h"
#include "core/cfun/reserved.h"

#include <algorithm>
#include <optional>
#include <string>

namespace liftcc::cfun {
namespace {

std::string kindName(ScalarKind k) { return std::string(scalarKindName(k)); }

std::string at(SourcePos pos) { return "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column); }

int rank(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool: return 0;
  case ScalarKind::Int: return 1;
  case ScalarKind::Float: return 2;
  case ScalarKind::Double: return 3;
  }
  return 0;
}

/// Integer promotion: bool computes as int in every arithmetic context.
ScalarKind promote(ScalarKind k) { return k == ScalarKind::Bool ? ScalarKind::Int : k; }

/// C's usual arithmetic conversions for a binary operator.
ScalarKind arithmeticType(ScalarKind a, ScalarKind b) { return promote(rank(a) >= rank(b) ? a : b); }

const char *binaryText(ast::BinaryOp op) {
  switch (op) {
  case ast::BinaryOp::Mul: return "*";
  case ast::BinaryOp::Div: return "/";
  case ast::BinaryOp::Rem: return "%";
  case ast::BinaryOp::Add: return "+";
  case ast::BinaryOp::Sub: return "-";
  case ast::BinaryOp::Lt: return "<";
  case ast::BinaryOp::Le: return "<=";
  case ast::BinaryOp::Gt: return ">";
  case ast::BinaryOp::Ge: return ">=";
  case ast::BinaryOp::Eq: return "==";
  case ast::BinaryOp::Ne: return "!=";
  case ast::BinaryOp::And: return "&&";
  case ast::BinaryOp::Or: return "||";
  }
  return "?";
}

struct Variable {
  std::string name;
  int slot;
  ScalarKind type;
  bool isConst;
  bool isParam;
  SourcePos declared;
};

class Checker {
public:
  Checker(std::string_view functionName, const std::vector<Param> &params, ScalarKind result)
      : functionName_(functionName), prog_(std::make_unique<ir::Program>()) {
    prog_->result = result;
    if (result == ScalarKind::Double) prog_->usesDouble = true;
    for (const Param &p : params) {
      vars_.push_back(Variable{p.name, newSlot(p.kind), p.kind, false, true, SourcePos{}});
    }
  }

  std::unique_ptr<ir::Program> run(const ast::Tree &tree) {
    if (tree.body.empty()) fail(tree.end, "the body is empty; a user function needs at least a return statement");
    ir::Stmt *block = newStmt(ir::StmtKind::Block);
    bool completes = lowerList(tree.body, block->body);
    if (completes)
      fail(tree.end, "control can reach the end of the body without a return; every path must end in 'return'");
    prog_->body = block;
    return std::move(prog_);
  }

private:
  [[noreturn]] void fail(SourcePos pos, const std::string &reason) const { throw CFunError(pos, reason); }

  int newSlot(ScalarKind type) {
    if (type == ScalarKind::Double) prog_->usesDouble = true;
    prog_->slotTypes.push_back(type);
    return static_cast<int>(prog_->slotTypes.size()) - 1;
  }

  const Variable *lookup(std::string_view name) const {
    for (auto it = vars_.rbegin(); it != vars_.rend(); ++it)
      if (it->name == name) return &*it;
    return nullptr;
  }

  ir::Expr *newExpr(ir::ExprKind kind, ScalarKind type, SourcePos pos) {
    ir::Expr &e = prog_->exprs.emplace_back();
    e.kind = kind;
    e.type = type;
    e.pos = pos;
    if (type == ScalarKind::Double) prog_->usesDouble = true;
    return &e;
  }
  ir::Stmt *newStmt(ir::StmtKind kind) {
    ir::Stmt &s = prog_->stmts.emplace_back();
    s.kind = kind;
    return &s;
  }

  /// C's implicit (or explicit) conversion of `e` to `to`. Constants are
  /// folded; the Double flag was already raised when the constant was made.
  const ir::Expr *convert(const ir::Expr *e, ScalarKind to) {
    if (e->type == to) return e;
    if (to == ScalarKind::Int && isFloating(e->type)) prog_->convertsFloatingToInt = true;
    if (e->kind == ir::ExprKind::Const) {
      ir::Expr *c = newExpr(ir::ExprKind::Const, to, e->pos);
      c->value = convertScalar(e->value, to);
      return c;
    }
    ir::Expr *c = newExpr(ir::ExprKind::Convert, to, e->pos);
    c->a = e;
    return c;
  }

  // ---- expressions ------------------------------------------------------

  const ir::Expr *lower(const ast::Expr &e) {
    switch (e.kind) {
    case ast::ExprKind::Literal: {
      ir::Expr *c = newExpr(ir::ExprKind::Const, e.literal.kind(), e.pos);
      c->value = e.literal;
      return c;
    }
    case ast::ExprKind::Name: return lowerName(e);
    case ast::ExprKind::Unary: return lowerUnary(e);
    case ast::ExprKind::Binary: return lowerBinary(e);
    case ast::ExprKind::Conditional: {
      const ir::Expr *cond = convert(lower(*e.a), ScalarKind::Bool);
      const ir::Expr *x = lower(*e.b);
      const ir::Expr *y = lower(*e.c);
      // Two bool arms stay bool (C would say int, C++ bool: same values).
      ScalarKind type = x->type == y->type ? x->type : arithmeticType(x->type, y->type);
      ir::Expr *r = newExpr(ir::ExprKind::Conditional, type, e.pos);
      r->a = cond;
      r->b = convert(x, type);
      r->c = convert(y, type);
      return r;
    }
    case ast::ExprKind::Cast: return convert(lower(*e.a), e.castTo);
    case ast::ExprKind::Call: return lowerCall(e);
    }
    throw InternalError("user function checker: unknown expression kind");
  }

  const ir::Expr *lowerName(const ast::Expr &e) {
    const Variable *v = lookup(e.name);
    if (!v) {
      if (findBuiltin(e.name) || unsupportedFunctionReason(e.name))
        fail(e.pos, "'" + e.name + "' is a function; call it with arguments, e.g. " + e.name + "(x)");
      if (e.name == functionName_) fail(e.pos, "'" + e.name + "' is the user function itself, not a variable");
      if (auto why = reservedVariableName(e.name)) fail(e.pos, "unknown name: " + *why);
      fail(e.pos, "unknown name '" + e.name + "'");
    }
    ir::Expr *r = newExpr(ir::ExprKind::Load, v->type, e.pos);
    r->slot = v->slot;
    return r;
  }

  const ir::Expr *lowerUnary(const ast::Expr &e) {
    const ir::Expr *x = lower(*e.a);
    switch (e.unaryOp) {
    case ast::UnaryOp::Plus: return convert(x, promote(x->type));
    case ast::UnaryOp::Neg: {
      ScalarKind type = promote(x->type);
      ir::Expr *r = newExpr(ir::ExprKind::Neg, type, e.pos);
      r->a = convert(x, type);
      return r;
    }
    case ast::UnaryOp::Not: {
      ir::Expr *r = newExpr(ir::ExprKind::Not, ScalarKind::Bool, e.pos);
      r->a = convert(x, ScalarKind::Bool);
      return r;
    }
    }
    throw InternalError("user function checker: unknown unary operator");
  }

  const ir::Expr *lowerBinary(const ast::Expr &e) {
    const ir::Expr *x = lower(*e.a);
    const ir::Expr *y = lower(*e.b);
    switch (e.binaryOp) {
    case ast::BinaryOp::And:
    case ast::BinaryOp::Or: {
      ir::Expr *r =
          newExpr(e.binaryOp == ast::BinaryOp::And ? ir::ExprKind::And : ir::ExprKind::Or, ScalarKind::Bool, e.pos);
      r->a = convert(x, ScalarKind::Bool);
      r->b = convert(y, ScalarKind::Bool);
      return r;
    }
    case ast::BinaryOp::Lt:
    case ast::BinaryOp::Le:
    case ast::BinaryOp::Gt:
    case ast::BinaryOp::Ge:
    case ast::BinaryOp::Eq:
    case ast::BinaryOp::Ne: {
      ScalarKind type = arithmeticType(x->type, y->type);
      ir::Expr *r = newExpr(ir::ExprKind::Compare, ScalarKind::Bool, e.pos);
      r->compare = compareOp(e.binaryOp);
      r->operandType = type;
      r->a = convert(x, type);
      r->b = convert(y, type);
      return r;
    }
    case ast::BinaryOp::Rem:
      if (promote(x->type) != ScalarKind::Int || promote(y->type) != ScalarKind::Int)
        fail(e.pos, "'%' needs int operands, found " + kindName(x->type) + " % " + kindName(y->type) +
                        " (there is no floating remainder in the subset)");
      return arith(ir::ArithOp::Rem, x, y, e.pos);
    case ast::BinaryOp::Mul: return arith(ir::ArithOp::Mul, x, y, e.pos);
    case ast::BinaryOp::Div: return arith(ir::ArithOp::Div, x, y, e.pos);
    case ast::BinaryOp::Add: return arith(ir::ArithOp::Add, x, y, e.pos);
    case ast::BinaryOp::Sub: return arith(ir::ArithOp::Sub, x, y, e.pos);
    }
    throw InternalError(std::string("user function checker: unknown binary operator ") + binaryText(e.binaryOp));
  }

  static ir::CompareOp compareOp(ast::BinaryOp op) {
    switch (op) {
    case ast::BinaryOp::Lt: return ir::CompareOp::Lt;
    case ast::BinaryOp::Le: return ir::CompareOp::Le;
    case ast::BinaryOp::Gt: return ir::CompareOp::Gt;
    case ast::BinaryOp::Ge: return ir::CompareOp::Ge;
    case ast::BinaryOp::Eq: return ir::CompareOp::Eq;
    case ast::BinaryOp::Ne: return ir::CompareOp::Ne;
    case ast::BinaryOp::Mul:
    case ast::BinaryOp::Div:
    case ast::BinaryOp::Rem:
    case ast::BinaryOp::Add:
    case ast::BinaryOp::Sub:
    case ast::BinaryOp::And:
    case ast::BinaryOp::Or: break;
    }
    return ir::CompareOp::Eq; // not reached: callers pass comparisons only
  }

  const ir::Expr *arith(ir::ArithOp op, const ir::Expr *x, const ir::Expr *y, SourcePos pos) {
    ScalarKind type = arithmeticType(x->type, y->type);
    ir::Expr *r = newExpr(ir::ExprKind::Arith, type, pos);
    r->arith = op;
    r->a = convert(x, type);
    r->b = convert(y, type);
    return r;
  }

  const ir::Expr *lowerCall(const ast::Expr &e) {
    const BuiltinInfo *b = findBuiltin(e.name);
    if (!b) {
      if (auto why = unsupportedFunctionReason(e.name)) fail(e.pos, *why);
      if (e.name == functionName_) fail(e.pos, "'" + e.name + "' calls itself; recursion is not supported");
      if (lookup(e.name)) fail(e.pos, "'" + e.name + "' is a variable, not a function");
      fail(e.pos, "unknown function '" + e.name + "'; supported: " + supportedFunctionList());
    }
    int n = static_cast<int>(e.args.size());
    if (n != b->arity)
      fail(e.pos, "'" + e.name + "' takes " + std::to_string(b->arity) + " argument" + (b->arity == 1 ? "" : "s") +
                      ", found " + std::to_string(n));
    std::vector<const ir::Expr *> args;
    for (const ast::Expr *a : e.args) args.push_back(lower(*a));
    ScalarKind type = args[0]->type;
    for (int i = 0; i < n; ++i) {
      ScalarKind k = args[i]->type;
      SourcePos pos = e.args[i]->pos;
      std::string which = n == 1 ? "" : " for argument " + std::to_string(i + 1);
      if (b->integer) {
        if (k != ScalarKind::Int)
          fail(pos, "'" + e.name + "' takes int arguments, found " + kindName(k) + which +
                        (k == ScalarKind::Bool ? "; add an (int) cast" : "; use f" + e.name + " for float or double"));
      } else {
        if (k != ScalarKind::Float && k != ScalarKind::Double)
          fail(pos, "'" + e.name + "' takes float or double arguments, found " + kindName(k) + which +
                        " (OpenCL C has no " + kindName(k) + " overload); cast it, e.g. " + e.name + "((float)x)");
        if (k != type)
          fail(pos, "arguments of '" + e.name + "' must be all float or all double, found " + kindName(type) + " and " +
                        kindName(k) + " (OpenCL C and C++ resolve the mix differently); add a cast");
      }
    }
    ir::Expr *r = newExpr(ir::ExprKind::Call, type, e.pos);
    r->builtin = b->id;
    r->operandType = type;
    r->args = std::move(args);
    return r;
  }

  // ---- statements -------------------------------------------------------

  /// Lowers a statement list into `out`; returns whether control can reach
  /// its end. A statement after one that always returns is rejected (C
  /// would accept it, but it is certainly a mistake in a user function);
  /// stray empty statements such as the second ';' in `return x;;` are not.
  bool lowerList(const std::vector<const ast::Stmt *> &stmts, std::vector<const ir::Stmt *> &out) {
    bool completes = true;
    for (const ast::Stmt *s : stmts) {
      if (s->kind == ast::StmtKind::Empty) continue;
      if (!completes) fail(s->pos, "unreachable statement: every path before it has already returned");
      const ir::Stmt *lowered = nullptr;
      completes = lowerStmt(*s, lowered);
      if (lowered) out.push_back(lowered);
    }
    return completes;
  }

  /// Lowers one statement (a branch of if/else or a list item); `out` stays
  /// null for an empty statement. Returns whether control can reach its end.
  bool lowerStmt(const ast::Stmt &s, const ir::Stmt *&out) {
    switch (s.kind) {
    case ast::StmtKind::Empty: return true;
    case ast::StmtKind::Decl: out = lowerDecl(s); return true;
    case ast::StmtKind::Assign: out = lowerAssign(s); return true;
    case ast::StmtKind::Return: {
      ir::Stmt *r = newStmt(ir::StmtKind::Return);
      const ir::Expr *value = lower(*s.value);
      if (isFloating(value->type) && prog_->widestFloatingReturn != ScalarKind::Double)
        prog_->widestFloatingReturn = value->type;
      r->value = convert(value, prog_->result);
      out = r;
      return false;
    }
    case ast::StmtKind::Block: {
      std::size_t mark = vars_.size();
      ir::Stmt *r = newStmt(ir::StmtKind::Block);
      bool completes = lowerList(s.body, r->body);
      vars_.resize(mark);
      out = r;
      return completes;
    }
    case ast::StmtKind::If: {
      ir::Stmt *r = newStmt(ir::StmtKind::If);
      r->cond = convert(lower(*s.cond), ScalarKind::Bool);
      bool thenCompletes = lowerBranch(*s.thenStmt, r->thenStmt);
      bool elseCompletes = true;
      if (s.elseStmt) elseCompletes = lowerBranch(*s.elseStmt, r->elseStmt);
      out = r;
      return thenCompletes || elseCompletes;
    }
    }
    throw InternalError("user function checker: unknown statement kind");
  }

  /// A branch gets its own scope, as in C99 (the parser already rejects a
  /// bare declaration there, so this only matters for nested blocks).
  bool lowerBranch(const ast::Stmt &s, const ir::Stmt *&out) {
    std::size_t mark = vars_.size();
    bool completes = lowerStmt(s, out);
    vars_.resize(mark);
    if (!out) out = newStmt(ir::StmtKind::Block); // `if (c) ;`
    return completes;
  }

  const ir::Stmt *lowerDecl(const ast::Stmt &s) {
    if (auto why = reservedVariableName(s.name)) fail(s.namePos, "invalid variable name: " + *why);
    if (const Variable *v = lookup(s.name)) {
      if (v->isParam) fail(s.namePos, "'" + s.name + "' is already a parameter; choose another name");
      fail(s.namePos, "'" + s.name + "' is already declared at " + at(v->declared) +
                          " (shadowing is not supported); choose another name");
    }
    // The initializer is checked before the name exists, so `int x = x;`
    // reports an unknown name instead of reading an uninitialized variable.
    const ir::Expr *value = convert(lower(*s.value), s.declType);
    int slot = newSlot(s.declType);
    vars_.push_back(Variable{s.name, slot, s.declType, s.isConst, false, s.namePos});
    ir::Stmt *r = newStmt(ir::StmtKind::Store);
    r->slot = slot;
    r->value = value;
    return r;
  }

  const ir::Stmt *lowerAssign(const ast::Stmt &s) {
    const Variable *v = lookup(s.name);
    if (!v) {
      if (auto why = reservedVariableName(s.name)) fail(s.namePos, "invalid variable name: " + *why);
      fail(s.namePos, "unknown name '" + s.name + "' (declare it first, e.g. float " + s.name + " = ...;)");
    }
    if (v->isConst)
      fail(s.namePos, "'" + s.name + "' is const (declared at " + at(v->declared) + ") and cannot be assigned");
    const ir::Expr *value = lower(*s.value);
    std::optional<ir::ArithOp> op;
    switch (s.assignOp) {
    case ast::AssignOp::Set: break;
    case ast::AssignOp::Add: op = ir::ArithOp::Add; break;
    case ast::AssignOp::Sub: op = ir::ArithOp::Sub; break;
    case ast::AssignOp::Mul: op = ir::ArithOp::Mul; break;
    case ast::AssignOp::Div: op = ir::ArithOp::Div; break;
    }
    if (op) {
      // x op= e  is  x = (T)(x op e)  with x evaluated once, as in C.
      ir::Expr *load = newExpr(ir::ExprKind::Load, v->type, s.namePos);
      load->slot = v->slot;
      value = arith(*op, load, value, s.namePos);
    }
    ir::Stmt *r = newStmt(ir::StmtKind::Store);
    r->slot = v->slot;
    r->value = convert(value, v->type);
    return r;
  }

  std::string functionName_;
  std::unique_ptr<ir::Program> prog_;
  std::vector<Variable> vars_; ///< visible variables, innermost last
};

} // namespace

std::unique_ptr<ir::Program> checkBody(const ast::Tree &tree, std::string_view functionName,
                                       const std::vector<Param> &params, ScalarKind result) {
  return Checker(functionName, params, result).run(tree);
}

} // namespace liftcc::cfun
