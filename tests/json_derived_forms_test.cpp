// The derived forms mapN, padN, slideN and zipN of the JSON format: the
// reader expands them to exactly the IR the C++ API builds, the writer uses
// them wherever that IR matches (and writes the 1D compositions with
// `expanded`), and errors inside them name the pointer of the derived node.

#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/json/derived_forms.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "primitives/api.h"
#include "tests/liftc_process.h"
#include "tests/test_support.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <set>
#include <string>

namespace liftcc {
namespace {

size_t lineCount(const std::string &text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

const char *kHeader = R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}, {"name": "M", "min": 3}],
  "userFuns": {"add": {"params": [{"name": "a", "type": "float"}, {"name": "b", "type": "float"}],
                       "returns": "float", "body": "return a + b;"}},
  "inputs": [{"name": "A", "type": "[[float]M]N"}, {"name": "B", "type": "[[float]M]N"}], "body": )";

std::string programWith(const std::string &body) { return kHeader + body + "}"; }

void checkError(const std::string &body, const std::string &pointer, const std::string &message) {
  CAPTURE(body);
  try {
    readProgram(programWith(body));
    FAIL("accepted");
  } catch (const JsonError &e) {
    CHECK(e.pointer() == pointer);
    CHECK_MESSAGE(contains(e.what(), message), e.what());
  }
}

} // namespace

TEST_SUITE("json derived forms") {

TEST_CASE("json derived forms: every example reads back from the compact and the expanded form as the API's IR") {
  size_t compactLines = 0, examples = 0;
  for (const examples::Example &ex : examples::allExamples()) {
    INFO("example ", ex.name);
    Program api = ex.build();
    std::string compact = writeProgram(api);
    std::string expanded = writeProgram(api, {.expanded = true});
    Program fromCompact = readProgram(compact);
    Program fromExpanded = readProgram(expanded);
    CHECK(fromCompact.fun.hash() == api.fun.hash());
    CHECK(fromCompact.fun == api.fun);
    CHECK(fromExpanded.fun.hash() == api.fun.hash());
    CHECK(fromExpanded.fun == api.fun);
    // Identity on the text in either form. (Across the forms only the IR is
    // the same: the writer numbers lambda parameters that share a name in
    // the order it meets them, and the expanded form has more lambdas.)
    CHECK(writeProgram(fromCompact) == compact);
    CHECK(writeProgram(fromExpanded, {.expanded = true}) == expanded);
    CHECK(readProgram(writeProgram(fromExpanded)).fun == api.fun);
    for (const char *form : {"\"mapN\"", "\"padN\"", "\"slideN\"", "\"zipN\"", "\"op\": \"stencil\""})
      CHECK(!contains(expanded, form));
    // Every example is a 1D, 2D or 3D stencil over a slid neighbourhood,
    // written as a stencil form (tests/json_stencil_form_test.cpp) where it
    // has that shape.
    CHECK((contains(compact, "\"op\": \"stencil\"") || contains(compact, "\"slideN\"")));
    CHECK(lineCount(compact) < lineCount(expanded));
    compactLines += lineCount(compact);
    ++examples;
    if (ex.name == "jacobi2d_5pt") CHECK(lineCount(compact) <= 10);
  }
  REQUIRE(examples == 15);
  MESSAGE("examples/json: ", compactLines, " lines in ", examples, " files");
  CHECK(compactLines < 80 * examples);
}

TEST_CASE("json derived forms: each form expands to the API's composition") {
  using namespace api;
  auto N = size("N", 3), M = size("M", 3);
  Expr A = input("A", array(array(f32(), M), N));
  Expr B = input("B", array(array(f32(), M), N));
  Expr add = userFun("add", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, "return a + b;");
  auto sameAs = [&](const std::string &body, const Expr &expected) {
    CAPTURE(body);
    Program read = readProgram(programWith(body));
    Program built = program({A, B}, expected);
    CHECK(read.fun.hash() == built.fun.hash());
    CHECK(read.fun == built.fun);
    // The writer gives the derived form back.
    CHECK(writeProgram(readProgram(writeProgram(built))) == writeProgram(built));
  };
  sameAs(R"({"op": "mapN", "dims": 2, "f": {"lambda": ["p"], "body": {"apply": {"userFun": "add"}, "args": [
              {"op": "get", "index": 0, "in": {"param": "p"}}, {"op": "get", "index": 1, "in": {"param": "p"}}]}},
             "in": {"op": "zipN", "dims": 2, "in": [{"param": "A"}, {"param": "B"}]}})",
         mapN(2, fn([&](Expr p) {
                return apply(add, {get(0, p), get(1, p)});
              }),
              zipN(2, {A, B})));
  sameAs(R"({"op": "slideN", "dims": 2, "size": 3, "step": 1,
             "in": {"op": "padN", "dims": 2, "left": 1, "right": 1, "mode": "wrap", "in": {"param": "A"}}})",
         slideN(2, 3, 1, padN(2, 1, 1, PadMode::Wrap, A)));
  // dims 1 is the plain primitive.
  sameAs(R"({"op": "mapN", "dims": 1, "f": {"lambda": ["r"], "body": {"op": "slideN", "dims": 1, "size": 3, "step": 1,
             "in": {"op": "padN", "dims": 1, "left": 1, "right": 1, "mode": "clamp", "in": {"param": "r"}}}},
             "in": {"param": "A"}})",
         map(fn([](Expr r) { return slide(3, 1, pad(1, 1, PadMode::Clamp, r)); }), A));
}

