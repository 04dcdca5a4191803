// Issue #34, class 1, as a fuzz campaign: random deep and long nestings of
// every recursive reader (size expressions, types, user-function bodies, JSON
// programs) through the library entry points. Each case is either accepted
// (then the passes that recurse over the result run on it too) or refused
// with a clean liftcc error on one line; inputs beyond a limit of
// core/input_limits.h are refused naming that limit, inputs within all limits
// are accepted, and nothing ends in a signal.
//
// LIFTCC_FUZZ_SCALE multiplies the number of cases (default 1, about 2 s under
// ASan; 50 for a long run); LIFTCC_FUZZ_SEED replaces the fixed seed, which
// every failure prints.

#include "core/cfun/errors.h"
#include "core/cfun/function.h"
#include "core/input_limits.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

namespace liftcc {
namespace {

int fuzzScale() {
  const char *text = std::getenv("LIFTCC_FUZZ_SCALE");
  int scale = text ? std::atoi(text) : 1;
  return scale < 1 ? 1 : scale;
}

uint64_t fuzzSeed() {
  const char *text = std::getenv("LIFTCC_FUZZ_SEED");
  return text ? std::strtoull(text, nullptr, 10) : 20261127;
}

/// Text built from the outside in: wrapper k's prefix and suffix enclose
/// everything inside it. Built without recursion, so the generator itself
/// survives any depth.
struct Nesting {
  std::vector<std::string> prefixes, suffixes;
  size_t counted = 0; ///< levels the reader must count down to the innermost atom
  size_t peak = 0;    ///< deeper levels a reader reaches beside that path
  void wrap(std::string prefix, std::string suffix, size_t levels) {
    prefixes.push_back(std::move(prefix));
    suffixes.push_back(std::move(suffix));
    counted += levels;
  }
  /// A level beside the path, `extra` below the last wrapper.
  void besides(size_t extra) { peak = std::max(peak, counted + extra); }
  size_t deepest() const { return std::max(counted, peak); }
  std::string around(const std::string &atom) const {
    std::string out;
    for (const std::string &p : prefixes) out += p;
    out += atom;
    for (auto it = suffixes.rbegin(); it != suffixes.rend(); ++it) out += *it;
    return out;
  }
};

class Fuzzer {
public:
  explicit Fuzzer(uint64_t seed) : rng_(seed) {}

  size_t below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

  /// A depth around `limit`: mostly near it, sometimes far beyond (the issue's 10,000).
  size_t depthAround(size_t limit) {
    switch (below(10)) {
    case 0: return below(limit / 2);
    case 1: return 5000 + below(10000);
    default: return limit - 20 + below(40);
    }
  }

  /// A size expression; every wrapper is a primary, so each counts exactly.
  std::pair<std::string, size_t> sizeExpression() {
    Nesting n;
    size_t levels = depthAround(limits::kMaxTextNesting);
    for (size_t i = 0; i < levels; ++i) {
      switch (below(7)) {
      case 0: n.wrap("(", ")", 1); break;
      case 1: n.wrap("-", "", 1); break;
      case 2: n.wrap("min(", ", N)", 1); break;
      case 3: n.wrap("max(2, ", ")", 1); break;
      case 4: n.wrap("(N < 3 ? ", " : 1)", 2); break;
      case 5: // the division counts one level more, after its first operand
        n.wrap("(", "/N)", 1);
        n.besides(1);
        break;
      default: n.wrap("(1 + ", ")", 1); break;
      }
    }
    return {n.around(below(2) ? "N" : "7"), n.deepest()};
  }

  std::pair<std::string, size_t> type() {
    Nesting n;
    size_t levels = depthAround(limits::kMaxTextNesting);
    for (size_t i = 0; i < levels; ++i) {
      switch (below(3)) {
      case 0: n.wrap("[", "]N", 1); break;
      case 1: n.wrap("(", ", int)", 1); break;
      default: n.wrap("[", "](N+1)", 1); break;
      }
    }
    return {n.around(below(2) ? "float" : "double<4>"), n.counted};
  }

