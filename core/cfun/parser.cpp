#include "core/cfun/parser.h"

#include "core/cfun/lexer.h"
#include "core/cfun/limits.h"
#include "core/cfun/reserved.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace liftcc::cfun {
namespace {

using ast::BinaryOp;
using ast::Expr;
using ast::ExprKind;
using ast::Stmt;
using ast::StmtKind;
using ast::UnaryOp;

/// How a token reads in an error message: 'x', '+', 1.5, end of body.
std::string describe(const Token &tok) {
  switch (tok.kind) {
  case TokenKind::End: return "end of body";
  case TokenKind::Number: return "number '" + (tok.text.size() <= 40 ? tok.text : tok.text.substr(0, 37) + "...") + "'";
  case TokenKind::Identifier:
    return (tok.text.size() <= 40 ? "'" + tok.text + "'" : "'" + tok.text.substr(0, 37) + "...'");
  case TokenKind::Punct: return "'" + tok.text + "'";
  }
  return "?";
}

std::string at(SourcePos pos) { return "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column); }

/// Binary operators in C precedence order (higher binds tighter).
struct BinaryInfo {
  std::string_view text;
  BinaryOp op;
  int precedence;
};
constexpr BinaryInfo kBinary[] = {
    {"||", BinaryOp::Or, 1}, {"&&", BinaryOp::And, 2}, {"==", BinaryOp::Eq, 3}, {"!=", BinaryOp::Ne, 3},
    {"<", BinaryOp::Lt, 4},  {"<=", BinaryOp::Le, 4},  {">", BinaryOp::Gt, 4},  {">=", BinaryOp::Ge, 4},
    {"+", BinaryOp::Add, 5}, {"-", BinaryOp::Sub, 5},  {"*", BinaryOp::Mul, 6}, {"/", BinaryOp::Div, 6},
    {"%", BinaryOp::Rem, 6},
};

/// For a C operator the subset leaves out, why; used when such a token
/// follows a complete operand, where it would otherwise just read as an
/// unexpected token.
std::optional<std::string> unsupportedOperator(std::string_view p) {
  if (p == "&" || p == "|" || p == "^" || p == "<<" || p == ">>")
    return "bitwise operator '" + std::string(p) + "' is not supported";
  if (p == "=" || p == "+=" || p == "-=" || p == "*=" || p == "/=")
    return "assignment '" + std::string(p) + "' is only allowed as a statement of its own, not inside an expression";
  if (p == "%=" || p == "&=" || p == "|=" || p == "^=" || p == "<<=" || p == ">>=")
    return "compound assignment '" + std::string(p) + "' is not supported";
  if (p == "++" || p == "--") return "'" + std::string(p) + "' is not supported; write x += 1 or x -= 1 as a statement";
  if (p == "[" || p == "<:") return "arrays and subscripts are not supported";
  if (p == "." || p == "->" || p == ".*") return "member access is not supported";
  if (p == "(") return "only the math functions can be called";
  return std::nullopt;
}

bool isAssignOp(std::string_view p) { return p == "=" || p == "+=" || p == "-=" || p == "*=" || p == "/="; }

class Parser {
public:
  explicit Parser(std::vector<Token> tokens) : toks_(std::move(tokens)) {}

  std::unique_ptr<ast::Tree> run() {
    tree_ = std::make_unique<ast::Tree>();
    while (peek().kind != TokenKind::End) {
      if (isPunct(peek(), "}")) fail(peek().pos, "'}' without a matching '{'");
      tree_->body.push_back(parseStatement(/*inBlock=*/true));
    }
    tree_->end = peek().pos;
    return std::move(tree_);
  }

private:
  /// Counts recursion of the parser; everything that can nest goes through
  /// one of these so hostile input cannot exhaust the stack.
  class Nest {
  public:
    Nest(Parser &p, SourcePos pos) : p_(p) {
      if (++p_.nesting_ > kMaxNesting)
        p_.fail(pos, "nesting is deeper than " + std::to_string(kMaxNesting) +
                         " levels (parentheses, blocks, if/else, unary operators, calls)");
    }
    ~Nest() { --p_.nesting_; }
    Nest(const Nest &) = delete;
    Nest &operator=(const Nest &) = delete;

  private:
    Parser &p_;
  };

  [[noreturn]] void fail(SourcePos pos, const std::string &reason) const { throw CFunError(pos, reason); }

  const Token &peek(std::size_t ahead = 0) const {
    return toks_[std::min(k_ + ahead, toks_.size() - 1)]; // the last token is End
  }
  const Token &next() {
    const Token &t = toks_[k_];
    if (k_ + 1 < toks_.size()) ++k_;
    return t;
  }
  static bool isPunct(const Token &t, std::string_view p) { return t.kind == TokenKind::Punct && t.text == p; }
  static bool isWord(const Token &t, std::string_view w) { return t.kind == TokenKind::Identifier && t.text == w; }
  static std::optional<ScalarKind> typeWord(const Token &t) {
    if (t.kind != TokenKind::Identifier) return std::nullopt;
    return parseScalarKind(t.text);
  }

  /// Consumes punctuator `p` or reports "expected p <context>, found ...".
  const Token &expect(std::string_view p, const std::string &context) {
    const Token &t = peek();
    if (isPunct(t, p)) return next();
    if (t.kind == TokenKind::Punct)
      if (auto why = unsupportedOperator(t.text); why && t.text != "(") fail(t.pos, *why);
    fail(t.pos, "expected '" + std::string(p) + "' " + context + ", found " + describe(t));
  }

  Expr *newExpr(ExprKind kind, SourcePos pos) {
    Expr &e = tree_->exprs.emplace_back();
    e.kind = kind;
    e.pos = pos;
    return &e;
  }
  Stmt *newStmt(StmtKind kind, SourcePos pos) {
    Stmt &s = tree_->stmts.emplace_back();
    s.kind = kind;
    s.pos = pos;
    return &s;
  }
  /// Sets the height of `e` from its operands, enforcing kMaxTreeDepth.
  const Expr *sized(Expr *e) {
    int d = 0;
    for (const Expr *child : {e->a, e->b, e->c})
      if (child) d = std::max(d, child->depth);
    for (const Expr *arg : e->args) d = std::max(d, arg->depth);
    e->depth = d + 1;
    if (e->depth > kMaxTreeDepth)
      fail(e->pos, "expression is nested more than " + std::to_string(kMaxTreeDepth) +
                       " operators deep; split it using local variables");
    return e;
  }

  // ---- statements -------------------------------------------------------

  /// `inBlock` is false for the branches of if/else, where C does not allow
  /// a declaration.
  const Stmt *parseStatement(bool inBlock) {
    const Token &t = peek();
    Nest nest(*this, t.pos);
    if (isPunct(t, "{")) return parseBlock();
    if (isPunct(t, ";")) {
      next();
      return newStmt(StmtKind::Empty, t.pos);
    }
    if (isPunct(t, "++") || isPunct(t, "--")) fail(t.pos, "'" + t.text + "' is not supported; write x += 1 or x -= 1");
    if (t.kind != TokenKind::Identifier) fail(t.pos, "expected a statement, found " + describe(t));
    if (t.text == "if") return parseIf();
    if (t.text == "else") fail(t.pos, "'else' without a matching 'if'");
    if (t.text == "return") return parseReturn();
    if (t.text == "const" || typeWord(t)) {
      if (!inBlock) fail(t.pos, "a declaration cannot be the body of 'if' or 'else' in C; put it in braces { }");
      return parseDecl();
    }
    if (auto why = unsupportedKeyword(t.text)) fail(t.pos, *why);
    return parseAssign();
  }

  const Stmt *parseBlock() {
    const Token &open = next();
    Stmt *s = newStmt(StmtKind::Block, open.pos);
    while (!isPunct(peek(), "}")) {
      if (peek().kind == TokenKind::End)
        fail(peek().pos, "expected '}' to close the block opened at " + at(open.pos) + ", found end of body");
      s->body.push_back(parseStatement(/*inBlock=*/true));
    }
    next();
    return s;
  }

  const Stmt *parseIf() {
    const Token &kw = next();
    Stmt *s = newStmt(StmtKind::If, kw.pos);
    const Token &open = expect("(", "after 'if'");
    s->cond = parseExpr();
    expect(")", "to close the condition opened at " + at(open.pos));
    s->thenStmt = parseStatement(/*inBlock=*/false);
    if (isWord(peek(), "else")) {
      next();
      s->elseStmt = parseStatement(/*inBlock=*/false);
    }
    return s;
  }

  const Stmt *parseReturn() {
    const Token &kw = next();
    Stmt *s = newStmt(StmtKind::Return, kw.pos);
    if (isPunct(peek(), ";")) fail(peek().pos, "'return' needs a value: user functions always return one");
    s->value = parseExpr();
    expect(";", "after the return value");
    return s;
  }

  /// [const] T [const] name = value;
  const Stmt *parseDecl() {
    Stmt *s = newStmt(StmtKind::Decl, peek().pos);
    if (isWord(peek(), "const")) {
      next();
      s->isConst = true;
    }
    const Token &type = peek();
    auto kind = typeWord(type);
    if (!kind) {
      if (type.kind == TokenKind::Identifier)
        if (auto why = unsupportedKeyword(type.text)) fail(type.pos, *why);
      fail(type.pos, "expected a type (bool, int, float or double) after 'const', found " + describe(type));
    }
    next();
    s->declType = *kind;
    if (isWord(peek(), "const")) {
      if (s->isConst) fail(peek().pos, "duplicate 'const'");
      next();
      s->isConst = true;
    }
    const Token &name = peek();
    if (name.kind != TokenKind::Identifier) {
      if (isPunct(name, "*")) fail(name.pos, "pointers are not supported");
      fail(name.pos, "expected a variable name after '" + type.text + "', found " + describe(name));
    }
    if (typeWord(name) || name.text == "const")
      fail(name.pos, "expected a variable name after '" + type.text + "', found type word '" + name.text + "'");
    next();
    s->name = name.text;
    s->namePos = name.pos;
    const Token &eq = peek();
    if (isPunct(eq, ";") || isPunct(eq, ","))
      fail(eq.pos, "'" + name.text + "' must be initialized: write " + type.text + " " + name.text + " = ...;");
    if (isPunct(eq, "[")) fail(eq.pos, "arrays are not supported");
    if (isPunct(eq, "(")) fail(eq.pos, "functions cannot be declared inside a user function");
    expect("=", "after the variable name '" + name.text + "'");
    s->value = parseExpr();
    if (isPunct(peek(), ",")) fail(peek().pos, "declare one variable per statement (',' is not supported)");
    expect(";", "after the declaration of '" + name.text + "'");
    return s;
  }

  /// name op value;   with op one of = += -= *= /=
  const Stmt *parseAssign() {
    const Token &name = next();
    const Token &op = peek();
    if (op.kind != TokenKind::Punct || !isAssignOp(op.text)) {
      if (op.kind == TokenKind::Punct) {
        if (isPunct(op, "(")) fail(op.pos, "a call on its own has no effect; use its value in an expression");
        if (op.text != "=" && op.text != "[" && op.text != "." && op.text != "->")
          if (auto why = unsupportedOperator(op.text); why && op.text != "&" && op.text != "|") fail(op.pos, *why);
      }
      if (op.kind == TokenKind::Identifier)
        fail(name.pos, "unknown type or keyword '" + name.text +
                           "'; statements start with bool, int, float, double, const, if, return or a variable");
      fail(op.pos,
           "expected an assignment ('=', '+=', '-=', '*=' or '/=') after '" + name.text + "', found " + describe(op));
    }
    next();
    Stmt *s = newStmt(StmtKind::Assign, name.pos);
    s->name = name.text;
    s->namePos = name.pos;
    s->assignOp = op.text == "="    ? ast::AssignOp::Set
                  : op.text == "+=" ? ast::AssignOp::Add
                  : op.text == "-=" ? ast::AssignOp::Sub
                  : op.text == "*=" ? ast::AssignOp::Mul
                                    : ast::AssignOp::Div;
    s->value = parseExpr();
    expect(";", "after the assignment to '" + name.text + "'");
    return s;
  }

  // ---- expressions ------------------------------------------------------

  const Expr *parseExpr() { return parseConditional(); }

  /// logical-or [ '?' expr ':' conditional ]; right-associative.
  const Expr *parseConditional() {
    const Expr *cond = parseBinary(1);
    if (!isPunct(peek(), "?")) return cond;
    const Token &q = next();
    Nest nest(*this, q.pos);
    Expr *e = newExpr(ExprKind::Conditional, q.pos);
    e->a = cond;
    e->b = parseConditional();
    expect(":", "in the conditional expression started by '?' at " + at(q.pos));
    e->c = parseConditional();
    return sized(e);
  }

  static const BinaryInfo *binaryInfo(const Token &t) {
    if (t.kind != TokenKind::Punct) return nullptr;
    for (const BinaryInfo &b : kBinary)
      if (b.text == t.text) return &b;
    return nullptr;
  }

  /// Precedence climbing: left-associative chains of one level are built by
  /// the loop, so recursion depth depends only on the number of levels.
  const Expr *parseBinary(int minPrecedence) {
    const Expr *lhs = parseUnary();
    for (;;) {
      const Token &t = peek();
      const BinaryInfo *info = binaryInfo(t);
      if (!info) {
        if (t.kind == TokenKind::Punct && t.text != "(")
          if (auto why = unsupportedOperator(t.text)) fail(t.pos, *why);
        // Two operands in a row; a statement keyword instead (as in
        // `if (a > 0 return`) is left to the caller's "expected ')'".
        bool keyword = t.kind == TokenKind::Identifier &&
                       (t.text == "if" || t.text == "else" || t.text == "return" || t.text == "const" || typeWord(t));
        if (!keyword && (t.kind == TokenKind::Identifier || t.kind == TokenKind::Number || isPunct(t, "(")))
          fail(t.pos, "expected an operator between two operands, found " + describe(t));
        return lhs;
      }
      if (info->precedence < minPrecedence) return lhs;
      next();
      const Expr *rhs = parseBinary(info->precedence + 1);
      Expr *e = newExpr(ExprKind::Binary, t.pos);
      e->binaryOp = info->op;
      e->a = lhs;
      e->b = rhs;
      lhs = sized(e);
    }
  }

  /// unary-op cast-expression | '(' type ')' cast-expression | primary
  const Expr *parseUnary() {
    const Token &t = peek();
    if (t.kind == TokenKind::Punct) {
      std::optional<UnaryOp> op;
      if (t.text == "-")
        op = UnaryOp::Neg;
      else if (t.text == "+")
        op = UnaryOp::Plus;
      else if (t.text == "!")
        op = UnaryOp::Not;
      if (op) {
        Nest nest(*this, t.pos);
        next();
        Expr *e = newExpr(ExprKind::Unary, t.pos);
        e->unaryOp = *op;
        e->a = parseUnary();
        return sized(e);
      }
      if (t.text == "~") fail(t.pos, "bitwise operator '~' is not supported");
      if (t.text == "++" || t.text == "--")
        fail(t.pos, "'" + t.text + "' is not supported; write x += 1 or x -= 1 as a statement");
      if (t.text == "&" || t.text == "*" || t.text == "&&") fail(t.pos, "pointers are not supported");
      if (t.text == "(" && isCastAhead()) return parseCast();
    }
    return parsePrimary();
  }

  /// '(' followed by a type word starts a cast, as in C (no typedefs exist).
  bool isCastAhead() const {
    const Token &t = peek(1);
    if (t.kind != TokenKind::Identifier) return false;
    return typeWord(t) || t.text == "const" || unsupportedKeyword(t.text).has_value();
  }

  const Expr *parseCast() {
    const Token &open = next();
    Nest nest(*this, open.pos);
    const Token &type = peek();
    if (isWord(type, "const")) fail(type.pos, "'const' in a cast has no effect; remove it");
    auto kind = typeWord(type);
    if (!kind) {
      if (auto why = unsupportedKeyword(type.text)) fail(type.pos, *why);
      fail(type.pos, "expected a type in the cast, found " + describe(type));
    }
    next();
    if (isPunct(peek(), "*")) fail(peek().pos, "pointers are not supported");
    expect(")", "to close the cast to '" + type.text + "'");
    Expr *e = newExpr(ExprKind::Cast, open.pos);
    e->castTo = *kind;
    e->a = parseUnary();
    return sized(e);
  }

  const Expr *parsePrimary() {
    const Token &t = peek();
    switch (t.kind) {
    case TokenKind::Number: {
      next();
      Expr *e = newExpr(ExprKind::Literal, t.pos);
      e->literal = t.value;
      return e;
    }
    case TokenKind::Identifier: return parseNameOrCall();
    case TokenKind::Punct:
      if (t.text == "(") {
        next();
        Nest nest(*this, t.pos);
        const Expr *inner = parseExpr();
        expect(")", "to close '(' at " + at(t.pos));
        return inner;
      }
      break;
    case TokenKind::End: break;
    }
    fail(t.pos, "expected an expression, found " + describe(t));
  }

  const Expr *parseNameOrCall() {
    const Token &t = next();
    if (t.text == "true" || t.text == "false") {
      Expr *e = newExpr(ExprKind::Literal, t.pos);
      e->literal = Scalar::ofBool(t.text == "true");
      return e;
    }
    if (auto why = unsupportedKeyword(t.text)) fail(t.pos, *why);
    if (t.text == "if" || t.text == "else" || t.text == "return" || t.text == "const" || typeWord(t))
      fail(t.pos, "expected an expression, found keyword '" + t.text + "'");
    if (!isPunct(peek(), "(")) {
      Expr *e = newExpr(ExprKind::Name, t.pos);
      e->name = t.text;
      return e;
    }
    const Token &open = next();
    Nest nest(*this, open.pos);
    Expr *e = newExpr(ExprKind::Call, t.pos);
    e->name = t.text;
    if (!isPunct(peek(), ")")) {
      for (;;) {
        e->args.push_back(parseExpr());
        if (!isPunct(peek(), ",")) break;
        next();
      }
    }
    expect(")", "to close the argument list of '" + t.text + "' opened at " + at(open.pos));
    return sized(e);
  }

  std::vector<Token> toks_;
  std::size_t k_ = 0;
  int nesting_ = 0;
  std::unique_ptr<ast::Tree> tree_;
};

} // namespace

std::unique_ptr<ast::Tree> parseBody(std::string_view body) {
  if (body.size() > kMaxBodyBytes)
    throw CFunError(SourcePos{}, "body is " + std::to_string(body.size()) + " bytes long; the limit is " +
                                     std::to_string(kMaxBodyBytes));
  return Parser(tokenize(body)).run();
}

} // namespace liftcc::cfun
