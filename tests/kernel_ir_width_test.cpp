// The kernel IR's index-width pass (codegen/kernel_ir_passes.h,
// chooseIndexWidth) on hand-built statement lists with width choices
// (codegen/index_holes.h): 32 bits where every index was proved to fit, else
// 64, every choice spelled for the width chosen (types, built-ins, choices
// nested in index holes), an index hole whose base may not fit named only in a
// 64-bit kernel, and no choice printed unspelled. Generated kernels of both
// widths: tests/robustness_test.cpp ("robustness/index").

#include "codegen/index_holes.h"
#include "codegen/kernel_ir_passes.h"
#include "codegen/kernel_ir_print.h"
#include "core/error.h"

#include <doctest/doctest.h>

#include <string>

namespace liftcc {

using namespace codegen::kir;

namespace {

const std::string kIndexType = choiceText({"int", "long"});
const std::string kGlobalId = choiceText({"(int)get_global_id(0)", "(long)get_global_id(0)"});

/// `min(x, 7)` (32-bit) / `liftcc_min(x, 7)` (64-bit), proved to fit or not.
std::string clamped(bool fits) { return choiceText({"min(x, 7)", "liftcc_min(x, 7)", fits}); }

Stmts kernelBody(bool indexFits) {
  return {{Let{kIndexType, "x", kGlobalId}},
          {For{kIndexType, "j", "0", "N", "1", {{Assign{"out[j]", "A[" + clamped(indexFits) + "]", ""}}}}}};
}

std::string opencl(const Stmts &s) { return print(s, codegen::Dialect(codegen::Target::OpenCL)); }

} // namespace

TEST_CASE("kernel ir width: 32 bits where every index was proved to fit, else every index 64-bit") {
  struct Case {
    bool indexFits;
    IndexWidth width;
    std::string text;
  };
  for (const Case &c : {Case{true, IndexWidth::Narrow,
                             "const int x = (int)get_global_id(0);\n"
                             "for (int j = 0; j < N; j++) {\n"
                             "  out[j] = A[min(x, 7)];\n"
                             "}\n"},
                        Case{false, IndexWidth::Wide,
                             "const long x = (long)get_global_id(0);\n"
                             "for (long j = 0; j < N; j++) {\n"
                             "  out[j] = A[liftcc_min(x, 7)];\n"
                             "}\n"}}) {
    CAPTURE(c.indexFits);
    Body chosen = chooseIndexWidth({kernelBody(c.indexFits)});
    CHECK(chosen.width == c.width);
    CHECK(opencl(chosen.statements) == c.text);
    CHECK(simplify(kernelBody(c.indexFits)).width == c.width); // simplify() runs the pass
  }
}

TEST_CASE("kernel ir width: choices inside index holes are spelled, and decide too") {
  // Two accesses through one base: named by nameCommonIndices after the width is chosen.
  auto access = [](int64_t offset, bool fits, bool baseFits) {
    std::string base = "x + " + choiceText({"min(y, 9)", "liftcc_min(y, 9)"});
    std::string full = choiceText(
        {"x + min(y, 9) + " + std::to_string(offset), "x + liftcc_min(y, 9) + " + std::to_string(offset), fits});
    return "A[" + holeText({"idx_0", kIndexType, base, offset, full, baseFits}) + "]";
  };
  SUBCASE("32-bit: named through an int temporary") {
    Body chosen = simplify({{Assign{"a", access(1, true, true) + " + " + access(2, true, true), ""}}});
    CHECK(chosen.width == IndexWidth::Narrow);
    CHECK(opencl(chosen.statements) == "const int idx_0 = x + min(y, 9);\n"
                                       "a = A[idx_0 + 1] + A[idx_0 + 2];\n");
  }
  SUBCASE("a base not proved to fit is not named in a 32-bit kernel") {
    Body chosen = simplify({{Assign{"a", access(1, true, false) + " + " + access(2, true, false), ""}}});
    CHECK(chosen.width == IndexWidth::Narrow);
    CHECK(opencl(chosen.statements) == "a = A[x + min(y, 9) + 1] + A[x + min(y, 9) + 2];\n");
  }
  SUBCASE("an index in a hole not proved to fit: 64-bit, the base named anyway") {
    Body chosen = simplify({{Assign{"a", access(1, false, false) + " + " + access(2, true, false), ""}}});
    CHECK(chosen.width == IndexWidth::Wide);
    CHECK(opencl(chosen.statements) == "const long idx_0 = x + liftcc_min(y, 9);\n"
                                       "a = A[idx_0 + 1] + A[idx_0 + 2];\n");
  }
}

TEST_CASE("kernel ir width: a width choice is never printed unspelled") {
  CHECK_THROWS_AS(opencl(kernelBody(true)), InternalError);
  CHECK_NOTHROW(opencl(chooseIndexWidth({kernelBody(true)}).statements));
}

} // namespace liftcc
