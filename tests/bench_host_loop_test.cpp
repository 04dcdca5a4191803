// The bench's "host loop of explored <step>" rows (bench/host_loop_contender.h):
// for an iterated example, the best kernel recorded for a program computing
// one of its steps, launched n times by the host. Found by what the programs
// compute, not by their names; run on PoCL against the interpreter.

#include "bench/host_loop_contender.h"
#include "core/interp/interpreter.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/best_kernels.h"
#include "explore/configuration.h"
#include "tests/device_check_support.h"
#include "tests/opencl_test_support.h"

#include <doctest/doctest.h>

namespace liftcc {
namespace {

/// A recorded best kernel of `program` with `configuration`, as
/// explore::readBestKernel returns it (only the fields the bench reads).
explore::BestKernel recordedBest(const std::string &program, const explore::Configuration &configuration) {
  explore::BestKernel best;
  best.launch = {{"program", program}, {"sizes", "N=64,M=64"}, {"configuration", configuration.toJson()}};
  return best;
}

explore::Configuration vectorised() {
  explore::Configuration c;
  c.vectorWidth = 4;
  c.specialise = true;
  return c;
}

} // namespace

TEST_CASE("bench/host loop: one row per recorded best of a program computing one step, none otherwise") {
  const examples::Example &iterated = examples::findExample("jacobi2d_5pt_iter16");
  std::vector<explore::BestKernel> recorded = {
      recordedBest("jacobi2d_5pt", vectorised()),
      recordedBest("jacobi2d_5pt", explore::Configuration{}),
      recordedBest("jacobi2d_9pt", explore::Configuration{}),        // same signature, another step
      recordedBest("gaussian", explore::Configuration{}),            // likewise
      recordedBest("jacobi2d_5pt_iter16", explore::Configuration{}), // the example itself: its explored row
      recordedBest("not_an_example", explore::Configuration{})};
  std::vector<bench::Contender> rows = bench::hostLoopContenders(iterated, recorded);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].variant == "host loop of explored jacobi2d_5pt plain vec=4 spec @N=64,M=64");
  CHECK(rows[1].variant == "host loop of explored jacobi2d_5pt plain @N=64,M=64");
  for (const bench::Contender &row : rows) CHECK(row.kind == bench::ContenderKind::Generated);
  // Not iterated: no host loop rows.
  CHECK(bench::hostLoopContenders(examples::findExample("jacobi2d_5pt"), recorded).empty());
}

TEST_CASE("bench/host loop: the row launches the step's kernel n times and computes the iterated program") {
  const examples::Example &iterated = examples::findExample("jacobi2d_5pt_iter16");
  std::vector<bench::Contender> rows =
      bench::hostLoopContenders(iterated, {recordedBest("jacobi2d_5pt", vectorised())});
  REQUIRE(rows.size() == 1);
  std::map<std::string, int64_t> sizes{{"N", 19}, {"M", 23}}; // no vector width divides the rows
  Program typed = typeCheck(iterated.build(), sizes);
  for (codegen::Target target : {codegen::Target::OpenCL, codegen::Target::CUDA}) {
    bench::ContenderKernel built = rows[0].kernelAt(typed, sizes, target);
    REQUIRE(built.kernel.iteration);
    CHECK(built.kernel.iteration->count.constant() == 16);
    CHECK(built.kernel.args[built.kernel.iteration->inputArgs.at(0)].name == "A");
  }
  std::optional<ocl::Context> context = ocl::test::testContext();
  if (!context) return;
  bench::ContenderKernel built = rows[0].kernelAt(typed, sizes, codegen::Target::OpenCL);
  std::vector<Value> inputs = randomInputs(typed, sizes, 5);
  auto mismatch = test::deviceMismatch(*context, built.kernel, sizes, inputs, typed.body().typeOrThrow(),
                                       interpret(typed, sizes, inputs), rows[0].tolerance, built.local, 2);
  CHECK_MESSAGE(!mismatch, *mismatch);
}

} // namespace liftcc