  std::pair<std::string, size_t> userFunctionBody() {
    Nesting n;
    size_t levels = depthAround(cfun::kMaxNesting);
    for (size_t i = 0; i < levels; ++i) {
      switch (below(3)) {
      case 0: n.wrap("(", ")", 1); break;
      case 1: n.wrap("- ", "", 1); break; // "--" would be a decrement
      default: n.wrap("(x + ", ")", 1); break;
      }
    }
    return {"return " + n.around("x") + ";", n.counted};
  }

  struct ProgramCase {
    std::string text;
    size_t programLevels = 0, jsonLevels = 0;
    bool arrayAtom = false;
  };
  ProgramCase program() {
    Nesting n;
    ProgramCase c;
    size_t levels = depthAround(limits::kMaxProgramNesting);
    for (size_t i = 0; i < levels; ++i) {
      switch (below(4)) {
      case 0:
        n.wrap(R"({"op": "map", "f": {"userFun": "copy"}, "in": )", "}", 1);
        c.jsonLevels += 1;
        break;
      case 1:
        n.wrap(R"({"op": "zip", "in": [)", "]}", 1);
        c.jsonLevels += 2;
        break;
      case 2:
        n.wrap(R"({"apply": {"lambda": ["y"], "body": {"param": "y"}}, "args": [)", "]}", 1);
        n.besides(1); // the lambda's body
        c.jsonLevels += 2;
        break;
      default: {
        size_t dims = 1 + below(3);
        n.wrap(R"({"op": "mapN", "dims": )" + std::to_string(dims) + R"(, "f": {"userFun": "copy"}, "in": )", "}",
               2 * dims);
        c.jsonLevels += 1;
      }
      }
    }
    c.programLevels = n.deepest();
    std::string atom = R"({"param": "A"})";
    c.jsonLevels += 2; // the document and the atom
    if (below(5) == 0) {
      size_t arrays = depthAround(limits::kMaxJsonNesting);
      atom = std::string(arrays, '[') + std::string(arrays, ']');
      c.jsonLevels += arrays - 1;
      c.arrayAtom = true;
    }
    c.text = R"({"liftcc": 1, "sizes": ["N"],
      "userFuns": {"copy": {"params": [{"name": "x", "type": "float"}], "returns": "float", "body": "return x;"}},
      "inputs": [{"name": "A", "type": "[float]N"}], "body": )" +
             n.around(atom) + "}";
    return c;
  }

private:
  std::mt19937_64 rng_;
};

bool contains(const std::string &text, const std::string &piece) { return text.find(piece) != std::string::npos; }

/// A limit of a reader, whether the case broke it, and the words of its refusal.
struct Limit {
  bool broken;
  const char *named;
};

/// A refusal is one line (shorter than `maxChars`) naming the first limit
/// in `limits` (the order the reader checks them) that the case broke; a case
/// within every limit must have been accepted, unless `refusalAllowed`.
void checkRefusal(const std::string &what, std::initializer_list<Limit> limits, bool refusalAllowed,
                  size_t maxChars = std::string::npos) {
  const std::string shown = what.substr(0, 400);
  CHECK_MESSAGE(what.find('\n') == std::string::npos, shown);
  CHECK_MESSAGE(what.size() < maxChars, shown);
  for (const Limit &limit : limits)
    if (limit.broken) {
      CHECK_MESSAGE(contains(what, limit.named), shown);
      return;
    }
  if (!refusalAllowed) FAIL_CHECK("refused within the limits: " << shown);
}

const std::map<std::string, arith::Range> kSizes{{"N", arith::Range::atLeast(1)}};

TEST_CASE("fuzz/nesting: size expressions") {
  const uint64_t seed = fuzzSeed();
  Fuzzer fuzz(seed);
  for (int i = 0; i < 300 * fuzzScale(); ++i) {
    auto [text, levels] = fuzz.sizeExpression();
    CAPTURE(seed);
    CAPTURE(i);
    CAPTURE(text.substr(0, 80));
    try {
      arith::Expr e = arith::parse(text, kSizes);
      CHECK(text.size() <= limits::kMaxSizeExpressionChars);
      CHECK(levels <= size_t(limits::kMaxTextNesting));
      // The passes that recurse over the result: printing, ranges, evaluation.
      CHECK_FALSE(e.str().empty());
      (void)arith::provablyNonNegative(e);
      try {
        (void)arith::evaluate(e, {{"N", 5}});
      } catch (const arith::EvalError &) {}
    } catch (const arith::ParseError &error) {
      checkRefusal(error.what(),
                   {{text.size() > limits::kMaxSizeExpressionChars, "longer than 1024 characters"},
                    {levels > size_t(limits::kMaxTextNesting), "nesting deeper than 200 levels"}},
                   /*refusalAllowed=*/false, /*maxChars=*/300);
    }
  }
}

TEST_CASE("fuzz/nesting: types") {
  const uint64_t seed = fuzzSeed() + 1;
  Fuzzer fuzz(seed);
  for (int i = 0; i < 300 * fuzzScale(); ++i) {
    auto [text, levels] = fuzz.type();
    CAPTURE(seed);
    CAPTURE(i);
    CAPTURE(text.substr(0, 80));
    try {
      Type t = parseType(text, kSizes);
      CHECK(text.size() <= limits::kMaxTypeChars);
      CHECK(levels <= size_t(limits::kMaxTextNesting));
      CHECK_FALSE(t.str().empty());
    } catch (const std::invalid_argument &error) {
      checkRefusal(error.what(),
                   {{text.size() > limits::kMaxTypeChars, "longer than 4096 characters"},
                    {levels > size_t(limits::kMaxTextNesting), "nesting deeper than 200 levels"}},
                   /*refusalAllowed=*/false, /*maxChars=*/400);
    }
  }
}

TEST_CASE("fuzz/nesting: user-function bodies") {
  const uint64_t seed = fuzzSeed() + 2;
  Fuzzer fuzz(seed);
  for (int i = 0; i < 100 * fuzzScale(); ++i) {
    auto [body, levels] = fuzz.userFunctionBody();
    CAPTURE(seed);
    CAPTURE(i);
    CAPTURE(body.substr(0, 80));
    try {
      cfun::Function f = cfun::Function::compile("f", {{"x", ScalarKind::Float}}, ScalarKind::Float, body);
      CHECK(levels <= size_t(cfun::kMaxNesting));
      CHECK_FALSE(f.signatureC().empty());
    } catch (const cfun::CFunError &error) {
      // The statement and the return take a few levels of their own: just
      // below the limit either outcome is right, well below it only success.
      checkRefusal(error.what(),
                   {{body.size() > cfun::kMaxBodyBytes, "the limit is"},
                    {levels > size_t(cfun::kMaxNesting), "deeper than 200 levels"}},
                   /*refusalAllowed=*/levels >= size_t(cfun::kMaxNesting) - 10);
    }
  }
}

TEST_CASE("fuzz/nesting: JSON programs") {
  const uint64_t seed = fuzzSeed() + 3;
  Fuzzer fuzz(seed);
  for (int i = 0; i < 40 * fuzzScale(); ++i) {
    Fuzzer::ProgramCase c = fuzz.program();
    CAPTURE(seed);
    CAPTURE(i);
    CAPTURE(c.programLevels);
    CAPTURE(c.jsonLevels);
    try {
      Program program = readProgram(c.text);
      CHECK(c.jsonLevels <= size_t(limits::kMaxJsonNesting));
      CHECK(c.programLevels <= size_t(limits::kMaxProgramNesting));
      CHECK_FALSE(c.arrayAtom);
      // The passes that recurse over the program.
      try {
        (void)typeCheck(program, {{"N", 8}});
      } catch (const Error &) {}
      CHECK_FALSE(writeProgram(program).empty());
    } catch (const JsonError &error) {
      checkRefusal(error.what(),
                   {{c.jsonLevels > size_t(limits::kMaxJsonNesting), "JSON nesting deeper than"},
                    {c.programLevels > size_t(limits::kMaxProgramNesting), "nesting deeper than 512 levels"}},
                   /*refusalAllowed=*/c.arrayAtom);
    }
  }
}

} // namespace
} // namespace liftcc
