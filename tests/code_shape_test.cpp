// The shape of the sources, checked on the sources (issue #32): no function
// longer than 80 lines outside tables, and no block of six or more lines
// copied between two library files. Both are ratchets: the functions and
// copies there are today are listed below with their sizes; a new one fails,
// a listed one that grows fails, and a listed one that is gone (or under the
// limit) must leave the list, so that the lists only shrink.
//
// What is scanned: function lengths in every C++ file outside tests/ (the
// libraries, tools/, bench/search); copies between the files of the
// libraries (the folders built by liftcc_add_library, as layering_test reads
// them). Build trees and generated files are not in the source tree's
// scanned folders.
//
// The scanner is a heuristic, not a C++ parser:
// - Comments, string and character literals (raw strings included) and
//   preprocessor lines are blanked first, keeping the line breaks.
// - A '{' at namespace, class or extern "C" scope opens a function body when
//   the text since the previous ';', '{' or '}' of that scope (its head) has
//   a '(' and no '=' outside parentheses (an '=' makes it an initialised
//   variable: a table), unless the head is a namespace, class, struct,
//   union or enum. The function's name is the token before the head's first
//   '(' (with its Class:: qualification; operator names whole).
// - A function's length counts its lines from the one with its '{' to the
//   one with its '}', except the lines that start inside a braced
//   initialiser (a table): a '{' after '=', '(', ',', '[', '{', 'return', a
//   type name or '>' (not after ')', ']', 'else', 'do', 'try', 'mutable',
//   ':' or a lambda's trailing return type, which open statement blocks and
//   lambda bodies, counted even inside a table).
// - A copy is a run of at least six consecutive significant lines, whitespace
//   collapsed and comments removed, equal in two files; blank lines,
//   comment-only lines, lines of braces and punctuation only and
//   preprocessor lines are not significant (they are skipped, not breaks).

#include "tests/library_sources.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace liftcc::test;

constexpr int kMaxFunctionLines = 80;
constexpr size_t kMinCopyLines = 6;

/// The functions over kMaxFunctionLines today, "path:name" (a second
/// function of the same name in a file gets "#2") and length. Split a
/// function and remove its line; never add one.
const std::map<std::string, int> kLongFunctions = {
    // (none)
};

/// The copies between two library files today: "pathA | pathB" (sorted) and
/// the number of significant lines of pathA in copies shared with pathB.
const std::map<std::string, int> kCopies = {
    // (none: the exporter's C templates, the last ones, are written once in exporter/templates/host.c.in)
};

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// A source with its comments removed (`code`: string and character literal
/// contents and preprocessor lines blanked too; `text`: literals kept, for
/// comparing lines). Both keep every line break where it was.
struct Stripped {
  std::string code, text;
};

/// Whether the quote at `at` opens a raw string literal (R"..., u8R"...).
bool opensRawString(const std::string &source, size_t at) {
  if (at == 0 || source[at - 1] != 'R') return false;
  size_t start = at - 1;
  while (start > 0 && isIdentifierChar(source[start - 1])) --start;
  std::string prefix = source.substr(start, at - start);
  return prefix == "R" || prefix == "u8R" || prefix == "uR" || prefix == "UR" || prefix == "LR";
}

/// Whether the apostrophe at `at` separates digits (1'000) rather than opening a character literal.
bool isDigitSeparator(const std::string &source, size_t at) {
  size_t start = at;
  while (start > 0 && (isIdentifierChar(source[start - 1]) || source[start - 1] == '\'')) --start;
  return start < at && std::isdigit(static_cast<unsigned char>(source[start]));
}

