// Parser for the Lift type notation used in JSON programs. Its length and
// nesting are capped (core/input_limits.h) before it recurses.
#include "core/input_limits.h"
#include "core/json/program_json.h"

#include <algorithm>
#include <cctype>

namespace liftcc {

namespace {
/// Echoed text is cut: the message must stay one short line. (57 and the
/// dots fit the 60 characters to which JsonError cuts quoted text.)
std::string cut(const std::string &text) {
  constexpr size_t kShown = 57;
  return text.size() <= kShown ? text : text.substr(0, kShown) + "...";
}

class TypeParser {
public:
  TypeParser(const std::string &text, const std::map<std::string, arith::Range> &ranges)
      : text_(text), ranges_(ranges) {}

  Type parseAll() {
    if (text_.size() > limits::kMaxTypeChars)
      throw std::invalid_argument("type " + limits::longerThan(limits::kMaxTypeChars, text_.size()));
    Type t = parseType();
    skipSpace();
    if (pos_ != text_.size()) fail("unexpected '" + cut(text_.substr(pos_)) + "'");
    return t;
  }

private:
  [[noreturn]] void fail(const std::string &what) const {
    throw std::invalid_argument("bad type \"" + cut(text_) + "\" at character " + std::to_string(pos_ + 1) + ": " +
                                what);
  }
  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!accept(c)) fail(std::string("expected '") + c + "'");
  }
  std::string word() {
    skipSpace();
    size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    if (start == pos_) fail("expected a name or number");
    return text_.substr(start, pos_ - start);
  }

  Type parseType() {
    // The outermost type is level 0: only brackets and tuples nest.
    if (depth_++ > limits::kMaxTextNesting) fail(limits::nestedDeeperThan(limits::kMaxTextNesting));
    Type result = parseTypeInner();
    --depth_;
    return result;
  }

  Type parseTypeInner() {
    if (accept('(')) {
      std::vector<Type> elements{parseType()};
      while (accept(',')) elements.push_back(parseType());
      expect(')');
      return Type::tuple(std::move(elements));
    }
    if (accept('[')) {
      Type element = parseType();
      expect(']');
      return Type::array(std::move(element), parseLength());
    }
    std::string name = word();
    if (auto kind = parseScalarKind(name)) {
      if (!accept('<')) return Type::scalar(*kind);
      std::string width = word();
      expect('>');
      if (*kind != ScalarKind::Float && *kind != ScalarKind::Double)
        fail("vector lanes must be float or double, found " + name);
      if (width.size() > 2 || !std::all_of(width.begin(), width.end(), ::isdigit) || !isVectorWidth(std::stoi(width)))
        fail("vector width must be 2, 4, 8 or 16, found " + width);
      return Type::vector(*kind, std::stoi(width));
    }
    fail("unknown scalar type '" + name + "' (expected bool, int, float or double)");
  }

  arith::Expr parseLength() {
    skipSpace();
    std::string source;
    if (accept('(')) {
      int depth = 1;
      size_t start = pos_;
      while (pos_ < text_.size() && depth > 0) {
        if (text_[pos_] == '(') ++depth;
        if (text_[pos_] == ')') --depth;
        ++pos_;
      }
      if (depth != 0) fail("unbalanced parentheses in an array length");
      source = text_.substr(start, pos_ - start - 1);
    } else {
      source = word();
    }
    for (const std::string &v : arith::freeVariables(arith::parse(source)))
      if (!ranges_.count(v)) fail("unknown size variable '" + v + "' (declare it in \"sizes\")");
    return arith::parse(source, ranges_);
  }

  const std::string &text_;
  const std::map<std::string, arith::Range> &ranges_;
  size_t pos_ = 0;
  int depth_ = 0;
};
} // namespace

Type parseType(const std::string &text, const std::map<std::string, arith::Range> &sizeRanges) {
  try {
    return TypeParser(text, sizeRanges).parseAll();
  } catch (const arith::ParseError &e) {
    throw std::invalid_argument("bad type \"" + cut(text) + "\": " + e.what());
  }
}

} // namespace liftcc
