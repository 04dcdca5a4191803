// Static SASS figures without a GPU (tuner/cuda/sass_figures.h): ptxas's
// report parsed, and NVRTC's SASS of hand-written and generated kernels read
// for registers, barriers, shared memory and spills.

#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/strategy_text.h"
#include "tuner/cuda/sass_figures.h"

#include <doctest/doctest.h>

using namespace liftcc;

TEST_SUITE("cuda sass figures") {

TEST_CASE("cuda sass figures: ptxas's verbose report gives each entry function's figures") {
  const char *report = "ptxas info    : 0 bytes gmem\n"
                       "ptxas info    : Compiling entry function 'first' for 'sm_90'\n"
                       "ptxas info    : Function properties for first\n"
                       "ptxas         .     16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
                       "ptxas info    : Used 255 registers, used 1 barriers, 4096 bytes smem, 384 bytes cmem[0]\n"
                       "ptxas info    : Compile time = 12.5 ms\n"
                       "ptxas info    : Compiling entry function 'second' for 'sm_90'\n"
                       "ptxas info    : Function properties for second\n"
                       "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                       "ptxas info    : Used 12 registers, used 0 barriers, 372 bytes cmem[0]\n";
  std::vector<cuda::SassFigures> figures = cuda::parsePtxasReport(report);
  REQUIRE(figures.size() == 2);
  CHECK(figures[0].function == "first");
  CHECK(figures[0].arch == "sm_90");
  CHECK(figures[0].registers == 255);
  CHECK(figures[0].barriers == 1);
  CHECK(figures[0].sharedBytes == 4096);
  CHECK(figures[0].stackFrameBytes == 16);
  CHECK(figures[0].spillStoreBytes == 8);
  CHECK(figures[0].spillLoadBytes == 12);
  CHECK(figures[0].spills());
  CHECK(figures[1].function == "second");
  CHECK(figures[1].registers == 12);
  CHECK(figures[1].sharedBytes == 0);
  CHECK_FALSE(figures[1].spills());
  CHECK(cuda::parsePtxasReport("").empty());
  CHECK(cuda::parsePtxasReport("nvrtc: warning: something\n").empty());
}

TEST_CASE("cuda sass figures: NVRTC's SASS of a kernel with shared memory and a barrier, and of generated kernels") {
  if (!cuda::nvrtcAvailable()) {
    MESSAGE("skipped: liftcc was built without NVRTC");
    return;
  }
  cuda::NvrtcOptions virtualArch;
  virtualArch.arch = "compute_90";
  CHECK_THROWS_AS(cuda::sassFigures("", virtualArch), std::invalid_argument);
  std::vector<cuda::SassFigures> shared = cuda::sassFigures(R"(
extern "C" __global__ void reverse(const float *in, float *out) {
  __shared__ float tile[256];
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
})");
  REQUIRE(shared.size() == 1);
  CHECK(shared[0].function == "reverse");
  CHECK(shared[0].arch == "sm_90");
  CHECK(shared[0].sharedBytes == 1024);
  CHECK(shared[0].barriers == 1);
  CHECK(shared[0].registers > 0);
  CHECK_FALSE(shared[0].spills());

  // Generated CUDA kernels of a few families: one entry function, no spills.
  const std::map<std::string, int64_t> sizes2D{{"N", 512}, {"M", 512}}, sizes3D{{"O", 64}, {"N", 64}, {"M", 64}};
  for (const auto &[example, strategy] : std::vector<std::pair<std::string, std::string>>{
           {"jacobi2d_5pt", "mapGlb(x,y)"},
           {"jacobi2d_5pt", "coarsen(x=4,y=2) ; privateWindow ; mapGlb(x,y) ; specialise"},
           {"gaussian", "tile(16) ; toLocal ; mapWrg(x,y)"},
           {"heat", "stream ; mapGlb(x,y)"}}) {
    CAPTURE(example);
    CAPTURE(strategy);
    const examples::Example &ex = examples::findExample(example);
    Program typed = typeCheck(ex.build(), ex.dims == 3 ? sizes3D : sizes2D);
    explore::Variant v = explore::variantFromStrategy(typed, strategy, codegen::Target::CUDA);
    std::vector<cuda::SassFigures> figures = cuda::sassFigures(v.kernel.source);
    REQUIRE(figures.size() == 1);
    CHECK(figures[0].function == v.kernel.name);
    CHECK_FALSE(figures[0].spills());
    CHECK(figures[0].registers > 0);
    // Local memory (the toLocal tile) is shared memory on CUDA.
    CHECK((figures[0].sharedBytes > 0) == (strategy.find("toLocal") != std::string::npos));
  }
}

} // TEST_SUITE