TEST_CASE("json derived forms: padN takes per-dimension boundaries and the writer keeps them") {
  using namespace api;
  std::string body = R"({"op": "padN", "dims": 2, "left": [1, 2], "right": [0, "M"], "mode": ["clamp", "mirror"],
                         "in": {"param": "A"}})";
  Program read = readProgram(programWith(body));
  auto N = size("N", 3), M = size("M", 3);
  Expr A = input("A", array(array(f32(), M), N));
  Expr B = input("B", array(array(f32(), M), N));
  Expr nested = map(fn([&](Expr row) { return pad(2, M, PadMode::Mirror, row); }), pad(1, 0, PadMode::Clamp, A));
  CHECK(read.fun == program({A, B}, nested).fun);
  std::string written = writeProgram(read);
  CHECK(contains(written, R"("left": [1, 2], "right": [0, "M"], "mode": ["clamp", "mirror"])"));
  CHECK(writeProgram(readProgram(written)) == written);
  Program typed = typeCheck(read);
  CHECK(typed.body().typeOrThrow().str() == "[[float](2*M + 2)](N + 1)");
}

TEST_CASE("json derived forms: the writer never captures a variable into a derived form") {
  using namespace api;
  auto N = size("N"), M = size("M");
  Expr A = input("A", array(array(f32(), M), N));
  Expr add = userFun("add", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, "return a + b;");
  // map(\row. map(\x. add(x, at(0, row)), row), A) looks like mapN(2) but its
  // inner function uses the outer row.
  Expr e =
      map(fn([&](Expr row) { return map(fn([&](Expr x) {
                                          return apply(add, {x, at(0, row)});
                                        }),
                                        row); }, "row"), A);
  Program p = program({A}, e);
  std::string text = writeProgram(p);
  CHECK(!contains(text, "mapN"));
  CHECK(readProgram(text).fun == p.fun);
  // A map over a mapN-shaped function is written as a mapN of higher dims.
  Expr f = fn([&](Expr x) { return apply(add, {x, x}); });
  std::string nested = writeProgram(program({A}, map(fn([&](Expr row) { return map(f, row); }), A)));
  CHECK(contains(nested, R"("op": "mapN", "dims": 2)"));
}

