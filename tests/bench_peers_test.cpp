// The benchmark's peers (bench/peers.h): where liftcc was built with Halide,
// each Halide pipeline (host CPU, and its OpenCL target on the test's OpenCL
// device, every tile shape) computes what the interpreter computes, at sizes that are not
// multiples of its tiles. Without Halide there are no peers to check.

#include "bench/grids.h"
#include "bench/peers.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "tests/opencl_test_support.h"

#include <doctest/doctest.h>

namespace liftcc {

TEST_CASE("bench peers: every Halide pipeline agrees with the interpreter") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  if (bench::peersDescription() == "none") {
    MESSAGE("built without Halide: no peers to check");
    return;
  }
  size_t checked = 0;
  for (const examples::Example &example : examples::allExamples()) {
    for (const bench::Peer &peer : bench::peersFor(example, *device)) {
      CAPTURE(example.name);
      CAPTURE(peer.variant);
      Program program = example.build();
      bench::Sizes sizes;
      for (const arith::Expr &var : program.sizes) sizes[var.varName()] = 37 + static_cast<int64_t>(sizes.size()) * 8;
      Program typed = typeCheck(program, sizes);
      std::vector<bench::Grid> grids = bench::randomGrids(typed, sizes, 5);
      Value expected = interpret(typed, sizes, bench::toValues(typed, sizes, grids));
      // The verification call (one run) checks every tile shape of the OpenCL
      // peer that fits; the timing call (more runs) tunes and times the best.
      bench::PeerRun check = peer.run(grids, sizes, {.warmupRuns = 0, .timedRuns = 1});
      auto wrong = compareValues(expected, bench::toValue(typed, sizes, check.output), {1e-4, 1e-5});
      CHECK_MESSAGE(!wrong, *wrong);
      bench::PeerRun run = peer.run(grids, sizes, {.warmupRuns = 1, .timedRuns = 2});
      auto mismatch = compareValues(expected, bench::toValue(typed, sizes, run.output), {1e-4, 1e-5});
      CHECK_MESSAGE(!mismatch, *mismatch);
      CHECK(run.medianNs > 0);
      if (peer.variant == "halide opencl") { // its tile shape is tuned
        CHECK(run.tuningSeconds.has_value());
        CHECK_MESSAGE(run.detail.find(" tile shapes") != std::string::npos, run.detail);
      }
      ++checked;
    }
  }
  CHECK(checked == 6); // jacobi2d_5pt, gaussian, heat on the CPU and through OpenCL
}

TEST_CASE("bench peers: a grid narrower than every Halide OpenCL tile is an error, not an abort") {
  auto device = ocl::test::testDevice();
  if (!device || bench::peersDescription() == "none") return;
  const examples::Example &example = examples::findExample("jacobi2d_5pt");
  std::vector<bench::Peer> peers = bench::peersFor(example, *device);
  REQUIRE(peers.size() == 2);
  const bench::Peer &opencl = peers[1];
  REQUIRE(opencl.variant == "halide opencl");
  bench::Sizes sizes{{"N", 16}, {"M", 5}}; // every tile shape is at least 8 wide
  Program typed = typeCheck(example.build(), sizes);
  std::vector<bench::Grid> grids = bench::randomGrids(typed, sizes, 5);
  CHECK_THROWS_WITH_AS(opencl.run(grids, sizes, {.warmupRuns = 0, .timedRuns = 1}),
                       doctest::Contains("halide: pipeline: "), std::runtime_error);
}

} // namespace liftcc
