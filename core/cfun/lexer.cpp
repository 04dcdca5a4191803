#include "core/cfun/lexer.h"

#include <array>
#include <charconv>
#include <climits>
#include <cstdio>
#include <system_error>

namespace liftcc::cfun {
namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }

/// Literal text for an error message; pp-numbers can be arbitrarily long.
std::string shown(std::string_view text) {
  if (text.size() <= 40) return std::string(text);
  return std::string(text.substr(0, 37)) + "...";
}

// Longest first, so that trying them in order implements maximal munch.
// This includes tokens the subset does not support (and C digraphs, which
// C and C++ compilers treat as `[`, `]`, `{`, `}`, `#`): lexing them as one
// token guarantees that, e.g., `a--b` is rejected instead of being read as
// `a - -b` while the C compiler reads `a-- b`.
constexpr std::string_view kPunct3[] = {"<<=", ">>=", "..."};
constexpr std::string_view kPunct2[] = {"++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
                                        "^=", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
                                        "->", "##", "<:", ":>", "<%", "%>", "%:", "::", ".*"};
constexpr std::string_view kPunct1 = "+-*/%<>=!()[]{};,?:&|^~.";

class Lexer {
public:
  explicit Lexer(std::string_view src) : src_(src) {}

  std::vector<Token> run() {
    rejectTranslationPhaseHazards();
    std::vector<Token> tokens;
    for (;;) {
      skipSpaceAndComments();
      SourcePos pos = here();
      if (i_ >= src_.size()) {
        tokens.push_back(Token{TokenKind::End, "", pos, Scalar()});
        return tokens;
      }
      char c = src_[i_];
      if (isIdentStart(c)) {
        std::size_t start = i_;
        while (i_ < src_.size() && isIdentChar(src_[i_])) advance();
        tokens.push_back(Token{TokenKind::Identifier, std::string(src_.substr(start, i_ - start)), pos, Scalar()});
      } else if (isDigit(c) || (c == '.' && i_ + 1 < src_.size() && isDigit(src_[i_ + 1]))) {
        tokens.push_back(lexNumber(pos));
      } else {
        tokens.push_back(lexPunct(pos));
      }
    }
  }

private:
  SourcePos here() const { return SourcePos{line_, column_}; }