TEST_CASE("json derived forms: errors name the pointer inside the derived node") {
  checkError(R"({"op": "slideN", "dims": 2, "size": "K", "step": 1, "in": {"param": "A"}})", "/body/size",
             "unknown size variable 'K'");
  checkError(R"({"op": "slideN", "dims": 2, "sise": 3, "step": 1, "in": {"param": "A"}})", "/body/sise",
             "unknown field \"sise\" for slideN (expected: dims, size, step, in)");
  checkError(R"({"op": "slideN", "size": 3, "step": 1, "in": {"param": "A"}})", "/body", "missing field \"dims\"");
  checkError(R"({"op": "mapN", "dims": 0, "f": {"userFun": "add"}, "in": {"param": "A"}})", "/body/dims",
             "mapN: dims must be between 1 and 16, found 0");
  checkError(R"({"op": "mapN", "dims": 1000, "f": {"userFun": "add"}, "in": {"param": "A"}})", "/body/dims",
             "between 1 and 16");
  checkError(R"({"op": "mapN", "dims": "2", "f": {"userFun": "add"}, "in": {"param": "A"}})", "/body/dims",
             "expected an integer");
  checkError(R"({"op": "mapN", "dims": 2, "f": {"lambda": ["x"], "body": {"op": "slde"}}, "in": {"param": "A"}})",
             "/body/f/body/op", "unknown primitive \"slde\"");
  checkError(R"({"op": "padN", "dims": 2, "left": [1, 1, 1], "right": 1, "mode": "clamp", "in": {"param": "A"}})",
             "/body/left", "padN: expected 2 entries (one per dimension, outermost first), found 3");
  checkError(R"({"op": "padN", "dims": 2, "left": [1, "Q"], "right": 1, "mode": "clamp", "in": {"param": "A"}})",
             "/body/left/1", "unknown size variable 'Q'");
  checkError(R"({"op": "padN", "dims": 2, "left": 1, "right": 1, "mode": ["clamp", "edge"], "in": {"param": "A"}})",
             "/body/mode/1", "unknown pad mode \"edge\"");
  checkError(R"({"op": "zipN", "dims": 2, "in": []})", "/body/in", "zipN: expected a non-empty array of inputs");
  checkError(R"({"op": "zipN", "dims": 2, "in": [{"param": "A"}, {"param": "C"}]})", "/body/in/1/param",
             "unknown parameter \"C\"");
}

TEST_CASE("json derived forms: the compact form computes what the expanded form computes") {
  // Interpreting both reads of Jacobi2D on the same input gives the same grid
  // (the IR is equal, so this guards the test above against a vacuous ==).
  // (examples/json/jacobi2d_5pt.json is a stencil form now: its former, derived-form text.)
  std::string text = test::readFile(test::sourceDir() / "tests" / "data" / "long_forms" / "jacobi2d_5pt.json");
  Program compact = typeCheck(readProgram(text));
  Program expanded = typeCheck(readProgram(writeProgram(compact, {.expanded = true})));
  std::map<std::string, int64_t> sizes{{"N", 5}, {"M", 4}};
  std::vector<Scalar> grid;
  for (int i = 0; i < 20; ++i) grid.push_back(Scalar::ofFloat(static_cast<float>(i * i % 7)));
  Value in = Value::fromFlat(compact.inputs()[0].typeOrThrow(), sizes, grid);
  Value a = interpret(compact, sizes, {in}), b = interpret(expanded, sizes, {in});
  CHECK(!compareValues(a, b, {0, 0}));
  CHECK(contains(text, "\"slideN\""));
}

