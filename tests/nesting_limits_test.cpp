// Issue #34, class 1: every recursive reader of a program (JSON nesting,
// program expressions, types, size expressions, user-function bodies) refuses
// input nested or long beyond core/input_limits.h before it recurses, with a
// one-line error naming the place and the limit. Each example of the issue
// (10,000 nested parentheses, 100,000 unary minus, a min( chain, nested
// ternaries, in a pad, an index and a type; a 600-deep program) had ended
// every verb with SIGSEGV.

#include "codegen/generate.h"
#include "core/input_limits.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "rewrite/recipes.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <fstream>
#include <string>

namespace liftcc {
namespace {

using json = nlohmann::json;

std::string repeat(const std::string &piece, size_t times) {
  std::string out;
  out.reserve(piece.size() * times);
  for (size_t i = 0; i < times; ++i) out += piece;
  return out;
}

/// A valid program whose pad size, window index and input type can be replaced.
json stencil() {
  return json::parse(R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}],
    "userFuns": {"copy": {"params": [{"name": "x", "type": "float"}], "returns": "float", "body": "return x;"}},
    "inputs": [{"name": "A", "type": "[float]N"}],
    "body": {"op": "mapGlb", "dim": 0,
      "f": {"lambda": ["w"], "body": {"apply": {"userFun": "copy"}, "args": [{"op": "at", "index": 1, "in": {"param": "w"}}]}},
      "in": {"op": "slide", "size": 3, "step": 1,
             "in": {"op": "pad", "left": 1, "right": 1, "mode": "clamp", "in": {"param": "A"}}}}})");
}

/// Reading `text` fails with one short line naming `pointer` and containing `message`.
void expectRefused(const std::string &text, const std::string &pointer, const std::string &message) {
  try {
    readProgram(text);
    FAIL("accepted");
  } catch (const JsonError &e) {
    std::string what = e.what();
    CHECK(e.pointer() == pointer);
    CHECK_MESSAGE(what.find(message) != std::string::npos, what);
    CHECK_MESSAGE(what.find('\n') == std::string::npos, what);
    CHECK_MESSAGE(what.size() < 400, what);
  }
}

json withPad(const std::string &size) {
  json p = stencil();
  p["body"]["in"]["in"]["left"] = size;
  return p;
}
json withIndex(const std::string &index) {
  json p = stencil();
  p["body"]["f"]["body"]["args"][0]["index"] = index;
  return p;
}
json withType(const std::string &type) {
  json p = stencil();
  p["inputs"][0]["type"] = type;
  return p;
}

const std::string kPad = "/body/in/in/left", kIndex = "/body/f/body/args/0/index", kType = "/inputs/0/type";
const std::string kTooLong = "longer than 1024 characters", kTooDeep = "nesting deeper than 200 levels";

/// The issue's constructs, nested `levels` deep.
std::string parens(size_t levels) { return repeat("(", levels) + "1" + repeat(")", levels); }
std::string minus(size_t levels) { return repeat("-", levels) + "1"; }
std::string minChain(size_t levels) { return repeat("min(", levels) + "1" + repeat(", 1)", levels); }
std::string ternaries(size_t levels) { return repeat("N < 2 ? 1 : ", levels) + "1"; }

TEST_CASE("nesting: the issue's size expressions are refused in a pad, an index and a type") {
  for (auto nested : {parens, minus, minChain, ternaries}) {
    const std::string text = nested(10000), medium = nested(300); // 20 KB or more; 301 to 3601 characters
    CAPTURE(medium.substr(0, 20));
    expectRefused(withPad(text).dump(), kPad, "bad size expression: " + kTooLong);
    expectRefused(withIndex(text).dump(), kIndex, kTooLong);
    expectRefused(withType("[float](" + text + ")").dump(), kType, "type longer than 4096 characters");
    expectRefused(withType("[float](" + medium + ")").dump(), kType, medium.size() > 1024 ? kTooLong : kTooDeep);
  }
}

TEST_CASE("nesting: short but deep size expressions are refused before the parser recurses") {
  // Within the length limit, each construct that nests is counted.
  for (const std::string &text : {repeat("(", 300) + "1" + repeat(")", 300), repeat("-", 300) + "1",
                                  repeat("- +", 150) + "N", "N" + repeat("/N", 300), "N" + repeat("%N", 300)}) {
    CAPTURE(text.substr(0, 20));
    expectRefused(withPad(text).dump(), kPad, kTooDeep);
    expectRefused(withIndex(text).dump(), kIndex, kTooDeep);
    expectRefused(withType("[float](" + text + ")").dump(), kType, kTooDeep);
  }
  // Up to the limit is fine: 200 parentheses, and long flat sums.
  CHECK_NOTHROW(readProgram(withPad(repeat("(", 200) + "1" + repeat(")", 200)).dump()));
  CHECK_NOTHROW(readProgram(withPad("0" + repeat("+N-N", 200)).dump()));
  CHECK_NOTHROW(typeCheck(readProgram(withIndex(repeat("-", 198) + "1").dump())));
}

TEST_CASE("nesting: deep types are refused with the limit") {
  expectRefused(withType(repeat("[", 10000) + "float" + repeat("]N", 10000)).dump(), kType,
                "type longer than 4096 characters");
  expectRefused(withType(repeat("[", 250) + "float" + repeat("]N", 250)).dump(), kType, kTooDeep);
  expectRefused(withType(repeat("(", 250) + "float" + repeat(")", 250)).dump(), kType, kTooDeep);
}

