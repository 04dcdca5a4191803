// The kernel IR's common-index pass (codegen/kernel_ir_passes.h,
// nameCommonIndices) on hand-built statement lists with index holes
// (codegen/index_holes.h), and on generated kernels: a base shared by
// several accesses is declared once before its first use, accesses read it
// with their offsets, bases that read a written variable keep their text,
// and a hole no pass named prints as the index it stands for.

#include "codegen/generate.h"
#include "codegen/index_holes.h"
#include "codegen/kernel_ir_passes.h"
#include "codegen/kernel_ir_print.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "rewrite/recipes.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <string>

namespace liftcc {

using namespace codegen::kir;

namespace {

std::string hole(const std::string &name, const std::string &base, int64_t offset, const std::string &full) {
  return holeText({name, "int", base, offset, full});
}
Stmt assign(const std::string &target, const std::string &value) { return {Assign{target, value, ""}}; }
std::string opencl(const Stmts &s) { return print(s, codegen::Dialect(codegen::Target::OpenCL)); }

} // namespace

TEST_CASE("kernel ir: a base that two accesses share is named once, before its first use") {
  std::string left = "A[" + hole("idx_0", "x + 8*y", -1, "x + 8*y - 1") + "]";
  std::string right = "A[" + hole("idx_0", "x + 8*y", 1, "x + 8*y + 1") + "]";
  std::string centre = "out[" + hole("idx_0", "x + 8*y", 0, "x + 8*y") + "]";
  Stmts body{{Let{"int", "x", "get_global_id(0)"}},
             {Let{"int", "y", "get_global_id(1)"}},
             assign(centre, left + " + " + right)};
  CHECK(opencl(nameCommonIndices(body)) == "const int x = get_global_id(0);\n"
                                           "const int y = get_global_id(1);\n"
                                           "const int idx_0 = x + 8*y;\n"
                                           "out[idx_0] = A[idx_0 - 1] + A[idx_0 + 1];\n");
  SUBCASE("unnamed, every hole prints as its index") {
    CHECK(opencl(body) == "const int x = get_global_id(0);\n"
                          "const int y = get_global_id(1);\n"
                          "out[x + 8*y] = A[x + 8*y - 1] + A[x + 8*y + 1];\n");
  }
  SUBCASE("simplify() applies the pass") {
    CHECK(opencl(simplify(body).statements) == opencl(nameCommonIndices(body)));
  }
}

TEST_CASE("kernel ir: one use keeps its text; a named base serves the lists nested after it") {
  std::string once = "A[" + hole("idx_1", "4*y", 2, "4*y + 2") + "]";
  std::string first = "B[" + hole("idx_0", "x + 8*y", 0, "x + 8*y") + "]";
  std::string second = "B[" + hole("idx_0", "x + 8*y", 8, "x + 8*y + 8") + "]";
  std::string inner = "B[" + hole("idx_0", "x + 8*y", 16, "x + 8*y + 16") + "]";
  Stmts body{assign("a", once),
             assign("b", first),
             assign("c", second),
             {If{"x < 8", Stmts{assign("d", inner)}, std::nullopt}}};
  CHECK(opencl(nameCommonIndices(body)) == "a = A[4*y + 2];\n"
                                           "const int idx_0 = x + 8*y;\n"
                                           "b = B[idx_0];\n"
                                           "c = B[idx_0 + 8];\n"
                                           "if (x < 8) {\n"
                                           "  d = B[idx_0 + 16];\n"
                                           "}\n");
}

TEST_CASE("kernel ir: a base that reads a variable some statement writes is never named") {
  // acc and k change between the accesses: a name declared at the first
  // would hold a stale value at the second.
  std::string a0 = "A[" + hole("idx_0", "k + 8*y", 0, "k + 8*y") + "]";
  std::string a1 = "A[" + hole("idx_0", "k + 8*y", 1, "k + 8*y + 1") + "]";
  Stmts body{{Let{"int", "k", "0", false}}, assign("acc", a0), assign("k", "k + 1"), assign("acc", "acc + " + a1)};
  CHECK(opencl(nameCommonIndices(body)) == "int k = 0;\n"
                                           "acc = A[k + 8*y];\n"
                                           "k = k + 1;\n"
                                           "acc = acc + A[k + 8*y + 1];\n");
}

TEST_CASE("kernel ir: a nested list names its own bases; they do not leak out of its scope") {
  std::string i0 = "A[" + hole("idx_0", "4*j + x", 0, "4*j + x") + "]";
  std::string i1 = "A[" + hole("idx_0", "4*j + x", 1, "4*j + x + 1") + "]";
  Stmts body{{For{"int", "j", "0", "4", "1", Stmts{assign("s", i0 + " + " + i1)}}}};
  CHECK(opencl(nameCommonIndices(body)) == "for (int j = 0; j < 4; j++) {\n"
                                           "  const int idx_0 = 4*j + x;\n"
                                           "  s = A[idx_0] + A[idx_0 + 1];\n"
                                           "}\n");
}

TEST_CASE("kernel ir: generated stencils read their window through one named base") {
  // Jacobi 2D, plain and specialised: every tap of the interior is the
  // centre's base plus a constant, so the kernel names it once.
  const examples::Example &ex = examples::findExample("jacobi2d_5pt");
  std::map<std::string, int64_t> sizes{{"N", 128}, {"M", 128}};
  Program typed = typeCheck(ex.build(), sizes);
  Program plain = rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {8, true});
  for (codegen::Target target : {codegen::Target::OpenCL, codegen::Target::CUDA}) {
    codegen::CodegenOptions options;
    options.specialiseBoundaries = true;
    options.localSize = {16, 4, 1}; // work-groups wholly inside: an interior code
    codegen::Kernel kernel = codegen::generateKernel(plain, target, options);
    CAPTURE(kernel.source);
    CHECK(kernel.source.find("const int idx_") != std::string::npos);
    CHECK(kernel.source.find(" - 128]") != std::string::npos); // the row above, through the name
    CHECK(kernel.source.find('\x01') == std::string::npos);    // no hole left unspelled
  }
}

} // namespace liftcc
