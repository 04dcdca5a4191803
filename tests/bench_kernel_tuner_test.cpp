// The Kernel Tuner peer of liftc bench (bench/kernel_tuner_peer.h and
// bench/peers/kernel_tuner_peer.py): where python3 has kernel_tuner and
// pyopencl, it tunes a hand-written kernel on PoCL, its result parses, and the
// tuned kernel's output is the interpreter's; `liftc bench` shows its row with
// the tuning time next to the on-the-spot exploration's. Without the Python
// packages the tests say so and check nothing else.

#include "bench/grids.h"
#include "bench/kernel_tuner_peer.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"
#include "tests/opencl_test_support.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

namespace liftcc {
namespace {

std::optional<bench::KernelTunerSetup> kernelTunerOrSkip() {
  std::string whyNot;
  auto setup = bench::findKernelTuner(whyNot);
  if (!setup) MESSAGE("SKIP: no Kernel Tuner peer: " << whyNot);
  return setup;
}

} // namespace

TEST_CASE("bench kernel tuner: the tuned hand-written kernels agree with the interpreter") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  auto setup = kernelTunerOrSkip();
  if (!setup) return;
  setup->quick = true;
  // A 2D and a 3D example at sizes that are multiples of no work-group shape
  // and no coarsening factor.
  for (const char *name : {"jacobi2d_5pt", "heat"}) {
    CAPTURE(name);
    const examples::Example &example = examples::findExample(name);
    auto peer = bench::kernelTunerPeer(*setup, example, *device);
    REQUIRE(peer.has_value());
    CHECK(peer->variant == "kernel tuner");
    CHECK(peer->timedOnce);
    Program program = example.build();
    bench::Sizes sizes;
    for (const arith::Expr &var : program.sizes) sizes[var.varName()] = 37 + static_cast<int64_t>(sizes.size()) * 6;
    Program typed = typeCheck(program, sizes);
    std::vector<bench::Grid> grids = bench::randomGrids(typed, sizes, 5);
    bench::PeerRun run = peer->run(grids, sizes, {.warmupRuns = 1, .timedRuns = 3});
    Value expected = interpret(typed, sizes, bench::toValues(typed, sizes, grids));
    auto mismatch = compareValues(expected, bench::toValue(typed, sizes, run.output), {1e-4, 1e-5});
    CHECK_MESSAGE(!mismatch, *mismatch);
    CHECK(run.medianNs > 0);
    REQUIRE(run.tuningSeconds.has_value());
    CHECK(*run.tuningSeconds > 0);
    CHECK_MESSAGE(run.detail.find("block_size_x=") != std::string::npos, run.detail);
    CHECK_MESSAGE(run.detail.find("coarsen_x=") != std::string::npos, run.detail);
    CHECK_MESSAGE(run.detail.find("best of ") != std::string::npos, run.detail);
  }
}

TEST_CASE("bench kernel tuner: a failing script is a failed row's message, not a crash") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  auto setup = kernelTunerOrSkip();
  if (!setup) return;
  setup->quick = true;
  auto peer = bench::kernelTunerPeer(*setup, examples::findExample("jacobi2d_5pt"), *device);
  REQUIRE(peer.has_value());
  bench::Sizes sizes{{"N", 8}, {"M", 8}};
  std::vector<bench::Grid> wrongSize{bench::Grid(10, 0.0f)}; // 10 floats for an 8 x 8 grid
  CHECK_THROWS_WITH_AS(peer->run(wrongSize, sizes, {.warmupRuns = 0, .timedRuns = 1}),
                       doctest::Contains("kernel tuner: kernel_tuner_peer: "), std::runtime_error);
}

TEST_CASE("bench kernel tuner: liftc bench shows Kernel Tuner's best and tuning time next to the exploration's") {
  if (!ocl::test::testDevice()) return;
  std::string whyNot;
  if (!bench::findKernelTuner(whyNot)) {
    // Then the rows are absent and liftc says why.
    test::LiftcRun run =
        test::runLiftc("bench --copy-mib 4 --examples jacobi1d_3pt --sizes default --size-scale 0.02 --runs 1 "
                       "--warmups 0 --explore 0 --quiet");
    CHECK(run.output.find("bench: no kernel tuner rows: ") != std::string::npos);
    MESSAGE("SKIP: " << whyNot);
    return;
  }
  test::TempDir dir;
  std::filesystem::path csv = dir.path() / "bench.csv";
  test::LiftcRun run = test::runLiftc(
      "bench --copy-mib 4 --examples jacobi2d_5pt --sizes default --size-scale 0.02 --runs 2 --warmups 0 "
      "--explore 2 --kernel-tuner quick --quiet --results " +
      test::shellQuote((dir.path() / "results").string()) + " --csv " + test::shellQuote(csv.string()));
  REQUIRE_MESSAGE(run.status == 0, run.output);
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  CHECK(header.ends_with(",message,tuning_s,detail,row_kind"));
  bool kernelTuner = false, explored = false;
  while (std::getline(in, line)) {
    if (line.find(",kernel tuner,ok,") != std::string::npos) {
      kernelTuner = true;
      CHECK_MESSAGE(line.find("block_size_x=") != std::string::npos, line);
      // Each call tunes anew: timed in the first round only, one round median.
      CHECK_MESSAGE(line.find(';') == std::string::npos, line);
    }
    // The variant names the sizes, with a comma: the field is quoted.
    if (line.find(",\"explored ") != std::string::npos && line.find(",ok,") != std::string::npos) {
      explored = true;
      CHECK_MESSAGE(line.find(';') != std::string::npos, line); // its round medians, "a;b;c"
      // The exploration's tuning time: the third field from the end (before detail and row_kind) is a number.
      auto kind = line.rfind(','), last = line.rfind(',', kind - 1), before = line.rfind(',', last - 1);
      CHECK_MESSAGE(last > before + 1, line);
    }
  }
  CHECK_MESSAGE(kernelTuner, run.output);
  CHECK_MESSAGE(explored, run.output);
  CHECK(run.output.find("tuning s") != std::string::npos); // the table's column
}

} // namespace liftcc
