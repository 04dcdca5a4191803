// NVRTC: CUDA C -> PTX. Needs no GPU, only a build with NVRTC
// (LIFTCC_HAVE_NVRTC); without one the suite checks the "not available" error.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "tests/cuda_test_kernels.h"
#include "tuner/cuda/nvrtc_compiler.h"

using namespace liftcc::cuda;

namespace {

bool contains(const std::string &haystack, const std::string &needle) {
  return haystack.find(needle) != std::string::npos;
}

// Skips the calling test (with a message) in a build without NVRTC.
#define REQUIRE_NVRTC_OR_SKIP()                                                                                        \
  do {                                                                                                                 \
    if (!nvrtcAvailable()) {                                                                                           \
      MESSAGE("skipping: liftcc was built without NVRTC (LIFTCC_HAVE_NVRTC)");                                         \
      return;                                                                                                          \
    }                                                                                                                  \
  } while (false)

constexpr const char *kUnusedVariable = R"(
extern "C" __global__ void unused_var(float* out) {
  int unused = 42;
  out[threadIdx.x] = 1.0f;
}
)";

} // namespace

TEST_SUITE("cuda.nvrtc") {
TEST_CASE("without NVRTC, compiling throws a clear error") {
  if (nvrtcAvailable()) {
    MESSAGE("built with NVRTC " << nvrtcVersion());
    return;
  }
  CHECK(nvrtcSupportedArchs().empty());
  CHECK_THROWS_WITH_AS(compileToPtx(test::kBlurSource, "blur3.cu"), doctest::Contains("NVRTC not available"),
                       NvrtcError);
}

TEST_CASE("a shared-memory stencil kernel compiles to PTX for sm_90 without warnings") {
  REQUIRE_NVRTC_OR_SKIP();
  const PtxResult r = compileToPtx(test::kBlurSource, "blur3.cu");
  CHECK(contains(r.ptx, ".entry blur3"));
  CHECK(contains(r.ptx, ".target sm_90"));
  CHECK(contains(r.ptx, ".shared"));  // the __shared__ tile
  CHECK(contains(r.ptx, "bar.sync")); // __syncthreads()
  CHECK(r.ptx.back() != '\0');        // no trailing NUL from nvrtcGetPTX
  CHECK_MESSAGE(r.warnings.empty(), r.log);
  CHECK_MESSAGE(r.log.empty(), r.log);
  CHECK(std::find(r.options.begin(), r.options.end(), "--gpu-architecture=sm_90") != r.options.end());
}

TEST_CASE("the architecture option is respected") {
  REQUIRE_NVRTC_OR_SKIP();
  const PtxResult r = compileToPtx(test::kBlurSource, "blur3.cu", "sm_80");
  CHECK(contains(r.ptx, ".target sm_80"));
  CHECK_FALSE(contains(r.ptx, ".target sm_90"));

  NvrtcOptions options;
  options.arch = "compute_80"; // virtual architecture: the same PTX target
  CHECK(contains(compileToPtx(test::kBlurSource, options).ptx, ".target sm_80"));
}

TEST_CASE("an architecture NVRTC cannot target is rejected with the supported list") {
  REQUIRE_NVRTC_OR_SKIP();
  const std::vector<std::string> archs = nvrtcSupportedArchs();
  REQUIRE_FALSE(archs.empty());
  CHECK(std::find(archs.begin(), archs.end(), "sm_90") != archs.end());
  CHECK_THROWS_WITH_AS(compileToPtx(test::kBlurSource, "blur3.cu", "sm_10"),
                       doctest::Contains(("supported: " + archs.front()).c_str()), NvrtcError);
  CHECK_THROWS_AS(compileToPtx(test::kBlurSource, "blur3.cu", "ninety"), NvrtcError);
}

TEST_CASE("a syntax error throws with NVRTC's log") {
  REQUIRE_NVRTC_OR_SKIP();
  const char *broken = "extern \"C\" __global__ void k(float* o) { o[0] = 1.0f }\n";
  try {
    (void)compileToPtx(broken, "broken.cu");
    FAIL("compiling a syntax error succeeded");
  } catch (const NvrtcError &e) {
    const std::string what = e.what();
    CHECK(contains(what, "broken.cu")); // the program name, in the log's locations
    CHECK(contains(what, "error"));
    CHECK(contains(what, e.log())); // the whole log is in the message
    CHECK_FALSE(e.log().empty());
  }
}

TEST_CASE("warnings of a successful compile are reported") {
  REQUIRE_NVRTC_OR_SKIP();
  const PtxResult r = compileToPtx(kUnusedVariable, "unused.cu");
  CHECK(contains(r.ptx, ".entry unused_var"));
  REQUIRE(r.warnings.size() == 1);
  CHECK(contains(r.warnings[0], "unused.cu"));
  CHECK(contains(r.warnings[0], "unused"));
  CHECK(contains(r.log, r.warnings[0]));

  NvrtcOptions strict;
  strict.warningsAsErrors = true;
  CHECK_THROWS_WITH_AS(compileToPtx(kUnusedVariable, strict, "unused.cu"),
                       doctest::Contains("warnings are treated as errors"), NvrtcError);
  CHECK_NOTHROW(compileToPtx(test::kBlurSource, strict, "blur3.cu"));
}

TEST_CASE("extra options are passed through") {
  REQUIRE_NVRTC_OR_SKIP();
  const char *scaled = R"(
extern "C" __global__ void scale(float* out) { out[threadIdx.x] *= SCALE; }
)";
  CHECK_THROWS_WITH_AS(compileToPtx(scaled, "scale.cu"), doctest::Contains("SCALE"), NvrtcError);
  const PtxResult r = compileToPtx(scaled, "scale.cu", "sm_90", {"-DSCALE=2.5f"});
  CHECK(contains(r.ptx, ".entry scale"));
  CHECK(r.options.back() == "-DSCALE=2.5f");
}
} // TEST_SUITE("cuda.nvrtc")
