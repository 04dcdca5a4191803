// Recursive-descent parser for the C-like syntax printed by Expr::str().
//
//   ternary        := additive [cmp additive '?' ternary ':' ternary]
//   additive       := multiplicative (('+' | '-') multiplicative)*
//   multiplicative := unary (('*' | '/' | '%') unary)*
//   unary          := '-' unary | '+' unary | primary
//   primary        := integer | identifier | ('min' | 'max') '(' ternary ',' ternary ')'
//                   | '(' ternary ')'
//
// The text's length and its nesting are capped (core/input_limits.h) before
// anything recurses, so hostile input ends in a ParseError, never in a stack
// overflow here or in the passes that recurse over the result.

#include "core/arith/internal.h"
#include "core/input_limits.h"

#include <cctype>
#include <string_view>

namespace liftcc::arith {

namespace {

class Parser {
public:
  Parser(const std::string &text, const std::map<std::string, Range> &ranges) : text_(text), ranges_(ranges) {}

  Expr parseAll() {
    if (text_.size() > limits::kMaxSizeExpressionChars)
      throw ParseError(limits::longerThan(limits::kMaxSizeExpressionChars, text_.size()));
    Expr e = ternary();
    skipSpace();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    return e;
  }

private:
  [[noreturn]] void fail(const std::string &what) const {
    // The text is echoed only in part: the message must stay one short line.
    constexpr size_t kShown = 60;
    std::string shown = text_.size() <= kShown ? text_ : text_.substr(0, kShown) + "...";
    throw ParseError("arith parse error at " + std::to_string(pos_) + " in '" + shown + "': " + what);
  }

  /// One level of nesting (a parenthesis, a min/max call, a unary operator,
  /// a ?: branch) for as long as it lives; refuses more than the limit.
  class Nest {
  public:
    explicit Nest(Parser &p) : p_(p) {
      if (++p_.nesting_ > limits::kMaxTextNesting) p_.fail(limits::nestedDeeperThan(limits::kMaxTextNesting));
    }
    ~Nest() { --p_.nesting_; }
    Nest(const Nest &) = delete;
    Nest &operator=(const Nest &) = delete;

  private:
    Parser &p_;
  };

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
    Nest nest(*this);
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
    // Sums and products are flat, but each '/' and '%' of a chain such as
    // x/y/y/y nests the chain so far one level deeper in the result, which
    // later passes recurse over: it counts as a level of nesting.
    int divisions = 0;
    auto divisionLevel = [&] {
      if (nesting_ + ++divisions > limits::kMaxTextNesting) fail(limits::nestedDeeperThan(limits::kMaxTextNesting));
    };
    for (;;) {
      if (accept("*")) {
        e = mkMul(ctx_, e, unary());
      } else if (accept("/")) {
        divisionLevel();
        e = mkDiv(ctx_, e, unary());
      } else if (accept("%")) {
        divisionLevel();
        e = mkMod(ctx_, e, unary());
      } else {
        return e;
      }
    }
  }

  Expr unary() {
    if (accept("-")) {
      Nest nest(*this);
      return mkNeg(ctx_, unary());
    }
    if (accept("+")) {
      Nest nest(*this);
      return unary();
    }
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
        Nest nest(*this);
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
      Nest nest(*this);
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
  int nesting_ = 0;
  Ctx ctx_;
};

} // namespace

Expr parse(const std::string &text, const std::map<std::string, Range> &ranges) {
  return Parser(text, ranges).parseAll();
}

} // namespace liftcc::arith
