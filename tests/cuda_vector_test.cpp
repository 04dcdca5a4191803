// Vectors in CUDA C (issue #33 item 3): CUDA has no vloadN, so a vector is
// a struct of lanes; the struct is aligned to its size (up to 16 bytes) and
// lanes that are consecutive elements of a global buffer from an offset the
// index arithmetic proves a multiple of the width are loaded and stored as
// one vector (ld/st.global.v4.f32 in the PTX) instead of lane by lane. No GPU
// needed: NVRTC compiles the text; the same kernels' OpenCL twins run on
// PoCL against the interpreter in tests/vector_test.cpp.

#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/strategy_text.h"
#include "tests/kernel_text_support.h"
#include "tests/nvrtc_test_support.h"

#include <doctest/doctest.h>

#include <string>

namespace liftcc {

using test::occurrences;

TEST_CASE("cuda vectors: aligned lanes are one vector load or store, checked in the PTX") {
  struct Case {
    const char *example;
    std::map<std::string, int64_t> sizes;
    const char *strategy;
    bool alignedLoads; ///< false: the window is in private memory, only the store is global
  };
  // Sizes whose rows are a multiple of the width (the vector family needs
  // it) but no tile or coarsening divides the other extents.
  const Case cases[] = {
      {"jacobi2d_5pt", {{"N", 13}, {"M", 36}}, "vectorize(4) ; mapGlb(x,y)", true},
      {"jacobi2d_5pt", {{"N", 13}, {"M", 36}}, "vectorize(4) ; mapGlb(x,y) ; specialise", true},
      {"jacobi2d_5pt", {{"N", 13}, {"M", 40}}, "coarsen(x=8) ; privateWindow ; vectorize(4) ; mapGlb(x,y)", false},
      {"jacobi2d_5pt", {{"N", 13}, {"M", 40}}, "coarsen(x=8) ; globalWindow ; vectorize(4) ; mapGlb(x,y)", true},
      {"gaussian", {{"N", 11}, {"M", 20}}, "vectorize(4) ; mapGlb(x,y)", true},
      {"heat", {{"O", 5}, {"N", 7}, {"M", 12}}, "vectorize(4) ; mapGlb(x,y,z)", true},
  };
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  for (const Case &c : cases) {
    CAPTURE(std::string(c.example));
    CAPTURE(c.strategy);
    Program typed = typeCheck(examples::findExample(c.example).build(), c.sizes);
    explore::Variant cudaVariant = explore::variantFromStrategy(typed, c.strategy, codegen::Target::CUDA);
    const std::string &source = cudaVariant.kernel.source;
    CAPTURE(source);
    CHECK(source.find("struct __align__(16) liftcc_float4 { float s[4]; };") != std::string::npos);
    CHECK((source.find("*(const liftcc_float4 *)(") != std::string::npos) == c.alignedLoads);
    CHECK(source.find("*(liftcc_float4 *)(out + (") != std::string::npos); // the aligned store
    // OpenCL C keeps vloadN / vstoreN, which need no alignment.
    explore::Variant openclVariant = explore::variantFromStrategy(typed, c.strategy, codegen::Target::OpenCL);
    CHECK(openclVariant.kernel.source.find("vstore4(") != std::string::npos);
    CHECK(openclVariant.kernel.source.find("__align__") == std::string::npos);
    if (!strict) continue;
    cuda::PtxResult ptx = cuda::compileToPtx(source, *strict, std::string(c.example) + ".cu");
    CHECK(ptx.warnings.empty());
    CHECK(occurrences(ptx.ptx, "st.global.v4.f32") >= 1);
    CHECK((occurrences(ptx.ptx, "ld.global.nc.v4.f32") + occurrences(ptx.ptx, "ld.global.v4.f32") >= 1) ==
          c.alignedLoads);
  }
}

TEST_CASE("cuda vectors: a shifted tap of the interior loads the aligned vectors around it, checked in the PTX") {
  // Gaussian's 5x5 window with vectors of 4: the interior's 20 shifted taps
  // (x-2, x-1, x+1, x+2 of five rows) read lane by lane were 80 scalar loads
  // beside the 5 aligned ones; from the aligned vectors at x-4, x and x+4 of
  // each row they are halves and wholes of three vector loads a row (the
  // device compiler loads each once, and only the lanes used).
  Program typed = typeCheck(examples::findExample("gaussian").build(), {{"N", 64}, {"M", 64}});
  explore::Variant v =
      explore::variantFromStrategy(typed, "vectorize(4) ; mapGlb(x,y) ; specialise", codegen::Target::CUDA);
  CAPTURE(v.kernel.source);
  CHECK(v.kernel.source.find("(*(const liftcc_float4 *)(A + (idx_0 - 132))).s[2]") != std::string::npos);
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  if (!strict) return;
  cuda::PtxResult ptx = cuda::compileToPtx(v.kernel.source, *strict, "gaussian.cu");
  CHECK(ptx.warnings.empty());
  // The border's general code reads its clamped taps lane by lane (about 45
  // scalar loads); the interior adds none, only vector loads: 5 whole
  // rows and 10 halves, each once.
  CHECK(occurrences(ptx.ptx, "ld.global.nc.f32") < 60);
  CHECK(occurrences(ptx.ptx, "ld.global.nc.v4.f32") + occurrences(ptx.ptx, "ld.global.nc.v2.f32") >= 20);
}

TEST_CASE("cuda vectors: lanes the arithmetic cannot prove aligned are read one by one") {
  // Rows of 42 floats: a row above or below starts at 42 * y, not a multiple
  // of 4 ... but the vector family needs rows divisible by the width, so use
  // the symbolic alignment of a shifted column instead: x - 1 and x + 1 are
  // never multiples of 4 when x is.
  Program typed = typeCheck(examples::findExample("jacobi1d_3pt").build(), {{"N", 64}});
  explore::Variant v = explore::variantFromStrategy(typed, "vectorize(4) ; mapGlb(x)", codegen::Target::CUDA);
  CAPTURE(v.kernel.source);
  CHECK(v.kernel.source.find("*(liftcc_float4 *)(out + (") != std::string::npos);
  // The centre lanes load as one vector; the shifted ones lane by lane.
  CHECK(occurrences(v.kernel.source, "*(const liftcc_float4 *)(") == 1);
  CHECK(v.kernel.source.find("liftcc_float4{{") != std::string::npos);
}

} // namespace liftcc