  void advance() {
    if (src_[i_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++i_;
  }

  [[noreturn]] void fail(SourcePos pos, const std::string &reason) const { throw CFunError(pos, reason); }

  /// Characters that act before tokenisation in C (line splicing, trigraphs)
  /// or that OpenCL/CUDA front ends may treat differently (lone CR, non-ASCII)
  /// are rejected everywhere, comments included: a backslash at the end of a
  /// `//` comment would make the next line part of the comment for the C
  /// compiler but not for us.
  void rejectTranslationPhaseHazards() {
    int line = 1, column = 1;
    for (std::size_t k = 0; k < src_.size(); ++k) {
      unsigned char c = static_cast<unsigned char>(src_[k]);
      SourcePos pos{line, column};
      if (c == '\\') fail(pos, "backslash is not allowed (C would splice lines or start an escape)");
      if (c == '?' && k + 1 < src_.size() && src_[k + 1] == '?')
        fail(pos, "'\?\?' is not allowed (C trigraphs could change the meaning of the text)");
      if (c == '\r' && !(k + 1 < src_.size() && src_[k + 1] == '\n'))
        fail(pos, "carriage return without line feed is not allowed");
      if (c >= 0x80) {
        char buf[80];
        std::snprintf(buf, sizeof buf, "non-ASCII byte 0x%02X; user function text must be ASCII", c);
        fail(pos, buf);
      }
      if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
        char buf[80];
        std::snprintf(buf, sizeof buf, "control character 0x%02X is not allowed", c);
        fail(pos, buf);
      }
      if (c == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
  }

  void skipSpaceAndComments() {
    while (i_ < src_.size()) {
      char c = src_[i_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        advance();
      } else if (src_.substr(i_, 2) == "//") {
        SourcePos start = here();
        while (i_ < src_.size() && src_[i_] != '\n') advance();
        // Emitters append the closing '}' right after the body, which a
        // final '//' comment would swallow.
        if (i_ >= src_.size()) fail(start, "a '//' comment at the end of the body must be followed by a newline");
      } else if (src_.substr(i_, 2) == "/*") {
        SourcePos start = here();
        advance();
        advance();
        while (i_ < src_.size() && src_.substr(i_, 2) != "*/") advance();
        if (i_ >= src_.size()) fail(start, "unterminated /* comment");
        advance();
        advance();
      } else {
        return;
      }
    }
  }

  /// Consumes one pp-number as C defines it (digits, letters, underscores,
  /// dots, and a sign right after e/E/p/P) and then checks that it is one of
  /// the literal forms we support. Taking the whole pp-number first means
  /// `1e+x` or `0xe+1` is rejected as one bad literal, as C does.
  Token lexNumber(SourcePos pos) {
    std::size_t start = i_;
    while (i_ < src_.size()) {
      char c = src_[i_];
      char prev = i_ > start ? src_[i_ - 1] : '\0';
      bool sign = (c == '+' || c == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P');
      if (!(isIdentChar(c) || c == '.' || sign)) break;
      advance();
    }
    std::string_view text = src_.substr(start, i_ - start);
    return Token{TokenKind::Number, std::string(text), pos, parseNumber(text, pos)};
  }

  Scalar parseNumber(std::string_view text, SourcePos pos) const {
    if (text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
      fail(pos, "hexadecimal literal '" + shown(text) + "' is not supported; use a decimal literal");
    std::size_t k = 0;
    auto digits = [&] {
      std::size_t from = k;
      while (k < text.size() && isDigit(text[k])) ++k;
      return k - from;
    };
    std::size_t intDigits = digits();
    bool hasDot = false, hasExp = false;
    if (k < text.size() && text[k] == '.') {
      hasDot = true;
      ++k;
      digits();
    }
    if (k < text.size() && (text[k] == 'e' || text[k] == 'E')) {
      hasExp = true;
      ++k;
      if (k < text.size() && (text[k] == '+' || text[k] == '-')) ++k;
      if (digits() == 0) fail(pos, "exponent of '" + shown(text) + "' has no digits");
    }
    std::string_view mantissa = text.substr(0, k);
    std::string_view suffix = text.substr(k);
    bool floating = hasDot || hasExp;

    if (!floating) {
      if (!suffix.empty()) {
        if (suffix == "f" || suffix == "F") {
          // Built with append: GCC 12 at -O3 warns (-Wrestrict, a known false
          // positive) on the equivalent chain of operator+.
          std::string message = "'";
          message.append(shown(text)).append("' is not a valid C literal; write ").append(mantissa).append(".0f");
          fail(pos, message);
        }
        fail(pos,
             "integer literal suffix in '" + shown(text) + "' is not supported; only plain int literals are allowed");
      }
      if (intDigits > 1 && text[0] == '0')
        fail(pos, "'" + shown(text) + "' would be an octal literal in C; remove the leading zero");
      long long v = 0;
      for (char c : mantissa) {
        v = v * 10 + (c - '0');
        if (v > INT_MAX)
          fail(pos, "integer literal '" + shown(text) + "' does not fit in int (for INT_MIN write (-2147483647 - 1))");
      }
      return Scalar::ofInt(static_cast<int32_t>(v));
    }

    bool isFloat = suffix == "f" || suffix == "F";
    if (!isFloat && !suffix.empty()) {
      if (suffix == "l" || suffix == "L") fail(pos, "long double literal '" + shown(text) + "' is not supported");
      fail(pos, "invalid suffix '" + shown(suffix) + "' on floating literal '" + shown(text) + "'");
    }
    // from_chars rounds correctly straight to the target type, as C compilers
    // do for literals (going through double first could round twice).
    const char *first = mantissa.data(), *last = mantissa.data() + mantissa.size();
    if (isFloat) {
      float v = 0;
      auto [ptr, ec] = std::from_chars(first, last, v);
      if (ec == std::errc::result_out_of_range)
        fail(pos, "literal '" + shown(text) + "' is out of range for float (it would become infinity or zero)");
      if (ec != std::errc() || ptr != last) fail(pos, "invalid floating literal '" + shown(text) + "'");
      return Scalar::ofFloat(v);
    }
    double v = 0;
    auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec == std::errc::result_out_of_range)
      fail(pos, "literal '" + shown(text) + "' is out of range for double (it would become infinity or zero)");
    if (ec != std::errc() || ptr != last) fail(pos, "invalid floating literal '" + shown(text) + "'");
    return Scalar::ofDouble(v);
  }

  Token lexPunct(SourcePos pos) {
    std::string_view rest = src_.substr(i_);
    auto take = [&](std::string_view p) {
      for (std::size_t n = 0; n < p.size(); ++n) advance();
      return Token{TokenKind::Punct, std::string(p), pos, Scalar()};
    };
    for (std::string_view p : kPunct3)
      if (rest.starts_with(p)) return take(p);
    for (std::string_view p : kPunct2)
      if (rest.starts_with(p)) return take(p);
    char c = src_[i_];
    if (kPunct1.find(c) != std::string_view::npos) return take(rest.substr(0, 1));
    if (c == '#') fail(pos, "preprocessor directives and '#' are not allowed");
    if (c == '"' || c == '\'') fail(pos, "string and character literals are not supported");
    fail(pos, std::string("unexpected character '") + c + "'");
  }

  std::string_view src_;
  std::size_t i_ = 0;
  int line_ = 1;
  int column_ = 1;
};

} // namespace

std::vector<Token> tokenize(std::string_view body) { return Lexer(body).run(); }

} // namespace liftcc::cfun