/// The end (one past) of the literal or comment starting at `at`, or `at` when none starts there.
size_t literalEnd(const std::string &source, size_t at) {
  char c = source[at];
  if (c == '/' && at + 1 < source.size() && source[at + 1] == '/')
    return std::min(source.find('\n', at), source.size());
  if (c == '/' && at + 1 < source.size() && source[at + 1] == '*') {
    size_t end = source.find("*/", at + 2);
    return end == std::string::npos ? source.size() : end + 2;
  }
  if (c == '"' && opensRawString(source, at)) {
    size_t open = source.find('(', at);
    std::string close = ")" + source.substr(at + 1, open - at - 1) + "\"";
    size_t end = source.find(close, open);
    return end == std::string::npos ? source.size() : end + close.size();
  }
  if (c == '"' || (c == '\'' && !isDigitSeparator(source, at))) {
    size_t i = at + 1;
    while (i < source.size() && source[i] != c && source[i] != '\n') i += source[i] == '\\' ? 2 : 1;
    return std::min(i + 1, source.size());
  }
  return at;
}

Stripped strip(const std::string &source) {
  Stripped out;
  bool lineStart = true, preprocessor = false;
  for (size_t at = 0; at < source.size();) {
    char c = source[at];
    if (lineStart && c == '#') preprocessor = true;
    if (!std::isspace(static_cast<unsigned char>(c))) lineStart = false;
    size_t end = std::max(literalEnd(source, at), at + 1);
    bool comment = c == '/' && end > at + 1;
    for (size_t i = at; i < end; ++i) {
      char k = source[i];
      if (k == '\n') {
        // A preprocessor line goes on after a backslash.
        preprocessor = preprocessor && i > 0 && source[i - 1] == '\\';
        lineStart = true;
      }
      bool delimiter = i == at || i + 1 == end; // a literal's quotes stay: `extern "C"` reads as one
      bool blank = k != '\n' && (comment || preprocessor || (end > at + 1 && !delimiter));
      out.code += blank ? ' ' : k;
      if (!comment || k == '\n') out.text += k;
    }
    at = end;
  }
  return out;
}

/// Where a '{' is: what its braces hold.
enum class Braces {
  Scope,       ///< namespace, class, struct, union, extern "C": functions are defined in it
  Function,    ///< a function body
  Block,       ///< a statement block or lambda body inside a function
  Initializer, ///< a braced initialiser (a table) inside a function
  MemberInit,  ///< a member's braced initialiser in a constructor's head (the head goes on after it)
  Other,       ///< anything else outside functions (enums, initialised variables): not scanned
};

struct Function {
  std::string name;
  int lines = 0;
  int firstLine = 0;
};

std::string trimmed(const std::string &text) {
  size_t begin = text.find_first_not_of(" \t\n");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\n") - begin + 1);
}

/// The head without its leading `template <...>` clauses.
std::string withoutTemplatePrefix(std::string head) {
  while (head.rfind("template", 0) == 0 && !isIdentifierChar(head[8 < head.size() ? 8 : 0])) {
    size_t at = head.find('<');
    if (at == std::string::npos) break;
    int depth = 0;
    for (; at < head.size(); ++at) {
      if (head[at] == '<') ++depth;
      if (head[at] == '>' && --depth == 0) break;
    }
    head = trimmed(head.substr(std::min(at + 1, head.size())));
  }
  return head;
}

/// The identifiers of `text`, in order.
std::vector<std::string> words(const std::string &text) {
  std::vector<std::string> out;
  for (size_t at = 0; at < text.size();) {
    if (!isIdentifierChar(text[at])) {
      ++at;
      continue;
    }
    size_t end = at;
    while (end < text.size() && isIdentifierChar(text[end])) ++end;
    out.push_back(text.substr(at, end - at));
    at = end;
  }
  return out;
}

/// The position of the head's parameter list: its first '(' outside
/// parentheses and template arguments (npos when none).
size_t parameterList(const std::string &head) {
  size_t op = head.find("operator");
  if (op != std::string::npos && (op == 0 || !isIdentifierChar(head[op - 1])))
    return head.find('(', head.compare(op + 8, 2, "()") == 0 ? op + 10 : op + 8);
  int angles = 0;
  for (size_t at = 0; at < head.size(); ++at) {
    char c = head[at];
    if (c == '<') ++angles;
    if (c == '>' && at > 0 && head[at - 1] != '-' && angles > 0) --angles;
    if (c == '(' && angles == 0) return at;
  }
  return std::string::npos;
}

