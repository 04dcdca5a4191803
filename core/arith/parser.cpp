// Recursive-descent parser for the C-like syntax printed by Expr::str().
//
//   ternary        := additive [cmp additive '?' ternary ':' ternary]
//   additive       := multiplicative (('+' | '-') multiplicative)*
//   multiplicative := unary (('*' | '/' | '%') unary)*
//   unary          := '-' unary | '+' unary | primary
//   primary        := integer | identifier | ('min' | 'max') '(' ternary ',' ternary ')'
//                   | '(' ternary ')'

#include "core/arith/internal.h"

#include <cctype>
#include <string_view>

namespace liftcc::arith {

namespace {

class Parser {
public:
  Parser(const std::string &text, const std::map<std::string, Range> &ranges) : text_(text), ranges_(ranges) {}

  Expr parseAll() {
    Expr e = ternary();
    skipSpace();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    return e;
  }

private:
  [[noreturn]] void fail(const std::string &what) const {
    throw ParseError("arith parse error at " + std::to_string(pos_) + " in '" + text_ + "': " + what);
  }

  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool accept(std::string_view token) {
    skipSpace();
    if (text_.compare(pos_, token.size(), token) != 0) return false;
    pos_ += token.size();
    return true;
  }

  void expect(std::string_view token) {
    if (!accept(token)) fail("expected '" + std::string(token) + "'");
  }

  std::optional<CmpOp> acceptCmp() {
    // Two-character operators first so that "<=" is not read as "<".
    if (accept("<=")) return CmpOp::Le;
    if (accept(">=")) return CmpOp::Ge;
    if (accept("==")) return CmpOp::Eq;
    if (accept("!=")) return CmpOp::Ne;
    if (accept("<")) return CmpOp::Lt;
    if (accept(">")) return CmpOp::Gt;
    return std::nullopt;
  }

  Expr ternary() {
    Expr lhs = additive();
    std::optional<CmpOp> op = acceptCmp();
    if (!op) return lhs;
    Expr rhs = additive();
    expect("?");
    Expr then = ternary();
    expect(":");
    Expr otherwise = ternary();
    return mkSelect(ctx_, lhs, *op, rhs, then, otherwise);
  }

  Expr additive() {
    Expr e = multiplicative();
    for (;;) {
      if (accept("+"))
        e = mkAdd(ctx_, e, multiplicative());
      else if (accept("-"))
        e = mkSub(ctx_, e, multiplicative());
      else
        return e;
    }
  }

  Expr multiplicative() {
    Expr e = unary();
    for (;;) {
      if (accept("*"))
        e = mkMul(ctx_, e, unary());
      else if (accept("/"))
        e = mkDiv(ctx_, e, unary());
      else if (accept("%"))
        e = mkMod(ctx_, e, unary());
      else
        return e;
    }
  }

  Expr unary() {
    if (accept("-")) return mkNeg(ctx_, unary());
    if (accept("+")) return unary();
    return primary();
  }

  Expr primary() {
    skipSpace();
    if (pos_ >= text_.size()) fail("unexpected end of input");
    const char c = text_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c))) return integer();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const std::string name = identifier();
      if ((name == "min" || name == "max") && accept("(")) {
        Expr a = ternary();
        expect(",");
        Expr b = ternary();
        expect(")");
        return name == "min" ? mkMin(ctx_, a, b) : mkMax(ctx_, a, b);
      }
      auto it = ranges_.find(name);
      return Expr::var(name, it == ranges_.end() ? Range::unbounded() : it->second);
    }
    if (accept("(")) {
      Expr e = ternary();
      expect(")");
      return e;
    }
    fail("unexpected '" + std::string(1, c) + "'");
  }

  Expr integer() {
    // Up to 2^63 so that -9223372036854775808 (INT64_MIN) round-trips.
    constexpr uint64_t kLimit = uint64_t(1) << 63;
    uint64_t v = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      const uint64_t digit = static_cast<uint64_t>(text_[pos_] - '0');
      if (v > (kLimit - digit) / 10) fail("integer literal out of range");
      v = v * 10 + digit;
      ++pos_;
    }
    return Expr(static_cast<int64_t>(v));
  }

  std::string identifier() {
    const size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  const std::string &text_;
  const std::map<std::string, Range> &ranges_;
  size_t pos_ = 0;
  Ctx ctx_;
};

} // namespace

Expr parse(const std::string &text, const std::map<std::string, Range> &ranges) {
  return Parser(text, ranges).parseAll();
}

} // namespace liftcc::arith
