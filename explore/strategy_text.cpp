#include "explore/strategy_text.h"

#include "codegen/generate.h"
#include "explore/families/family.h"

#include <cctype>
#include <utility>

namespace liftcc::explore {

namespace {

using rewrite::Recipe;

std::string mappingText(const Configuration &c, int kernelDims) {
  return c.mapping.isDefault() ? rewrite::defaultMappingText(std::max(kernelDims, 1)) : c.mapping.text();
}

std::string coarsenText(const std::array<int64_t, 3> &k) {
  std::string args;
  for (int d = 0; d < 3; ++d)
    if (k[static_cast<size_t>(d)] != 1)
      args += (args.empty() ? "" : ",") + std::string(1, rewrite::dimensionLetter(d)) + "=" +
              std::to_string(k[static_cast<size_t>(d)]);
  return "coarsen(" + (args.empty() ? std::string("x=1") : args) + ")";
}

/// tile(K), or tile(X,Y[,Z]) for a tile shape (its entries up to the last non-zero one).
std::string tileText(const Configuration &c) {
  if (c.tileShape == std::array<int64_t, 3>{0, 0, 0}) return "tile(" + std::to_string(c.tile) + ")";
  int last = c.tileShape[2] != 0 ? 2 : 1;
  std::string args;
  for (int d = 0; d <= last; ++d) args += (d ? "," : "") + std::to_string(c.tileShape[static_cast<size_t>(d)]);
  return "tile(" + args + ")";
}

std::string shapeText(const std::array<int64_t, 3> &shape) {
  int last = shape[2] != 1 ? 2 : shape[1] != 1 ? 1 : 0;
  std::string args;
  for (int d = 0; d <= last; ++d) args += (d ? "," : "") + std::to_string(shape[static_cast<size_t>(d)]);
  return "wg(" + args + ")";
}

// ---- parsing -------------------------------------------------------------

struct Argument {
  std::string name, value; ///< name empty for a positional argument
  size_t position = 0;
};

struct Step {
  std::string name;
  std::vector<Argument> args;
  bool hasParentheses = false;
  size_t position = 0; ///< 1-based character of the name
};

[[noreturn]] void fail(size_t position, const std::string &message) {
  throw StrategyError("strategy: at character " + std::to_string(position) + ": " + message);
}

std::string shown(const std::string &text) { return text.size() > 40 ? text.substr(0, 40) + "..." : text; }

class Lexer {
public:
  explicit Lexer(const std::string &text) : text_(text) {}

  std::vector<Step> steps() {
    std::vector<Step> out;
    skipSpace();
    if (i_ == text_.size()) fail(i_ + 1, "expected a step (e.g. mapGlb(x,y)), found the end of the text");
    while (true) {
      out.push_back(step());
      skipSpace();
      if (i_ == text_.size()) return out;
      if (text_[i_] != ';') fail(i_ + 1, "expected ';' between steps, found '" + std::string(1, text_[i_]) + "'");
      ++i_;
      skipSpace();
    }
  }

private:
  void skipSpace() {
    while (i_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[i_]))) ++i_;
  }
  std::string word(const char *what) {
    skipSpace();
    size_t start = i_;
    while (i_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[i_])) || text_[i_] == '_')) ++i_;
    if (start == i_)
      fail(start + 1, std::string("expected ") + what + ", found " +
                          (start < text_.size() ? "'" + std::string(1, text_[start]) + "'" : "the end of the text"));
    return text_.substr(start, i_ - start);
  }
  Step step() {
    Step s;
    s.position = i_ + 1;
    s.name = word("a step name");
    skipSpace();
    if (i_ < text_.size() && text_[i_] == '(') {
      s.hasParentheses = true;
      ++i_;
      skipSpace();
      if (i_ < text_.size() && text_[i_] == ')') {
        ++i_;
        return s;
      }
      while (true) {
        Argument a;
        a.position = i_ + 1;
        a.value = word("an argument");
        skipSpace();
        if (i_ < text_.size() && text_[i_] == '=') {
          ++i_;
          a.name = a.value;
          a.value = word("a value after '='");
          skipSpace();
        }
        s.args.push_back(a);
        if (i_ < text_.size() && text_[i_] == ',') {
          ++i_;
          continue;
        }
        if (i_ < text_.size() && text_[i_] == ')') {
          ++i_;
          return s;
        }
        fail(i_ + 1, "expected ',' or ')' in the arguments of " + s.name + ", found " +
                         (i_ < text_.size() ? "'" + std::string(1, text_[i_]) + "'" : "the end of the text"));
      }
    }
    return s;
  }

  const std::string &text_;
  size_t i_ = 0;
};