/// Whether the head has an '=' outside parentheses (an initialised variable,
/// not a function; comparison operators and operator= excepted).
bool hasInitialiser(const std::string &head) {
  std::vector<std::string> all = words(head);
  if (std::find(all.begin(), all.end(), "operator") != all.end()) return false;
  int parens = 0;
  for (size_t at = 0; at < head.size(); ++at) {
    char c = head[at];
    if (c == '(') ++parens;
    if (c == ')') --parens;
    bool comparison = (at + 1 < head.size() && head[at + 1] == '=') ||
                      (at > 0 && std::string("=!<>").find(head[at - 1]) != std::string::npos);
    if (c == '=' && parens == 0 && !comparison) return true;
  }
  return false;
}

/// The name before the parameter list at `paren`: Class::name, ~Class, operator+.
std::string functionName(const std::string &head, size_t paren) {
  size_t end = std::min(paren, head.size());
  size_t op = head.rfind("operator", end);
  bool isOperator = op != std::string::npos && op < end && (op == 0 || !isIdentifierChar(head[op - 1])) &&
                    !isIdentifierChar(head[op + 8]);
  size_t begin = isOperator ? op : end;
  while (begin > 0 && (isIdentifierChar(head[begin - 1]) || head[begin - 1] == ':' || head[begin - 1] == '~')) --begin;
  return trimmed(head.substr(begin, end - begin));
}

/// Whether a constructor's head is in its member initialiser list: a ':'
/// (not '::') after the parameter list.
bool inMemberInitialisers(const std::string &head, size_t paren) {
  for (size_t at = head.find(')', paren); at != std::string::npos && at < head.size(); ++at)
    if (head[at] == ':' && (at + 1 >= head.size() || head[at + 1] != ':') && head[at - 1] != ':') return true;
  return false;
}

/// What a '{' at namespace or class scope opens, from its head.
Braces classifyAtScope(const std::string &rawHead, char previous) {
  std::string head = withoutTemplatePrefix(trimmed(rawHead));
  size_t paren = parameterList(head);
  std::vector<std::string> leading = words(head.substr(0, paren == std::string::npos ? head.size() : paren));
  auto has = [&](const char *word) { return std::find(leading.begin(), leading.end(), word) != leading.end(); };
  if (leading.empty()) return Braces::Other;
  if (leading[0] == "namespace" || (leading[0] == "extern" && paren == std::string::npos)) return Braces::Scope;
  if (has("enum")) return Braces::Other;
  if (hasInitialiser(head)) return Braces::Other;
  if (paren == std::string::npos) return has("class") || has("struct") || has("union") ? Braces::Scope : Braces::Other;
  if (inMemberInitialisers(head, paren) && (isIdentifierChar(previous) || previous == '>')) return Braces::MemberInit;
  return Braces::Function;
}

/// Whether the type that ends at `end` follows "->": a lambda's trailing
/// return type, whose '{' opens the lambda's body.
bool afterTrailingReturnType(const std::string &code, size_t end) {
  int angles = 0;
  for (; end > 0; --end) {
    char c = code[end - 1];
    if (c == '>' && end > 1 && code[end - 2] == '-') return angles == 0;
    if (c == '>') ++angles;
    if (c == '<') --angles;
    bool typeChar = isIdentifierChar(c) || std::isspace(static_cast<unsigned char>(c)) ||
                    std::string(":<>*&").find(c) != std::string::npos || (c == ',' && angles > 0);
    if (!typeChar || angles < 0) return false;
  }
  return false;
}

