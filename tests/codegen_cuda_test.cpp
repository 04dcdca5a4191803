// The CUDA dialect of every example's kernels, from every recipe, compiles
// through NVRTC without warnings (no GPU needed). Running them needs the CUDA
// driver; see tests/cuda_runtime_test.cpp for the runtime itself.

#include "codegen/generate.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "rewrite/recipes.h"
#include "tests/nvrtc_test_support.h"
#include "tuner/cuda/nvrtc_compiler.h"

#include <doctest/doctest.h>

namespace liftcc {

TEST_CASE("cuda: every example and recipe variant compiles with NVRTC without warnings") {
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  if (!strict) return;
  const cuda::NvrtcOptions &options = *strict;
  int compiled = 0;
  for (const examples::Example &ex : examples::allExamples()) {
    std::map<std::string, int64_t> sizes;
    for (const std::string &s : ex.sizeNames) sizes[s] = ex.dims == 3 ? 16 : 32;
    Program typed = typeCheck(ex.build(), sizes);
    std::vector<Program> variants;
    // The symbolic plain kernel (sizes as arguments) and the recipes at concrete sizes.
    variants.push_back(rewrite::applyRecipe(typeCheck(ex.build()), rewrite::Recipe::Plain));
    for (rewrite::Recipe recipe : {rewrite::Recipe::Plain, rewrite::Recipe::Tiled, rewrite::Recipe::Local})
      variants.push_back(rewrite::applyRecipe(typed, recipe, {8, true}));
    for (const Program &variant : variants) {
      codegen::Kernel kernel = codegen::generateKernel(variant, codegen::Target::CUDA);
      CAPTURE(ex.name);
      CAPTURE(kernel.source);
      cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, options, ex.name + ".cu");
      CHECK(ptx.warnings.empty());
      CHECK(ptx.ptx.find(".entry liftcc_kernel") != std::string::npos);
      ++compiled;
    }
  }
  MESSAGE(compiled, " CUDA kernels compiled to PTX for sm_90");
}

TEST_CASE("cuda: the CUDA dialect uses CUDA's thread hierarchy and shared memory") {
  const examples::Example &ex = examples::findExample("jacobi2d_5pt");
  Program typed = typeCheck(ex.build(), {{"N", 32}, {"M", 32}});
  codegen::Kernel local =
      codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Local, {8, true}), codegen::Target::CUDA);
  CHECK(local.source.find("extern \"C\" __global__ void liftcc_kernel") != std::string::npos);
  CHECK(local.source.find("__shared__ float tile_") != std::string::npos);
  CHECK(local.source.find("__syncthreads();") != std::string::npos);
  CHECK(local.source.find("const float *__restrict__ A") != std::string::npos);
  CHECK(local.source.find("__device__ float") != std::string::npos);
  CHECK(local.source.find("get_global_id") == std::string::npos);
}

} // namespace liftcc