int64_t positiveNumber(const Argument &a, const std::string &step, int64_t max) {
  bool digits = !a.value.empty() && a.value.size() <= 6;
  for (char c : a.value) digits = digits && std::isdigit(static_cast<unsigned char>(c));
  int64_t v = digits ? std::stoll(a.value) : 0;
  if (v < 1 || v > max)
    fail(a.position,
         "expected a number from 1 to " + std::to_string(max) + " in " + step + ", found '" + shown(a.value) + "'");
  return v;
}

int dimensionOf(const Argument &a, const std::string &step) {
  const std::string &letter = a.name.empty() ? a.value : a.name;
  if (letter == "x") return 0;
  if (letter == "y") return 1;
  if (letter == "z") return 2;
  fail(a.position, "expected a dimension x, y or z in " + step + ", found '" + shown(letter) + "'");
}

void noArguments(const Step &s) {
  if (s.hasParentheses) fail(s.position, s.name + " takes no arguments");
}

void expectArguments(const Step &s, size_t lo, size_t hi) {
  if (!s.hasParentheses || s.args.size() < lo || s.args.size() > hi)
    fail(s.position, s.name + " takes " +
                         (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                         " argument(s), e.g. " +
                         (s.name == "tile"        ? "tile(8) or tile(32,4)"
                          : s.name == "wg"        ? "wg(32,4)"
                          : s.name == "coarsen"   ? "coarsen(x=8)"
                          : s.name == "fastMath"  ? "fastMath(relaxed)"
                          : s.name == "vectorize" ? "vectorize(4)"
                          : s.name == "timeTile"  ? "timeTile(4)"
                                                  : s.name + "(x,y)"));
}

rewrite::Mapping mappingOf(const Step &s, ParsedStrategy &parsed) {
  expectArguments(s, 1, 3);
  rewrite::Mapping m;
  for (const Argument &a : s.args) {
    if (!a.name.empty()) fail(a.position, "expected a dimension x, y or z in " + s.name + ", found '" + a.name + "='");
    int d = dimensionOf(a, s.name);
    for (int seen : m.ndrange)
      if (seen == d) fail(a.position, s.name + " names dimension " + a.value + " twice");
    m.ndrange.push_back(d);
  }
  parsed.mappedDimensions = static_cast<int>(m.ndrange.size());
  parsed.mappingPosition = s.position;
  return rewrite::canonicalMapping(m);
}

} // namespace

std::string strategyText(const Configuration &c, int kernelDims) {
  std::string text;
  const std::string vectorize = c.vectorWidth > 0 ? "vectorize(" + std::to_string(c.vectorWidth) + ") ; " : "";
  switch (c.recipe) {
  case Recipe::Plain: text = vectorize + "mapGlb(" + mappingText(c, kernelDims) + ")"; break;
  case Recipe::Tiled: text = tileText(c) + " ; mapWrg(" + mappingText(c, kernelDims) + ")"; break;
  case Recipe::Local: text = tileText(c) + " ; toLocal ; mapWrg(" + mappingText(c, kernelDims) + ")"; break;
  case Recipe::TimeTiledLocal:
    text = tileText(c) + " ; stepsToLocal ; mapWrg(" + mappingText(c, kernelDims) + ")";
    break;
  case Recipe::Coarsened:
    text = coarsenText(c.coarsen) + (c.privateWindow ? " ; privateWindow ; " : " ; globalWindow ; ") + vectorize +
           "mapGlb(" + mappingText(c, kernelDims) + ")";
    break;
  case Recipe::Stream: text = "stream ; mapGlb(" + mappingText(c, kernelDims) + ")"; break;
  case Recipe::StreamLocal:
  case Recipe::TimeTiledStream:
    text = "streamLocal(" + std::to_string(c.streamChunk > 0 ? c.streamChunk : rewrite::RecipeOptions{}.streamChunk) +
           ") ; " + tileText(c) + (c.recipe == Recipe::TimeTiledStream ? " ; stepsToLocal ; " : " ; ") + vectorize +
           "mapWrg(" + mappingText(c, kernelDims) + ")";
    break;
  }
  if (c.timeTile > 1) text = "timeTile(" + std::to_string(c.timeTile) + ") ; " + text;
  if (c.fuse) text = "fuse ; " + text;
  if (c.local != std::array<int64_t, 3>{0, 0, 0}) text += " ; " + shapeText(c.local);
  if (c.specialise) text += " ; specialise";
  if (c.noinlineBorder) text += " ; noinlineBorder";
  if (c.splitBorder) text += " ; splitBorder";
  if (c.fastMath != codegen::FastMath::None) text += " ; fastMath(" + codegen::fastMathName(c.fastMath) + ")";
  if (c.divToMul) text += " ; divToMul";
  return text;
}