/// What a '{' inside a function opens, from the code before it.
Braces classifyInFunction(const std::string &code, size_t at, Braces parent) {
  size_t end = at;
  while (end > 0 && std::isspace(static_cast<unsigned char>(code[end - 1]))) --end;
  if (end == 0) return Braces::Block;
  char c = code[end - 1];
  if ((isIdentifierChar(c) || c == '>') && afterTrailingReturnType(code, end)) return Braces::Block;
  if (isIdentifierChar(c)) {
    size_t begin = end;
    while (begin > 0 && isIdentifierChar(code[begin - 1])) --begin;
    std::string word = code.substr(begin, end - begin);
    for (const char *block : {"else", "do", "try", "mutable", "noexcept", "const", "override"})
      if (word == block) return Braces::Block;
    return Braces::Initializer; // `return {`, `Type{`
  }
  if (c == '{') return parent == Braces::Initializer ? Braces::Initializer : Braces::Block;
  if (std::string("=(,[<>").find(c) != std::string::npos) return Braces::Initializer;
  return Braces::Block; // after ')', ']', ';', '}', ':'
}

/// Every function defined in `code` (stripped) with its length.
std::vector<Function> functionsOf(const std::string &code) {
  std::vector<Function> functions;
  std::vector<Braces> stack;
  std::string head;
  int line = 1, tableLines = 0;
  size_t functionDepth = 0; // the stack's size inside the current function (0: none)
  auto top = [&] { return stack.empty() ? Braces::Scope : stack.back(); };
  char previous = ' ';
  for (size_t at = 0; at < code.size(); ++at) {
    char c = code[at];
    if (c == '\n') {
      ++line;
      if (functionDepth && top() == Braces::Initializer) ++tableLines;
    }
    if (c == '{') {
      Braces kind = top() == Braces::Scope                                    ? classifyAtScope(head, previous)
                    : (top() == Braces::Other || top() == Braces::MemberInit) ? Braces::Other
                                                                              : classifyInFunction(code, at, top());
      if (kind == Braces::Function) {
        std::string clean = withoutTemplatePrefix(trimmed(head));
        functions.push_back({functionName(clean, parameterList(clean)), 0, line});
        functionDepth = stack.size() + 1;
        tableLines = 0;
      }
      stack.push_back(kind);
      if (kind != Braces::MemberInit) head.clear();
    } else if (c == '}' && !stack.empty()) {
      Braces closed = stack.back();
      stack.pop_back();
      if (closed == Braces::Function && functionDepth == stack.size() + 1) {
        functions.back().lines = line - functions.back().firstLine + 1 - tableLines;
        functionDepth = 0;
      }
      if (closed != Braces::MemberInit && top() == Braces::Scope) head.clear();
    } else if (c == ';' && top() == Braces::Scope) {
      head.clear();
    } else if (top() == Braces::Scope || top() == Braces::MemberInit) {
      head += c == '\n' ? ' ' : c;
    }
    if (!std::isspace(static_cast<unsigned char>(c))) previous = c;
  }
  return functions;
}

struct SignificantLine {
  std::string text; ///< whitespace collapsed
  int line = 0;
};

/// The lines of `text` (comments removed) that a copy is made of.
std::vector<SignificantLine> significantLines(const std::string &text) {
  std::vector<SignificantLine> out;
  int number = 0;
  std::istringstream in(text);
  for (std::string raw; std::getline(in, raw);) {
    ++number;
    std::string line;
    for (char c : raw)
      if (!std::isspace(static_cast<unsigned char>(c)) || (!line.empty() && line.back() != ' '))
        line += c == '\t' ? ' ' : c;
    line = trimmed(line);
    bool punctuation = line.find_first_not_of("{}()[];, ") == std::string::npos;
    if (!punctuation && line[0] != '#') out.push_back({line, number});
  }
  return out;
}

/// One copy: lines [first, last] of file a equal to lines of file b.
struct Copy {
  std::string a, b;
  int aFirst, aLast, bFirst, bLast;
  size_t length; ///< significant lines
};