TEST_CASE("nesting: a user function nested 10,000 levels is refused with the limit") {
  json p = stencil();
  p["userFuns"]["copy"]["body"] = "return " + repeat("(", 10000) + "x" + repeat(")", 10000) + ";";
  expectRefused(p.dump(), "/userFuns/copy/body", "nesting is deeper than 200 levels");
}

/// `depth` maps around the input A.
json deepProgram(int depth) {
  json e = {{"param", "A"}};
  for (int i = 0; i < depth; ++i) e = {{"op", "map"}, {"f", {{"userFun", "copy"}}}, {"in", e}};
  json p = stencil();
  p["body"] = e;
  return p;
}

TEST_CASE("nesting: a program 600 levels deep is refused, and the message says why") {
  try {
    readProgram(deepProgram(600).dump());
    FAIL("accepted");
  } catch (const JsonError &e) {
    CHECK_MESSAGE(std::string(e.what()).find("nesting deeper than 512 levels") != std::string::npos, e.what());
    CHECK(e.pointer().rfind("/body/in/in/", 0) == 0);
  }
  // Derived forms count the levels they expand to (two per dimension).
  json e = {{"param", "A"}};
  for (int i = 0; i < 40; ++i) e = {{"op", "mapN"}, {"dims", 8}, {"f", {{"userFun", "copy"}}}, {"in", e}};
  json p = stencil();
  p["body"] = e;
  CHECK_THROWS_WITH(readProgram(p.dump()), doctest::Contains("nesting deeper than 512 levels"));
  CHECK_NOTHROW(readProgram(deepProgram(200).dump()));
}

TEST_CASE("nesting: the deepest accepted program goes through every pass") {
  // 512 levels: the type checker, the rewrites and the generator recurse
  // through all of them without exhausting the stack.
  Program typed = typeCheck(readProgram(deepProgram(limits::kMaxProgramNesting).dump()), {{"N", 64}});
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain), codegen::Target::OpenCL);
  CHECK(kernel.source.find("copy(") != std::string::npos);
  CHECK_FALSE(writeProgram(typed).empty());
}

TEST_CASE("nesting: JSON nested 100,000 levels is refused while it is parsed") {
  std::string body = repeat("[", 100000) + repeat("]", 100000);
  json p = stencil();
  p["body"] = "HOLE";
  std::string text = p.dump();
  text.replace(text.find("\"HOLE\""), 6, body);
  try {
    readProgram(text);
    FAIL("accepted");
  } catch (const JsonError &e) {
    CHECK_MESSAGE(std::string(e.what()).find("nesting deeper than " + std::to_string(limits::kMaxJsonNesting)) !=
                      std::string::npos,
                  std::string(e.what()).substr(0, 300));
  }
}

TEST_CASE("nesting: every accepted deep expression goes through the type checker and the generator") {
  // The deepest accepted size expressions reach every recursive pass (the
  // simplifier, the range analysis, the printer) without exhausting the stack.
  json p = withIndex(parens(199));
  std::string selects; // N < 4 ? 4 : N < 5 ? 5 : ... : 1, which no simplification removes
  for (int i = 4; i < 120; ++i) selects += "N<" + std::to_string(i) + "?" + std::to_string(i) + ":";
  p["body"]["in"]["in"]["left"] = selects + "1";
  Program typed = typeCheck(readProgram(p.dump()), {{"N", 64}});
  CHECK_NOTHROW(codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain), codegen::Target::OpenCL));
  Program symbolic = typeCheck(readProgram(p.dump()));
  CHECK_NOTHROW(
      codegen::generateKernel(rewrite::applyRecipe(symbolic, rewrite::Recipe::Plain), codegen::Target::OpenCL));
}

TEST_CASE("nesting: liftc check and compile print one line naming the file, the place and the limit") {
  test::TempDir dir;
  auto write = [&](const std::string &name, const std::string &text) {
    std::ofstream(dir.path() / name, std::ios::binary) << text;
    return test::shellQuote((dir.path() / name).string());
  };
  struct Case {
    std::string file, verb, expected;
  };
  for (const Case &c :
       {Case{write("parens.json", withPad(parens(10000)).dump()), "check", kTooLong},
        Case{write("minus.json", withIndex(repeat("-", 300) + "1").dump()), "compile", kTooDeep},
        Case{write("type.json", withType(repeat("[", 250) + "float" + repeat("]N", 250)).dump()), "check", kTooDeep},
        Case{write("deep.json", deepProgram(600).dump()), "check", "nesting deeper than 512 levels"},
        Case{write("deep2.json", deepProgram(600).dump()), "compile", "nesting deeper than 512 levels"}}) {
    test::LiftcRun run = test::runLiftc(c.verb + " " + c.file + " --size N=64");
    CAPTURE(c.file);
    // A program the reader refuses is an input error: exit status 1.
    CHECK_MESSAGE(run.status == 1, run.output);
    CHECK_MESSAGE(run.output.rfind("liftc: error: ", 0) == 0, run.output);
    CHECK_MESSAGE(run.output.find('\n') == run.output.size() - 1, run.output);
    CHECK_MESSAGE(run.output.size() < 300, run.output);
    CHECK_MESSAGE(run.output.find(".json: ") != std::string::npos, run.output);
    CHECK_MESSAGE(run.output.find(c.expected) != std::string::npos, run.output);
  }
}

} // namespace
} // namespace liftcc