std::string strategyText(const Variant &variant) { return strategyText(variant.configuration, variant.kernel.dims); }

namespace {

/// tile(X) (one extent for every dimension) or tile(X,Y[,Z]) (one per
/// dimension, x first: rewrite::RecipeOptions::tileExtents), at most
/// `maxExtents` of them, into `c`.
void parseTile(const Step &tile, size_t maxExtents, Configuration &c) {
  expectArguments(tile, 1, maxExtents);
  for (const Argument &a : tile.args)
    if (!a.name.empty()) fail(a.position, "tile takes plain numbers, e.g. tile(8) or tile(32,4)");
  if (tile.args.size() == 1) {
    c.tile = positiveNumber(tile.args[0], "tile", 1024);
    return;
  }
  c.tile = rewrite::RecipeOptions{}.tileOutputs;
  for (size_t d = 0; d < tile.args.size(); ++d) c.tileShape[d] = positiveNumber(tile.args[d], "tile", 1024);
}

/// coarsen(x=.., y=.., z=..) or coarsen(X[,Y[,Z]]) into c.coarsen.
void parseCoarsenFactors(const Step &coarsen, Configuration &c) {
  expectArguments(coarsen, 1, 3);
  bool named = !coarsen.args[0].name.empty();
  std::array<bool, 3> given{false, false, false};
  for (size_t k = 0; k < coarsen.args.size(); ++k) {
    const Argument &a = coarsen.args[k];
    if (named != !a.name.empty()) fail(a.position, "coarsen takes either x=.., y=.., z=.. or plain factors x,y,z");
    int d = named ? dimensionOf(a, "coarsen") : static_cast<int>(k);
    if (given[static_cast<size_t>(d)]) fail(a.position, "coarsen gives dimension " + a.name + " twice");
    given[static_cast<size_t>(d)] = true;
    c.coarsen[static_cast<size_t>(d)] = positiveNumber(a, "coarsen", 64);
  }
}

} // namespace