/// Every run of at least kMinCopyLines significant lines equal in two
/// different files (each maximal run once; a run in three files is three copies).
std::vector<Copy> copiesBetween(const std::map<std::string, std::vector<SignificantLine>> &files) {
  // Every window of kMinCopyLines lines, by its text: where it starts.
  std::map<std::string, std::vector<std::pair<const std::string *, size_t>>> windows;
  for (const auto &[path, lines] : files)
    for (size_t i = 0; i + kMinCopyLines <= lines.size(); ++i) {
      std::string key;
      for (size_t k = i; k < i + kMinCopyLines; ++k) key += lines[k].text + "\n";
      windows[key].push_back({&path, i});
    }
  // The starts of the windows shared by each pair of files.
  std::map<std::pair<std::string, std::string>, std::set<std::pair<size_t, size_t>>> shared;
  for (const auto &[key, starts] : windows)
    for (size_t x = 0; x < starts.size(); ++x)
      for (size_t y = x + 1; y < starts.size(); ++y)
        if (*starts[x].first != *starts[y].first)
          shared[{*starts[x].first, *starts[y].first}].insert({starts[x].second, starts[y].second});
  std::vector<Copy> copies;
  for (const auto &[pair, starts] : shared)
    for (const auto &[i, j] : starts) {
      if (starts.count({i - 1, j - 1}) && i > 0 && j > 0) continue; // not the start of its run
      size_t run = 1;
      while (starts.count({i + run, j + run})) ++run;
      const std::vector<SignificantLine> &a = files.at(pair.first), &b = files.at(pair.second);
      size_t last = run + kMinCopyLines - 2;
      copies.push_back({pair.first, pair.second, a[i].line, a[i + last].line, b[j].line, b[j + last].line, last + 1});
    }
  return copies;
}

/// The source files to scan: every C++ file outside tests/ for function
/// lengths, and the libraries' files among them for copies.
struct Sources {
  std::map<std::string, Stripped> all;
  std::set<std::string> library;
};

Sources readSources() {
  Sources sources;
  std::vector<Library> libraries = readLibraries();
  for (const std::string &path : cppSourceFiles()) {
    if (isUnder(path, "tests")) continue;
    sources.all[path] = strip(readFile(sourceDir() / path));
    if (!libraryOwning(path, libraries).empty()) sources.library.insert(path);
  }
  return sources;
}

/// The differences between what was `found` and the `allowed` list (a
/// ratchet): new entries, entries over their allowed size, and entries of
/// the list that are no longer found (or are under `threshold`).
std::vector<std::string> ratchet(const std::map<std::string, int> &found, const std::map<std::string, int> &allowed,
                                 int threshold, const std::string &what) {
  std::vector<std::string> problems;
  for (const auto &[key, size] : found) {
    auto it = allowed.find(key);
    if (it == allowed.end())
      problems.push_back("new: " + key + " (" + std::to_string(size) + " " + what + ")");
    else if (size > it->second)
      problems.push_back("grew: " + key + " (" + std::to_string(size) + " " + what + ", listed with " +
                         std::to_string(it->second) + ")");
  }
  for (const auto &[key, size] : allowed)
    if (!found.count(key) || found.at(key) < threshold)
      problems.push_back("gone, remove it from the list: " + key + " (listed with " + std::to_string(size) + " " +
                         what + ", now " + std::to_string(found.count(key) ? found.at(key) : 0) + ")");
  return problems;
}

std::string joined(const std::vector<std::string> &lines) {
  std::string text;
  for (const std::string &line : lines) text += "\n  " + line;
  return text;
}

} // namespace

