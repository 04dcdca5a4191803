// The kernel IR (codegen/kernel_ir.h): its passes on small hand-built
// statement lists, its printer in both dialects, and a generated kernel
// without nested empty scopes.

#include "codegen/generate.h"
#include "codegen/kernel_ir_passes.h"
#include "codegen/kernel_ir_print.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "rewrite/recipes.h"

#include <doctest/doctest.h>

namespace liftcc {

using namespace codegen::kir;

namespace {

Stmt assign(const std::string &target, const std::string &value, const std::string &guard = "") {
  return {Assign{target, value, guard}};
}
Stmt let(const std::string &name, const std::string &init) { return {Let{"int", name, init}}; }
Stmt block(Stmts body) { return {Block{std::move(body)}}; }

/// Whether `source` matches `{\n *{`: a scope opened right after another.
bool nestsScopes(const std::string &source) {
  for (size_t at = source.find("{\n"); at != std::string::npos; at = source.find("{\n", at + 1)) {
    size_t next = source.find_first_not_of(' ', at + 2);
    if (next != std::string::npos && source[next] == '{') return true;
  }
  return false;
}

std::string opencl(const Stmts &s) { return print(s, codegen::Dialect(codegen::Target::OpenCL)); }

} // namespace

TEST_CASE("kernel ir: flattening removes empty blocks and blocks that declare nothing") {
  // { { { out[0] = 1; } } } -> out[0] = 1;
  Stmts nested{block({block({block({assign("out[0]", "1")})})}), block({})};
  CHECK(flattenBlocks(nested) == Stmts{assign("out[0]", "1")});
  // A block declaring a name keeps its braces where statements follow it ...
  Stmts scoped{block({let("x", "1"), assign("out[x]", "x")}), assign("out[0]", "2")};
  CHECK(flattenBlocks(scoped) == scoped);
  // ... and loses them where it ends its list, unless a name would be declared twice.
  Stmts last{let("y", "0"), block({let("x", "1"), assign("out[x]", "y")})};
  CHECK(flattenBlocks(last) == Stmts{let("y", "0"), let("x", "1"), assign("out[x]", "y")});
  Stmts clash{let("x", "0"), assign("out[x]", "x"), block({let("x", "1"), assign("out[x]", "x")})};
  CHECK(flattenBlocks(clash) == clash);
  // Raw text may declare a name: its block stays.
  Stmts opaque{block({{Raw{"int x = 1;"}}}), block({{Raw{"int x = 2;"}}})};
  CHECK(flattenBlocks(opaque) == opaque);
  // Inside loops and branches too.
  Stmts loop{{For{"int", "i", "0", "N", "1", {block({block({assign("out[i]", "i")})})}}}};
  CHECK(nestsScopes(opencl(loop)));
  CHECK(opencl(flattenBlocks(loop)) == "for (int i = 0; i < N; i++) {\n  out[i] = i;\n}\n");
}

TEST_CASE("kernel ir: constant conditions fold") {
  Stmts s{{If{"1", {assign("a", "1")}, std::nullopt}},
          {If{"0", {assign("b", "1")}, Stmts{assign("c", "1")}}},
          {If{"0", {assign("d", "1")}, std::nullopt}},
          assign("e", "1", "1"),
          assign("f", "1", "0"),
          assign("g", "1", "i < N")};
  CHECK(opencl(simplify(s).statements) == "a = 1;\nc = 1;\ne = 1;\nif (i < N) g = 1;\n");
  REQUIRE(passes().size() == 5);
  CHECK(passes()[0].name == "fold constant conditions");
  CHECK(passes()[1].name == "flatten blocks");
  CHECK(passes()[2].name == "choose index width");
  CHECK(passes()[3].name == "name common indices");
  CHECK(passes()[4].name == "cap expression size");
}

TEST_CASE("kernel ir: an expression longer than the cap is refused, wherever it stands") {
  const std::string longest(kMaxExpressionBytes, 'a');
  CHECK_NOTHROW(capExpressionSize(Body{Stmts{assign("out[0]", longest)}}));
  const std::string tooLong = longest + "b";
  CHECK_THROWS_WITH_AS(simplify({assign("out[0]", tooLong)}), doctest::Contains("exceeds 1024 KiB of C source"),
                       codegen::CodegenError);
  // In a nested statement, a guard, a loop bound.
  CHECK_THROWS_AS(capExpressionSize(Body{Stmts{{For{"int", "i", "0", "N", "1", {assign("a", "1", tooLong)}}}}}),
                  codegen::CodegenError);
  CHECK_THROWS_AS(capExpressionSize(Body{Stmts{{For{"int", "i", "0", tooLong, "1", {}}}}}), codegen::CodegenError);
}

TEST_CASE("kernel ir: the printer spells each dialect, one statement a line") {
  Stmts s{{ArrayDecl{ArraySpace::Local, ScalarKind::Float, "tile", "64"}},
          {ArrayDecl{ArraySpace::Private, ScalarKind::Double, "win", "3"}},
          {Let{"int", "gid", "get_global_id(0)"}},
          {Let{"float", "acc", "0.0f", false}},
          {For{"int", "j", "0", "N", "4", {assign("acc", "acc + win[0]")}}},
          {Barrier{}},
          {If{"gid < N", {{VectorStore{"float4", 4, "out", "4 * gid", "v"}}}, Stmts{{Raw{"/* border */"}}}}}};
  CHECK(print(s, codegen::Dialect(codegen::Target::OpenCL), 1) == "  local float tile[64];\n"
                                                                  "  double win[3];\n"
                                                                  "  const int gid = get_global_id(0);\n"
                                                                  "  float acc = 0.0f;\n"
                                                                  "  for (int j = 0; j < N; j += 4) {\n"
                                                                  "    acc = acc + win[0];\n"
                                                                  "  }\n"
                                                                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                                                                  "  if (gid < N) {\n"
                                                                  "    vstore4(v, 0, out + (4 * gid));\n"
                                                                  "  } else {\n"
                                                                  "    /* border */\n"
                                                                  "  }\n");
  CHECK(print(s, codegen::Dialect(codegen::Target::CUDA)) == "__shared__ float tile[64];\n"
                                                             "double win[3];\n"
                                                             "const int gid = get_global_id(0);\n"
                                                             "float acc = 0.0f;\n"
                                                             "for (int j = 0; j < N; j += 4) {\n"
                                                             "  acc = acc + win[0];\n"
                                                             "}\n"
                                                             "__syncthreads();\n"
                                                             "if (gid < N) {\n"
                                                             "  *(float4 *)(out + (4 * gid)) = v;\n"
                                                             "} else {\n"
                                                             "  /* border */\n"
                                                             "}\n");
}

TEST_CASE("kernel ir: renaming calls renames calls only, in every nested statement") {
  // f and g are called; `f` alone, `ff(` and `f_v4(` are other names.
  const std::map<std::string, std::string> border{{"f", "liftcc_border_f"}, {"g", "liftcc_border_g"}};
  Stmts s{{Let{"float", "x", "f(A[i], g(f))"}},
          {If{"i < N", {{Assign{"out[i]", "ff(x) + f_v4(x) + f (x)", ""}}}, Stmts{{Assign{"out[i]", "g(x)", ""}}}}},
          {For{"int", "j", "0", "N", "1", {{Assign{"acc", "acc + f(B[j])", ""}}}}}};
  CHECK(opencl(renameCalls(s, border)) == "const float x = liftcc_border_f(A[i], liftcc_border_g(f));\n"
                                          "if (i < N) {\n"
                                          "  out[i] = ff(x) + f_v4(x) + f (x);\n"
                                          "} else {\n"
                                          "  out[i] = liftcc_border_g(x);\n"
                                          "}\n"
                                          "for (int j = 0; j < N; j++) {\n"
                                          "  acc = acc + liftcc_border_f(B[j]);\n"
                                          "}\n");
}

TEST_CASE("kernel ir: generated kernels nest no empty scopes") {
  const examples::Example &ex = examples::findExample("jacobi2d_5pt");
  Program typed = typeCheck(ex.build(), {{"N", 32}, {"M", 32}});
  for (rewrite::Recipe recipe : {rewrite::Recipe::Plain, rewrite::Recipe::Tiled, rewrite::Recipe::Local})
    for (codegen::Target target : {codegen::Target::OpenCL, codegen::Target::CUDA}) {
      codegen::Kernel kernel = codegen::generateKernel(rewrite::applyRecipe(typed, recipe, {8, true}), target);
      CAPTURE(kernel.source);
      CHECK_FALSE(nestsScopes(kernel.source));
      CHECK(kernel.source.find("  {\n") == std::string::npos);
    }
}

} // namespace liftcc
