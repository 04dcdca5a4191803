// Raw input bytes: the tuner's full-size runs generate inputs as bytes
// (randomBytes / randomInputBytes) and time kernels on them without building
// values, so the bytes must be exactly those of the values the interpreter
// and the checked runs use, and a timing-only run must still run the kernel.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/interp/value_io.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "primitives/api.h"
#include "rewrite/recipes.h"
#include "tests/opencl_test_support.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

namespace liftcc {
namespace {

using Sizes = std::map<std::string, int64_t>;

} // namespace

TEST_CASE("value bytes: randomBytes draws the bytes of Value::random for every kind of type") {
  api::Size n = api::size("N"), m = api::size("M");
  Sizes sizes{{"N", 5}, {"M", 3}};
  const std::vector<Type> types = {
      Type::scalar(ScalarKind::Float),
      Type::array(Type::scalar(ScalarKind::Double), n),
      Type::array(Type::array(Type::scalar(ScalarKind::Int), m), n),
      Type::array(Type::scalar(ScalarKind::Bool), m),
      Type::array(Type::tuple({Type::scalar(ScalarKind::Float), Type::scalar(ScalarKind::Int)}), n),
  };
  for (const Type &type : types) {
    CAPTURE(type.str());
    std::mt19937_64 a(99), b(99);
    std::vector<std::byte> expected = toBytes(Value::random(type, sizes, a));
    std::vector<std::byte> actual = randomBytes(type, sizes, b);
    CHECK(actual == expected);
    CHECK(byteCount(type, sizes) == expected.size());
    CHECK(a() == b()); // both consumed the generator alike
  }
}

TEST_CASE("value bytes: randomInputBytes are the bytes of randomInputs for every example") {
  for (const examples::Example &example : examples::allExamples()) {
    CAPTURE(example.name);
    Program program = example.build();
    Sizes sizes;
    for (const arith::Expr &var : program.sizes) sizes[var.varName()] = 11;
    Program typed = typeCheck(program, sizes);
    std::vector<Value> values = randomInputs(typed, sizes, 3);
    std::vector<std::vector<std::byte>> bytes = randomInputBytes(typed, sizes, 3);
    REQUIRE(bytes.size() == values.size());
    for (size_t i = 0; i < values.size(); ++i) CHECK(bytes[i] == toBytes(values[i]));
  }
}

TEST_CASE("value bytes: a timing-only run leaves the output on the device and times every repetition") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  const examples::Example &example = examples::findExample("jacobi2d_5pt");
  Sizes sizes{{"N", 24}, {"M", 40}};
  Program typed = typeCheck(example.build(), sizes);
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {}), codegen::Target::OpenCL, {});
  tuner::OpenCLDevice opencl(*device);
  std::unique_ptr<tuner::CompiledKernel> compiled = opencl.compile(kernel);
  tuner::InputBytes inputs = randomInputBytes(typed, sizes, 8);

  tuner::LaunchConfig timingOnly;
  timingOnly.repetitions = 3;
  timingOnly.downloadOutput = false;
  tuner::RawRun timed = compiled->runBytes(sizes, inputs, timingOnly);
  CHECK(timed.output.empty());
  CHECK(timed.timesNs.size() == 3);

  // The downloaded result of the same bytes is the interpreter's.
  tuner::LaunchConfig checked;
  tuner::KernelRun run =
      tuner::toKernelRun(compiled->runBytes(sizes, inputs, checked), typed.body().typeOrThrow(), sizes);
  Value expected = interpret(typed, sizes, randomInputs(typed, sizes, 8));
  auto mismatch = compareValues(expected, run.output);
  CHECK_MESSAGE(!mismatch, *mismatch);

  // Inputs of the wrong size are refused, not read out of bounds.
  inputs[0].pop_back();
  CHECK_THROWS_AS(compiled->runBytes(sizes, inputs, checked), std::invalid_argument);
}

} // namespace liftcc