TEST_SUITE("code shape") {

TEST_CASE("code shape: the scanner finds functions, skips tables, literals and comments, and finds copies") {
  const std::string source = "namespace a {\n"                                // 1
                             "struct S {\n"                                   // 2
                             "  int f() const { return 1; }\n"                // 3
                             "  S(int x) : v_{x}, w_(x) {\n"                  // 4
                             "  }\n"                                          // 5
                             "  int v_, w_;\n"                                // 6
                             "};\n"                                           // 7
                             "const int kTable[] = {\n  1,\n  2,\n};\n"       // 8-11
                             "std::vector<int> g() {\n"                       // 12
                             "  const char *t = R\"x(}{)x\"; // }\n"          // 13
                             "  return {\n    1,\n    2,\n  };\n"             // 14-17
                             "}\n"                                            // 18
                             "int h() {\n"                                    // 19
                             "  auto l = [](int y) -> std::optional<int> {\n" // 20
                             "    return y;\n"                                // 21
                             "  };\n"                                         // 22
                             "  return l(1).value_or('}');\n"                 // 23
                             "}\n"                                            // 24
                             "#define M(x) { x }\n"                           // 25
                             "bool operator==(const S &, const S &) { return true; }\n"
                             "} // namespace a\n";
  std::vector<Function> functions = functionsOf(strip(source).code);
  REQUIRE(functions.size() == 5);
  CHECK(functions[0].name == "f");
  CHECK(functions[0].lines == 1);
  CHECK(functions[1].name == "S");
  CHECK(functions[1].lines == 2);
  CHECK(functions[2].name == "g");
  CHECK(functions[2].lines == 4); // lines 15-17 are a table
  CHECK(functions[3].name == "h");
  CHECK(functions[3].lines == 6); // the lambda's body counts
  CHECK(functions[4].name == "operator==");

  std::string block;
  for (int i = 0; i < 6; ++i) block += "  call" + std::to_string(i) + "(x); // a note\n  }\n\n";
  std::map<std::string, std::vector<SignificantLine>> files{{"a.cpp", significantLines("int a;\n" + block)},
                                                            {"b.cpp", significantLines(block + "int b;\n")},
                                                            {"c.cpp", significantLines("int c;\n")}};
  std::vector<Copy> copies = copiesBetween(files);
  REQUIRE(copies.size() == 1);
  CHECK(copies[0].a == "a.cpp");
  CHECK(copies[0].b == "b.cpp");
  CHECK(copies[0].length == 6);
  CHECK(copies[0].aFirst == 2);
  CHECK(copies[0].bFirst == 1);
}

TEST_CASE("code shape: no function over 80 lines outside tables, except the listed ones, which may only shrink") {
  auto start = std::chrono::steady_clock::now();
  Sources sources = readSources();
  std::map<std::string, int> longFunctions;
  size_t functions = 0;
  for (const auto &[path, stripped] : sources.all) {
    std::map<std::string, int> seen;
    for (const Function &f : functionsOf(stripped.code)) {
      ++functions;
      int occurrence = ++seen[f.name];
      std::string key = path + ":" + f.name + (occurrence > 1 ? "#" + std::to_string(occurrence) : "");
      if (f.lines > kMaxFunctionLines) longFunctions[key] = f.lines;
    }
  }
  MESSAGE(functions, " functions in ", sources.all.size(), " files, ", longFunctions.size(), " over ",
          kMaxFunctionLines, " lines (",
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), " s)");
  CHECK(functions > 1500); // the scanner still finds the functions
  std::vector<std::string> problems = ratchet(longFunctions, kLongFunctions, kMaxFunctionLines + 1, "lines");
  CHECK_MESSAGE(problems.empty(), "functions over ", kMaxFunctionLines, " lines:", joined(problems));
}

TEST_CASE("code shape: no block of six or more lines copied between two library files, except the listed ones") {
  auto start = std::chrono::steady_clock::now();
  Sources sources = readSources();
  std::map<std::string, std::vector<SignificantLine>> files;
  for (const std::string &path : sources.library) files[path] = significantLines(sources.all.at(path).text);
  std::map<std::string, int> copiedLines;
  std::vector<std::string> where;
  for (const Copy &c : copiesBetween(files)) {
    copiedLines[c.a + " | " + c.b] += static_cast<int>(c.length);
    where.push_back(c.a + ":" + std::to_string(c.aFirst) + "-" + std::to_string(c.aLast) + " = " + c.b + ":" +
                    std::to_string(c.bFirst) + "-" + std::to_string(c.bLast) + " (" + std::to_string(c.length) +
                    " lines)");
  }
  MESSAGE(files.size(), " library files, ", where.size(), " copies (",
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), " s)", joined(where));
  CHECK(files.size() > 200);
  std::vector<std::string> problems = ratchet(copiedLines, kCopies, 1, "copied lines");
  CHECK_MESSAGE(problems.empty(), "copies between library files:", joined(problems));
}

} // TEST_SUITE("code shape")
