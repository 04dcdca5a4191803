#include "exporter/c_text.h"

#include <cctype>
#include <cstdio>
#include <string_view>

namespace liftcc::exporter {

namespace {
// C11 and C++20 keywords: a prefix or parameter name must be neither.
constexpr std::string_view kKeywords[] = {"alignas",
                                          "alignof",
                                          "and",
                                          "and_eq",
                                          "asm",
                                          "auto",
                                          "bitand",
                                          "bitor",
                                          "bool",
                                          "break",
                                          "case",
                                          "catch",
                                          "char",
                                          "char8_t",
                                          "char16_t",
                                          "char32_t",
                                          "class",
                                          "compl",
                                          "concept",
                                          "const",
                                          "consteval",
                                          "constexpr",
                                          "constinit",
                                          "const_cast",
                                          "continue",
                                          "co_await",
                                          "co_return",
                                          "co_yield",
                                          "decltype",
                                          "default",
                                          "delete",
                                          "do",
                                          "double",
                                          "dynamic_cast",
                                          "else",
                                          "enum",
                                          "explicit",
                                          "export",
                                          "extern",
                                          "false",
                                          "float",
                                          "for",
                                          "friend",
                                          "goto",
                                          "if",
                                          "inline",
                                          "int",
                                          "long",
                                          "mutable",
                                          "namespace",
                                          "new",
                                          "noexcept",
                                          "not",
                                          "not_eq",
                                          "nullptr",
                                          "operator",
                                          "or",
                                          "or_eq",
                                          "private",
                                          "protected",
                                          "public",
                                          "register",
                                          "reinterpret_cast",
                                          "requires",
                                          "restrict",
                                          "return",
                                          "short",
                                          "signed",
                                          "sizeof",
                                          "static",
                                          "static_assert",
                                          "static_cast",
                                          "struct",
                                          "switch",
                                          "template",
                                          "this",
                                          "thread_local",
                                          "throw",
                                          "true",
                                          "try",
                                          "typedef",
                                          "typeid",
                                          "typename",
                                          "union",
                                          "unsigned",
                                          "using",
                                          "virtual",
                                          "void",
                                          "volatile",
                                          "wchar_t",
                                          "while",
                                          "xor",
                                          "xor_eq",
                                          "_Bool"};
} // namespace

bool isCIdentifier(const std::string &name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  if (static_cast<unsigned char>(name[0]) >= 0x80) return false;
  for (std::string_view k : kKeywords)
    if (name == k) return false;
  return true;
}

std::string cIdentifierFrom(const std::string &text) {
  std::string id;
  for (char c : text)
    id += (std::isalnum(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80) ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) id = "_" + id;
  if (!isCIdentifier(id)) id += "_";
  return id;
}

std::string upperCase(const std::string &identifier) {
  std::string up;
  for (char c : identifier) up += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return up;
}

std::string escapeC(std::string_view text, CText where) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    char previous = out.empty() ? '\0' : out.back();
    switch (c) {
    case '\n': out += "\\n"; continue;
    case '\t': out += "\\t"; continue;
    case '\\': out += "\\\\"; continue;
    case '"': out += where == CText::Literal ? "\\\"" : "\""; continue;
    // No two '?' in a row: "??/" is a trigraph (a backslash) in C99.
    case '?': out += where == CText::Literal || previous == '?' ? "\\?" : "?"; continue;
    case '*':
    case '/':
      // Neither "/*" nor "*/" in a comment.
      if (where == CText::Comment && ((c == '*' && previous == '/') || (c == '/' && previous == '*'))) out += '\\';
      out += static_cast<char>(c);
      continue;
    default: break;
    }
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char octal[8];
      std::snprintf(octal, sizeof octal, "\\%03o", c); // three digits: never merges with a following digit
      out += octal;
    }
  }
  return out;
}

std::vector<std::string> literalPieces(const std::string &text, size_t most) {
  std::vector<std::string> pieces;
  size_t at = 0;
  while (text.size() - at > most) {
    size_t newline = text.rfind('\n', at + most - 1);
    size_t end = newline != std::string::npos && newline >= at + most / 2 ? newline + 1 : at + most;
    pieces.push_back(text.substr(at, end - at));
    at = end;
  }
  pieces.push_back(text.substr(at));
  return pieces;
}

std::string cStringLiteral(const std::string &text, const std::string &indent) {
  if (text.empty()) return indent + "\"\"";
  std::string out;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1; // the newline ends this literal
    if (!out.empty()) out += "\n";
    out += indent + "\"" + escapeC(std::string_view(text).substr(start, end - start), CText::Literal) + "\"";
    start = end;
  }
  return out;
}

std::string blockComment(const std::vector<std::string> &lines) {
  std::string out = "/*\n";
  for (const std::string &line : lines) {
    std::string escaped = escapeC(line, CText::Comment);
    out += escaped.empty() ? " *\n" : " * " + escaped + "\n";
  }
  return out + " */\n";
}

} // namespace liftcc::exporter
