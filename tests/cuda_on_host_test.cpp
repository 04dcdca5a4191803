// CUDA C kernels run on the host against the interpreter
// (tests/cuda_on_host_support.h): without a GPU, NVRTC proves the CUDA text
// compiles, not that it computes the program. The paths only CUDA C takes
// are checked here: vectors as structs of lanes, lanes loaded and stored as
// one aligned access, and shifted taps assembled from the two aligned
// vectors around them.

#include "core/interp/interpreter.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/strategy_text.h"
#include "tests/cuda_on_host_support.h"
#include "tests/kernel_text_support.h"

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace liftcc {
namespace {

std::vector<float> floats(const Value &value) {
  std::vector<float> out;
  for (const Scalar &s : value.flatten()) out.push_back(s.asFloat());
  return out;
}

/// The CUDA kernel of `strategy` on random inputs against the interpreter:
/// every output written (poisoned with NaN first), each within 1e-4 relative.
void checkOnHost(const std::string &example, const std::map<std::string, int64_t> &sizes, const std::string &strategy,
                 std::array<unsigned, 3> block = {4, 2, 2}) {
  CAPTURE(example);
  CAPTURE(strategy);
  Program typed = typeCheck(examples::findExample(example).build(), sizes);
  explore::Variant variant = explore::variantFromStrategy(typed, strategy, codegen::Target::CUDA);
  std::vector<Value> inputs = randomInputs(typed, sizes, 7);
  std::vector<std::vector<float>> flatInputs;
  for (const Value &v : inputs) flatInputs.push_back(floats(v));
  std::string why;
  std::optional<std::vector<float>> got = test::runCudaOnHost(variant.kernel, sizes, flatInputs, block, why);
  REQUIRE_MESSAGE(got, why);
  const std::vector<float> want = floats(interpret(typed, sizes, inputs));
  REQUIRE(got->size() == want.size());
  size_t wrong = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (!(std::fabs((*got)[i] - want[i]) <= 1e-4f * std::max(1.0f, std::fabs(want[i])))) {
      if (wrong++ == 0) MESSAGE("first mismatch at " << i << ": " << (*got)[i] << ", expected " << want[i]);
    }
  CHECK(wrong == 0);
}

} // namespace

TEST_SUITE("cuda on host") {
TEST_CASE("cuda on host: plain and coarsened kernels compute the program") {
  checkOnHost("jacobi2d_5pt", {{"N", 13}, {"M", 21}}, "mapGlb(x,y)");
  checkOnHost("jacobi2d_5pt", {{"N", 13}, {"M", 21}}, "mapGlb(x,y) ; specialise");
  checkOnHost("gaussian", {{"N", 11}, {"M", 19}}, "coarsen(y=4) ; privateWindow ; mapGlb(x,y)");
  checkOnHost("heat", {{"O", 5}, {"N", 7}, {"M", 9}}, "coarsen(z=2) ; privateWindow ; mapGlb(x,y,z) ; specialise");
}

TEST_CASE("cuda on host: vector kernels, their aligned and shifted loads, compute the program") {
  // Rows a multiple of the width (the vector family needs it); no tile,
  // coarsening or work-group divides the other extents.
  const char *strategies2d[] = {
      "vectorize(4) ; mapGlb(x,y)",
      "vectorize(4) ; mapGlb(x,y) ; specialise",
      "coarsen(x=8) ; globalWindow ; vectorize(4) ; mapGlb(x,y) ; specialise",
      "coarsen(x=8) ; privateWindow ; vectorize(4) ; mapGlb(x,y)",
      "coarsen(x=4,y=4) ; globalWindow ; vectorize(4) ; mapGlb(x,y) ; specialise",
      "vectorize(8) ; mapGlb(x,y) ; specialise",
  };
  for (const char *strategy : strategies2d) {
    checkOnHost("jacobi2d_5pt", {{"N", 13}, {"M", 40}}, strategy);
    checkOnHost("gaussian", {{"N", 11}, {"M", 40}}, strategy);
  }
  checkOnHost("heat", {{"O", 5}, {"N", 7}, {"M", 16}}, "vectorize(4) ; mapGlb(x,y,z) ; specialise");
  checkOnHost("heat", {{"O", 7}, {"N", 6}, {"M", 16}},
              "coarsen(x=4,z=4) ; globalWindow ; vectorize(4) ; mapGlb(x,y,z) ; specialise");
  checkOnHost("jacobi1d_3pt", {{"N", 64}}, "vectorize(4) ; mapGlb(x) ; specialise", {4, 1, 1});
  // The vector family's outer coarsening, at extents no factor divides.
  checkOnHost("gaussian", {{"N", 11}, {"M", 24}},
              "coarsen(x=4,y=8) ; globalWindow ; vectorize(4) ; mapGlb(x,y) ; specialise", {2, 1, 1});
  checkOnHost("jacobi2d_9pt", {{"N", 9}, {"M", 16}},
              "coarsen(x=8,y=2) ; globalWindow ; vectorize(8) ; mapGlb(x,y) ; specialise", {1, 2, 1});
  checkOnHost("jacobi3d_13pt", {{"O", 6}, {"N", 5}, {"M", 16}},
              "coarsen(x=4,z=4) ; globalWindow ; vectorize(4) ; mapGlb(x,y,z) ; specialise", {2, 1, 1});
}

TEST_CASE("cuda on host: kernels with shared memory and barriers, and iterations, compute the program") {
  // Work-groups of the kernel's own shape run as host threads meeting at
  // each __syncthreads; extents no tile or chunk divides.
  checkOnHost("jacobi2d_5pt", {{"N", 13}, {"M", 21}}, "tile(8) ; toLocal ; mapWrg(x,y)");
  checkOnHost("gaussian", {{"N", 11}, {"M", 19}}, "tile(4) ; toLocal ; mapWrg(x,y) ; specialise");
  checkOnHost("heat", {{"O", 5}, {"N", 7}, {"M", 9}}, "tile(4) ; toLocal ; mapWrg(x,y,z)");
  checkOnHost("jacobi2d_5pt", {{"N", 13}, {"M", 21}}, "streamLocal(8) ; tile(8,4) ; mapWrg(x,y)");
  checkOnHost("heat", {{"O", 9}, {"N", 7}, {"M", 11}}, "streamLocal(4) ; tile(8,4) ; mapWrg(x,y,z) ; specialise");
  checkOnHost("jacobi3d_13pt", {{"O", 9}, {"N", 7}, {"M", 11}}, "streamLocal(8) ; tile(4,4) ; mapWrg(x,y,z)");
  // With the work-group size given: the copy spread over it and prefetched,
  // register queues (one position a work-item, or two: lid0, lid0 + 4).
  checkOnHost("heat", {{"O", 9}, {"N", 7}, {"M", 11}}, "streamLocal(4) ; tile(8,4) ; mapWrg(x,y,z) ; wg(8,4)");
  checkOnHost("jacobi3d_13pt", {{"O", 9}, {"N", 7}, {"M", 11}},
              "streamLocal(3) ; tile(8,4) ; mapWrg(x,y,z) ; wg(4,4) ; specialise");
  checkOnHost("jacobi2d_5pt", {{"N", 13}, {"M", 21}}, "streamLocal(8) ; tile(8) ; mapWrg(x,y) ; wg(8,1)");
  // Each work-item's outputs as vectors (struct liftcc_float4 in CUDA C):
  // taps from the ring, or lanes' columns in the queue; a partial last
  // vector of a row, and whole aligned ones.
  checkOnHost("heat", {{"O", 9}, {"N", 7}, {"M", 11}}, "streamLocal(4) ; tile(8,4) ; vectorize(4) ; mapWrg(x,y,z)");
  checkOnHost("heat", {{"O", 9}, {"N", 8}, {"M", 16}},
              "streamLocal(4) ; tile(8,4) ; vectorize(4) ; mapWrg(x,y,z) ; wg(2,4)");
  checkOnHost("jacobi2d_5pt", {{"N", 13}, {"M", 21}},
              "streamLocal(8) ; tile(8) ; vectorize(2) ; mapWrg(x,y) ; wg(2,1)");
  // The host's launches of an iterate, one step or a time tile each.
  checkOnHost("jacobi2d_5pt_iter16", {{"N", 13}, {"M", 21}}, "mapGlb(x,y)");
  checkOnHost("jacobi2d_5pt_iter16", {{"N", 13}, {"M", 21}}, "timeTile(4) ; tile(8,4) ; stepsToLocal ; mapWrg(x,y)");
  checkOnHost("jacobi2d_5pt_iter16", {{"N", 13}, {"M", 21}},
              "timeTile(4) ; streamLocal(3) ; tile(8) ; stepsToLocal ; mapWrg(x,y) ; wg(8)");
  checkOnHost("jacobi2d_5pt_iter16", {{"N", 13}, {"M", 21}},
              "timeTile(2) ; coarsen(y=4) ; privateWindow ; mapGlb(x,y)");
}

TEST_CASE("cuda on host: local-memory kernels specialised (barriers in both branches) compute the program") {
  // CUDA C specialises kernels with local memory (OpenCL C does not: PoCL
  // mishandles barriers in the two branches). The condition is uniform over
  // a block, so each block meets its branch's barriers whole. Sizes with
  // interior blocks in every dimension and partial tiles at the end.
  const std::vector<std::tuple<std::string, std::map<std::string, int64_t>, std::string>> cases{
      {"gaussian", {{"N", 29}, {"M", 37}}, "tile(8) ; toLocal ; mapWrg(x,y) ; specialise"},
      {"heat", {{"O", 13}, {"N", 14}, {"M", 15}}, "tile(4) ; toLocal ; mapWrg(x,y,z) ; specialise"},
      {"heat", {{"O", 13}, {"N", 14}, {"M", 15}}, "streamLocal(4) ; tile(4,4) ; mapWrg(x,y,z) ; wg(4,4) ; specialise"},
      {"heat",
       {{"O", 13}, {"N", 14}, {"M", 40}},
       "streamLocal(4) ; tile(8,4) ; vectorize(4) ; mapWrg(x,y,z) ; wg(2,4) ; specialise"},
      {"jacobi2d_5pt", {{"N", 29}, {"M", 37}}, "streamLocal(8) ; tile(8) ; mapWrg(x,y) ; wg(8,1) ; specialise"},
      {"jacobi2d_5pt_iter16",
       {{"N", 29}, {"M", 37}},
       "timeTile(4) ; tile(8,4) ; stepsToLocal ; mapWrg(x,y) ; specialise"},
      {"jacobi2d_5pt_iter16",
       {{"N", 41}, {"M", 37}},
       "timeTile(2) ; streamLocal(4) ; tile(8) ; stepsToLocal ; mapWrg(x,y) ; wg(8) ; specialise"},
  };
  for (const auto &[example, sizes, strategy] : cases) {
    CAPTURE(strategy);
    Program typed = typeCheck(examples::findExample(example).build(), sizes);
    explore::Variant v = explore::variantFromStrategy(typed, strategy, codegen::Target::CUDA);
    CHECK(v.kernel.localMemoryBytes > 0);
    const std::string interior = test::interiorOf(v.kernel.source);
    CAPTURE(interior);
    CHECK(interior.find("__syncthreads()") != std::string::npos);
    // No clamp in the interior; nor, in a time tile's, the source offsets
    // its intermediate steps read at (index arithmetic the ranges prove 0).
    CHECK(interior.find("min(") == std::string::npos);
    CHECK(interior.find("max(") == std::string::npos);
    checkOnHost(example, sizes, strategy);
  }
}

TEST_CASE("cuda on host: a shifted tap's lanes come from the aligned vectors around it, none lane by lane") {
  // Work-groups of 4x2 vectors: some lie wholly in the interior, where the
  // taps are unclamped and the shift from alignment is a constant.
  const std::map<std::string, int64_t> sizes{{"N", 11}, {"M", 40}};
  Program typed = typeCheck(examples::findExample("gaussian").build(), sizes);
  explore::Variant v =
      explore::variantFromStrategy(typed, "vectorize(4) ; mapGlb(x,y) ; specialise", codegen::Target::CUDA);
  const std::string interior = test::interiorOf(v.kernel.source);
  CAPTURE(interior);
  CHECK(interior.find("A[") == std::string::npos); // no lane read on its own
  // x-2 of the vector at x: lanes 2 and 3 of the vector at x-4, lanes 0 and 1 of the one at x.
  CHECK(interior.find("liftcc_float4{{(*(const liftcc_float4 *)(A + (idx_0 - 84))).s[2], (*(const liftcc_float4 "
                      "*)(A + (idx_0 - 84))).s[3], (*(const liftcc_float4 *)(A + (idx_0 - 80))).s[0], (*(const "
                      "liftcc_float4 *)(A + (idx_0 - 80))).s[1]}}") != std::string::npos);
  checkOnHost("gaussian", sizes, "vectorize(4) ; mapGlb(x,y) ; specialise");
  // Rows of 41: no tap of the interior is provably aligned (and the last
  // vector above a row could pass the buffer's end): lane by lane.
  const std::map<std::string, int64_t> odd{{"N", 11}, {"M", 41}};
  Program oddTyped = typeCheck(examples::findExample("gaussian").build(), odd);
  explore::Variant oddVariant =
      explore::variantFromStrategy(oddTyped, "vectorize(4) ; mapGlb(x,y) ; specialise", codegen::Target::CUDA);
  CHECK(test::interiorOf(oddVariant.kernel.source).find(")).s[") == std::string::npos);
  checkOnHost("gaussian", odd, "vectorize(4) ; mapGlb(x,y) ; specialise");
}
} // TEST_SUITE("cuda on host")

} // namespace liftcc
