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

namespace {

/// The Halide autoschedulers this build scheduled the CPU pipelines with
/// (rows `halide cpu <autoscheduler>`): those of jacobi2d_5pt's peers.
size_t autoSchedulers() {
  auto device = ocl::test::testDevice();
  size_t n = 0;
  for (const bench::Peer &peer : bench::peersFor(examples::findExample("jacobi2d_5pt"), *device))
    n += peer.variant.rfind("halide cpu ", 0) == 0;
  return n;
}

/// Whether `peer` computes what the "halide cpu" peer (our schedule) does
/// at the example's paper sizes.
bool agreesWithOwnSchedule(const examples::Example &example, const bench::Peer &peer) {
  auto device = ocl::test::testDevice();
  const bench::Peer own = bench::peersFor(example, *device).front();
  REQUIRE(own.variant == "halide cpu");
  const bench::Sizes &sizes = example.paperSizes;
  Program typed = typeCheck(example.build(), sizes);
  std::vector<bench::Grid> grids = bench::randomGrids(typed, sizes, 5);
  bench::PeerRun expected = own.run(grids, sizes, {.warmupRuns = 0, .timedRuns = 1});
  bench::PeerRun run = peer.run(grids, sizes, {.warmupRuns = 1, .timedRuns = 2});
  CHECK(run.medianNs > 0);
  // On the floats themselves: paper-size grids as interpreter values took
  // most of this suite's time under the sanitizers.
  auto mismatch = bench::compareGrids(expected.output, run.output, {1e-4, 1e-5});
  CHECK_MESSAGE(!mismatch, *mismatch);
  return !mismatch;
}

} // namespace

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
      if (!peer.checkedAtBenchSizeOnly.empty()) {
        // Halide's autoschedules split by factors fitted to the paper sizes
        // and refuse smaller grids (Adams2019 splits Gaussian's rows by
        // about 2048): checked at the paper size against our own schedule's
        // pipeline (the first peer, checked against the interpreter below).
        CHECK(agreesWithOwnSchedule(example, peer));
        ++checked;
        continue;
      }
      bench::Sizes sizes; // no multiple of any tile
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
  // jacobi2d_5pt, gaussian, heat on the CPU (our schedule and each
  // autoscheduler's) and through OpenCL.
  CHECK(checked == 3 * (2 + autoSchedulers()));
}

TEST_CASE("bench peers: a grid narrower than every Halide OpenCL tile is an error, not an abort") {
  auto device = ocl::test::testDevice();
  if (!device || bench::peersDescription() == "none") return;
  const examples::Example &example = examples::findExample("jacobi2d_5pt");
  std::vector<bench::Peer> peers = bench::peersFor(example, *device);
  REQUIRE(peers.size() == 2 + autoSchedulers());
  const bench::Peer &opencl = peers.back();
  REQUIRE(opencl.variant == "halide opencl");
  bench::Sizes sizes{{"N", 16}, {"M", 5}}; // every tile shape is at least 8 wide
  Program typed = typeCheck(example.build(), sizes);
  std::vector<bench::Grid> grids = bench::randomGrids(typed, sizes, 5);
  CHECK_THROWS_WITH_AS(opencl.run(grids, sizes, {.warmupRuns = 0, .timedRuns = 1}),
                       doctest::Contains("halide: pipeline: "), std::runtime_error);
}

} // namespace liftcc