TEST_CASE("json derived forms: docs/program.schema.json lists every derived form with its fields") {
  auto schema = nlohmann::json::parse(test::readFile(test::sourceDir() / "docs" / "program.schema.json"));
  const auto &variants = schema["$defs"]["derivedForm"]["oneOf"];
  REQUIRE(variants.size() == derivedForms().size() + 1); // and the stencil form, last
  for (const DerivedFormInfo &info : derivedForms()) {
    CAPTURE(info.name);
    const nlohmann::json *found = nullptr;
    for (const auto &v : variants)
      if (v["properties"]["op"]["const"] == std::string(info.name)) found = &v;
    REQUIRE(found != nullptr);
    std::set<std::string> expected{"op"}, actual;
    for (std::string_view f : info.fields) expected.insert(std::string(f));
    for (const auto &[key, value] : (*found)["properties"].items()) actual.insert(key);
    CHECK(actual == expected);
    CHECK((*found)["properties"]["dims"]["maximum"] == kMaxDerivedDims);
    CHECK(!opByName(info.name)); // a derived form is never a primitive
  }
  CHECK(variants.back()["properties"]["op"]["const"] == std::string(kStencilFormName));
  CHECK(!opByName(kStencilFormName));
  bool referenced = false;
  for (const auto &alternative : schema["$defs"]["expr"]["oneOf"])
    referenced = referenced || alternative.value("$ref", "") == "#/$defs/derivedForm";
  CHECK(referenced);
}

TEST_CASE("json derived forms: the README's tutorial stencil reads, type-checks and computes its average") {
  std::string readme = test::readFile(test::sourceDir() / "README.md");
  size_t marker = readme.find("<!-- tutorial: laplace2d.json");
  REQUIRE(marker != std::string::npos);
  size_t begin = readme.find("```json\n", marker), end = readme.find("```\n", begin + 8);
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  std::string text = readme.substr(begin + 8, end - begin - 8);
  Program typed = typeCheck(readProgram(text));
  CHECK(typed.body().typeOrThrow().str() == "[[float]M]N");
  const int64_t n = 4, m = 5;
  std::map<std::string, int64_t> sizes{{"N", n}, {"M", m}};
  std::vector<Scalar> grid;
  for (int64_t i = 0; i < n * m; ++i) grid.push_back(Scalar::ofFloat(static_cast<float>((i * 7) % 11)));
  Value out = interpret(typed, sizes, {Value::fromFlat(typed.inputs()[0].typeOrThrow(), sizes, grid)});
  // Periodic borders: the neighbours wrap around.
  auto at = [&](int64_t y, int64_t x) { return grid[static_cast<size_t>(((y + n) % n) * m + (x + m) % m)].asFloat(); };
  std::vector<Scalar> expected;
  for (int64_t y = 0; y < n; ++y)
    for (int64_t x = 0; x < m; ++x)
      expected.push_back(Scalar::ofFloat(0.25f * (at(y - 1, x) + at(y, x - 1) + at(y, x + 1) + at(y + 1, x))));
  auto mismatch = compareValues(Value::fromFlat(typed.body().typeOrThrow(), sizes, expected), out, {1e-6, 1e-6});
  CHECK_MESSAGE(!mismatch, *mismatch);
}

TEST_CASE("json derived forms: liftc rewrite --json writes the program, --expanded its 1D compositions") {
  std::string path = (test::sourceDir() / "examples" / "json" / "jacobi2d_5pt.json").string();
  test::LiftcRun compact = test::runLiftc("rewrite " + test::shellQuote(path) + " --json");
  REQUIRE_MESSAGE(compact.status == 0, compact.output);
  CHECK(compact.output == test::readFile(path)); // the committed file is the writer's own output
  test::LiftcRun expanded = test::runLiftc("rewrite " + test::shellQuote(path) + " --json --expanded");
  REQUIRE_MESSAGE(expanded.status == 0, expanded.output);
  CHECK(!contains(expanded.output, "\"slideN\""));
  CHECK(contains(expanded.output, "\"transpose\""));
  CHECK(readProgram(expanded.output).fun == readProgram(compact.output).fun);
  test::LiftcRun misuse = test::runLiftc("rewrite " + test::shellQuote(path) + " --expanded");
  CHECK(misuse.status == 2);
  CHECK(contains(misuse.output, "--expanded needs --json or -o"));
}

} // TEST_SUITE("json derived forms")

} // namespace liftcc