namespace {

/// The steps of a strategy read in order.
class StepCursor {
public:
  StepCursor(const std::string &text, std::vector<Step> steps) : text_(text), steps_(std::move(steps)) {}
  bool next(const std::string &name) const { return i_ < steps_.size() && steps_[i_].name == name; }
  bool atEnd() const { return i_ >= steps_.size(); }
  const Step &take() { return steps_[i_++]; }
  const Step &peek() const { return steps_[i_]; }
  /// The position after the text (for "found the end of the text").
  size_t endPosition() const { return text_.size() + 1; }
  const Step &expect(const std::string &name, const std::string &after) {
    if (i_ >= steps_.size())
      fail(endPosition(), "expected '" + name + "' after " + after + ", found the end of the text");
    if (steps_[i_].name != name)
      fail(steps_[i_].position, "expected '" + name + "' after " + after + ", found '" + shown(steps_[i_].name) + "'");
    return steps_[i_++];
  }

private:
  const std::string &text_;
  std::vector<Step> steps_;
  size_t i_ = 0;
};

/// vectorize(W): the innermost dimension as vectors of W lanes.
int64_t vectorWidthOf(const Step &s) {
  expectArguments(s, 1, 1);
  if (!s.args[0].name.empty()) fail(s.args[0].position, "vectorize takes a plain number, e.g. vectorize(4)");
  int64_t w = positiveNumber(s.args[0], "vectorize", 16);
  if (w != 2 && w != 4 && w != 8 && w != 16)
    fail(s.args[0].position, "expected a vector width 2, 4, 8 or 16 in vectorize, found '" + s.args[0].value + "'");
  return w;
}

/// The optional steps before the lowering: fuse, timeTile(T).
void parseDerivedSteps(StepCursor &steps, Configuration &c) {
  // Fusion of a multi-kernel program's intermediates into their readers.
  if (steps.next("fuse")) {
    noArguments(steps.take());
    c.fuse = true;
    if (steps.atEnd()) fail(steps.endPosition(), "expected a lowering after fuse, found the end of the text");
  }
  // Time tiling of iterate: steps per kernel.
  if (steps.next("timeTile")) {
    const Step &s = steps.take();
    expectArguments(s, 1, 1);
    if (!s.args[0].name.empty()) fail(s.args[0].position, "timeTile takes a plain number, e.g. timeTile(4)");
    c.timeTile = positiveNumber(s.args[0], "timeTile", 64);
    if (steps.atEnd()) fail(steps.endPosition(), "expected a lowering after timeTile, found the end of the text");
  }
}

/// coarsen(..) ; privateWindow|globalWindow [; vectorize(W)] ; mapGlb(D..), after `first` (coarsen).
void parseCoarsened(const Step &first, StepCursor &steps, ParsedStrategy &parsed) {
  Configuration &c = parsed.configuration;
  c.recipe = Recipe::Coarsened;
  parseCoarsenFactors(first, c);
  if (steps.next("privateWindow") || steps.next("globalWindow")) {
    c.privateWindow = steps.peek().name == "privateWindow";
    noArguments(steps.take());
  } else {
    fail(steps.atEnd() ? steps.endPosition() : steps.peek().position,
         "expected 'privateWindow' or 'globalWindow' after coarsen");
  }
  if (steps.next("vectorize")) c.vectorWidth = vectorWidthOf(steps.take());
  c.mapping = mappingOf(steps.expect("mapGlb", c.vectorWidth > 0 ? "vectorize" : "the window"), parsed);
}

/// The lowering: one of the recipes' rule compositions (explore/families/).
void parseLowering(StepCursor &steps, ParsedStrategy &parsed) {
  Configuration &c = parsed.configuration;
  const Step &first = steps.take();
  if (first.name == "vectorize") {
    c.vectorWidth = vectorWidthOf(first);
    c.recipe = Recipe::Plain;
    c.mapping = mappingOf(steps.expect("mapGlb", "vectorize"), parsed);
  } else if (first.name == "mapGlb") {
    c.recipe = Recipe::Plain;
    c.mapping = mappingOf(first, parsed);
  } else if (first.name == "tile") {
    parseTile(first, 3, c);
    c.recipe = Recipe::Tiled;
    if (steps.next("toLocal")) {
      noArguments(steps.take());
      c.recipe = Recipe::Local;
    } else if (steps.next("stepsToLocal")) {
      // Every step of the time tile in local memory (timeTiledLocal).
      noArguments(steps.take());
      c.recipe = Recipe::TimeTiledLocal;
    }
    const char *previous = c.recipe == Recipe::Local            ? "toLocal"
                           : c.recipe == Recipe::TimeTiledLocal ? "stepsToLocal"
                                                                : "tile";
    c.mapping = mappingOf(steps.expect("mapWrg", previous), parsed);
  } else if (first.name == "coarsen") {
    parseCoarsened(first, steps, parsed);
  } else if (first.name == "streamLocal") {
    // streamLocal(C) ; tile(X[,Y]) [; stepsToLocal | ; vectorize(W)] ; mapWrg(D..): chunks of C planes, plane tiles.
    expectArguments(first, 1, 1);
    if (!first.args[0].name.empty())
      fail(first.args[0].position, "streamLocal takes a plain number, e.g. streamLocal(8)");
    c.recipe = Recipe::StreamLocal;
    c.streamChunk = positiveNumber(first.args[0], "streamLocal", 1024);
    parseTile(steps.expect("tile", "streamLocal"), 2, c);
    // Every step of the time tile streamed through local memory (timeTiledStream).
    if (steps.next("stepsToLocal")) {
      noArguments(steps.take());
      c.recipe = Recipe::TimeTiledStream;
      c.mapping = mappingOf(steps.expect("mapWrg", "stepsToLocal"), parsed);
      return;
    }
    // Each plane's outputs as vectors along x (vectorizeLocalOutputs).
    if (steps.next("vectorize")) c.vectorWidth = vectorWidthOf(steps.take());
    c.mapping = mappingOf(steps.expect("mapWrg", c.vectorWidth > 0 ? "vectorize" : "tile"), parsed);
  } else if (first.name == "stream") {
    noArguments(first);
    c.recipe = Recipe::Stream;
    c.mapping = mappingOf(steps.expect("mapGlb", "stream"), parsed);
  } else {
    fail(first.position, "expected a lowering (mapGlb, vectorize, tile, coarsen, stream or streamLocal), found '" +
                             shown(first.name) + "'");
  }
}

/// One launch or codegen step (wg, specialise, noinlineBorder, splitBorder, fastMath, divToMul) into `c`.
void parseLaunchStep(const Step &s, Configuration &c) {
  if (s.name == "wg") {
    expectArguments(s, 1, 3);
    c.local = {1, 1, 1};
    for (size_t d = 0; d < s.args.size(); ++d) {
      if (!s.args[d].name.empty()) fail(s.args[d].position, "wg takes plain numbers, e.g. wg(32,4)");
      c.local[d] = positiveNumber(s.args[d], "wg", 4096);
    }
  } else if (s.name == "specialise") {
    noArguments(s);
    c.specialise = true;
  } else if (s.name == "noinlineBorder") {
    noArguments(s);
    if (!c.specialise) fail(s.position, "noinlineBorder needs specialise before it");
    c.noinlineBorder = true;
  } else if (s.name == "splitBorder") {
    noArguments(s);
    if (!c.specialise) fail(s.position, "splitBorder needs specialise before it");
    c.splitBorder = true;
  } else if (s.name == "fastMath") {
    expectArguments(s, 1, 1);
    auto level = codegen::parseFastMath(s.args[0].value);
    if (!level || !s.args[0].name.empty())
      fail(s.args[0].position,
           "expected " + codegen::fastMathNames("or") + " in fastMath, found '" + shown(s.args[0].value) + "'");
    c.fastMath = *level;
  } else {
    noArguments(s);
    c.divToMul = true;
  }
}

/// The launch and codegen choices, each at most once and in this order.
void parseLaunchSteps(StepCursor &steps, Configuration &c) {
  const std::vector<std::string> order{"wg", "specialise", "noinlineBorder", "splitBorder", "fastMath", "divToMul"};
  size_t allowed = 0;
  while (!steps.atEnd()) {
    const Step &s = steps.take();
    size_t k = 0;
    while (k < order.size() && order[k] != s.name) ++k;
    if (k == order.size() || k < allowed) {
      std::string expected;
      for (size_t j = allowed; j < order.size(); ++j) expected += (expected.empty() ? "" : ", ") + order[j];
      fail(s.position,
           "expected " + (expected.empty() ? std::string("the end of the strategy") : expected) + ", found '" +
               shown(s.name) + "'" +
               (k < order.size()
                    ? " (each step once, in the order wg, specialise, noinlineBorder, splitBorder, fastMath, "
                      "divToMul)"
                    : ""));
    }
    allowed = k + 1;
    parseLaunchStep(s, c);
  }
}

} // namespace

