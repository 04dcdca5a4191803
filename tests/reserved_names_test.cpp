// Issue #34, class 8: the names liftcc generates into kernels are reserved
// (core/cfun/reserved.h). An input or user function named id_float had passed
// check, compile and run --opt plain, then made --opt local and --opt
// coarsened fail over a name the user never wrote (and shrunk explorations).
// Now the program is refused up front, naming the identifier and why; the
// names the generator draws fresh (gid0_0, acc_1, out) stay free to use.

#include "codegen/generate.h"
#include "core/cfun/errors.h"
#include "core/cfun/function.h"
#include "core/cfun/reserved.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "rewrite/recipes.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"
#include "tests/test_support.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <fstream>

namespace liftcc {
namespace {

using json = nlohmann::json;

json jacobi2d() { return json::parse(test::readFile(test::sourceDir() / "tests" / "data" / "long_forms" / "jacobi2d_5pt.json")); }

/// jacobi2d with its input, user function or a local of it renamed.
json withInput(const std::string &name) {
  json p = jacobi2d();
  p["inputs"][0]["name"] = name;
  p["body"]["in"]["in"]["in"]["param"] = name;
  return p;
}
json withUserFun(const std::string &name, const json &definition) {
  json p = jacobi2d();
  p["userFuns"] = {{name, definition}};
  p["body"]["f"]["body"]["apply"]["userFun"] = name;
  return p;
}
json withUserFun(const std::string &name) { return withUserFun(name, jacobi2d()["userFuns"]["jacobi5"]); }

void expectRefused(const json &program, const std::string &pointer, const std::vector<std::string> &pieces) {
  try {
    readProgram(program.dump());
    FAIL("accepted");
  } catch (const JsonError &e) {
    CHECK_MESSAGE(e.pointer() == pointer, e.what());
    for (const std::string &piece : pieces)
      CHECK_MESSAGE(std::string(e.what()).find(piece) != std::string::npos, e.what());
  }
}

Program lowered(const Program &program, rewrite::Recipe recipe) {
  return rewrite::applyRecipe(typeCheck(program, {{"N", 64}, {"M", 64}}), recipe);
}

TEST_CASE("reserved: an input or user function named like the generated identity functions is refused") {
  const std::string why = "reserved for the identity function liftcc generates";
  expectRefused(withInput("id_float"), "/inputs/0/name", {"input name 'id_float'", why});
  expectRefused(withInput("id_double"), "/inputs/0/name", {"'id_double'", why});
  expectRefused(withUserFun("id_float"), "/userFuns/id_float", {"user function name 'id_float'", why});
  expectRefused(withUserFun("id_int"), "/userFuns/id_int", {"'id_int'", why});
  json sizes = jacobi2d();
  sizes["sizes"][0]["name"] = "id_bool";
  expectRefused(sizes, "/sizes/0", {"size name 'id_bool'", why});
}

TEST_CASE("reserved: the liftcc_ prefix is refused for every name a program gives") {
  const std::string why = "uses the prefix liftcc_";
  expectRefused(withInput("liftcc_A"), "/inputs/0/name", {"'liftcc_A'", why});
  expectRefused(withUserFun("liftcc_border_jacobi5"), "/userFuns/liftcc_border_jacobi5", {why});
  json param = jacobi2d();
  param["userFuns"]["jacobi5"]["params"][0]["name"] = "liftcc_min";
  param["userFuns"]["jacobi5"]["body"] = "return liftcc_min + w + c + e + s;";
  expectRefused(param, "/userFuns/jacobi5/body", {"parameter 1 of 'jacobi5'", "'liftcc_min'", why});
  json local = jacobi2d();
  local["userFuns"]["jacobi5"]["body"] = "float id_float = n + w; return id_float + c + e + s;";
  expectRefused(local, "/userFuns/jacobi5/body", {"'id_float'", "reserved for the identity function"});
  // The C++ API's kernels check the same names.
  CHECK_THROWS_WITH_AS(
      cfun::Function::compile("f", {{"liftcc_x", ScalarKind::Float}}, ScalarKind::Float, "return liftcc_x;"),
      doctest::Contains("uses the prefix liftcc_"), cfun::CFunError);
}

TEST_CASE("reserved: liftc check refuses the issue's program with the identifier and why") {
  test::TempDir dir;
  std::ofstream(dir.path() / "p.json") << withInput("id_float").dump();
  test::LiftcRun run = test::runLiftc("check " + test::shellQuote((dir.path() / "p.json").string()));
  CHECK_MESSAGE(run.status == 1, run.output);
  CHECK_MESSAGE(run.output.rfind("liftc: error: ", 0) == 0, run.output);
  CHECK_MESSAGE(run.output.find("p.json: /inputs/0/name: input name 'id_float' is reserved for the identity "
                                "function liftcc generates") != std::string::npos,
                run.output);
}

TEST_CASE("reserved: the generated identity itself reads back, so rewritten programs round-trip") {
  Program local = lowered(readProgram(jacobi2d().dump()), rewrite::Recipe::Local);
  std::string written = writeProgram(local);
  REQUIRE(written.find("\"id_float\"") != std::string::npos);
  Program reread = readProgram(written);
  CHECK(writeProgram(reread) == written);
  // A user's identical definition is the same function, so it is no conflict either.
  json identity = {{"params", {{{"name", "x"}, {"type", "float"}}}}, {"returns", "float"}, {"body", "return x;"}};
  json p = jacobi2d();
  p["userFuns"]["id_float"] = identity;
  CHECK_NOTHROW(readProgram(p.dump()));
}

TEST_CASE("reserved: names the generator draws fresh stay free for the program's own names") {
  // Inputs and user functions with the names of generated temporaries,
  // outputs and vector versions compile in every recipe.
  json p = withInput("gid0_0");
  p["userFuns"] = {{"acc_0", jacobi2d()["userFuns"]["jacobi5"]}};
  p["body"]["f"]["body"]["apply"]["userFun"] = "acc_0";
  p["sizes"][1]["name"] = "out";
  p["inputs"][0]["type"] = "[[float]out]N";
  Program program = readProgram(p.dump());
  for (rewrite::Recipe recipe :
       {rewrite::Recipe::Plain, rewrite::Recipe::Tiled, rewrite::Recipe::Local, rewrite::Recipe::Coarsened}) {
    CAPTURE(rewrite::recipeName(recipe));
    Program typed = typeCheck(program, {{"N", 64}, {"out", 64}});
    codegen::Kernel kernel;
    CHECK_NOTHROW(kernel = codegen::generateKernel(rewrite::applyRecipe(typed, recipe), codegen::Target::OpenCL));
    // The input keeps its name; the generator's own index is another.
    CHECK(kernel.source.find("restrict gid0_0") != std::string::npos);
  }
}

TEST_CASE("reserved: every example still loads") {
  for (const auto &file : test::exampleJsonFiles()) {
    CAPTURE(file);
    CHECK_NOTHROW(readProgram(test::readFile(file)));
  }
}

} // namespace
} // namespace liftcc