ParsedStrategy parseStrategy(const std::string &text) {
  if (text.size() > 1000)
    throw StrategyError("strategy: the text has " + std::to_string(text.size()) + " characters (at most 1000)");
  StepCursor steps(text, Lexer(text).steps());
  ParsedStrategy parsed;
  parseDerivedSteps(steps, parsed.configuration);
  parseLowering(steps, parsed);
  parseLaunchSteps(steps, parsed.configuration);
  return parsed;
}

Variant variantFromStrategy(const Program &typed, const std::string &text, codegen::Target target) {
  ParsedStrategy parsed = parseStrategy(text);
  Variant variant = makeVariant(typed, parsed.configuration, target);
  // An identity list is the default mapping, which maps the whole nest:
  // mapGlb(x) of a 2D nest would leave y sequential outside x (invalid), not
  // ask for the default.
  if (parsed.configuration.mapping.isDefault() && parsed.mappedDimensions != variant.kernel.dims)
    fail(parsed.mappingPosition, "the mapping names " + std::to_string(parsed.mappedDimensions) +
                                     " dimension(s) but the program's map nest has " +
                                     std::to_string(variant.kernel.dims) + " (" +
                                     rewrite::defaultMappingText(variant.kernel.dims) +
                                     "; leave out only inner dimensions, e.g. the outer one alone)");
  return variant;
}

std::string familyOf(const Configuration &configuration) {
  // The last row claiming it: a derived family (timeTiled, fused, mapping)
  // or vector before the recipe's own family.
  const std::vector<families::Family> &table = families::families();
  for (auto row = table.rbegin(); row != table.rend(); ++row)
    if (row->member(configuration)) return row->name;
  return rewrite::recipeName(configuration.recipe);
}

} // namespace liftcc::explore
