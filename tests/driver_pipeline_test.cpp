// The compilation pipeline (driver/pipeline.h): the same kernels as the
// explorer's variants, the input checks that library users get as well as
// liftc, and the one translation of a strategy into codegen options.

#include "codegen/launch_limits.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "driver/pipeline.h"
#include "examples/example.h"
#include "explore/space.h"
#include "tests/test_support.h"

#include <doctest/doctest.h>

#include <functional>
#include <string>

namespace liftcc {
namespace {

using driver::Configuration;

std::string errorOf(const std::function<void()> &compile) {
  try {
    compile();
  } catch (const driver::InputError &e) {
    return e.what();
  }
  return "";
}

Program jacobi2d() { return examples::findExample("jacobi2d_5pt").build(); }

} // namespace

TEST_SUITE("driver") {

TEST_CASE("driver: compileProgram makes the explorer's kernel of each strategy") {
  const Program program = jacobi2d();
  const driver::Sizes sizes{{"N", 64}, {"M", 64}};
  Configuration plain;
  Configuration local{rewrite::Recipe::Local, 8, {8, 8, 1}};
  Configuration coarsened;
  coarsened.recipe = rewrite::Recipe::Coarsened;
  coarsened.coarsen = {4, 1, 1};
  coarsened.local = {16, 4, 1};
  coarsened.specialise = true;
  coarsened.fastMath = codegen::FastMath::Relaxed;
  for (const Configuration &strategy : {plain, local, coarsened})
    for (codegen::Target target : {codegen::Target::OpenCL, codegen::Target::CUDA}) {
      CAPTURE(strategy.key());
      driver::CompiledKernel compiled = driver::compileProgram(program, sizes, strategy, target);
      explore::Variant variant = explore::makeVariant(typeCheck(program, sizes), strategy, target);
      CHECK(compiled.kernel.source == variant.kernel.source);
      CHECK(compiled.kernel.buildOptions == variant.kernel.buildOptions);
      CHECK(compiled.lowered.body().hash() == variant.lowered.body().hash());
      CHECK(compiled.launchLocalSize == driver::launchLocalSize(strategy));
    }
  CHECK_FALSE(driver::launchLocalSize(plain));
  CHECK(*driver::launchLocalSize(local) == std::array<size_t, 3>{8, 8, 1});
}

TEST_CASE("driver: one translation of a strategy into codegen options") {
  Configuration c;
  c.local = {32, 2, 1};
  c.specialise = c.noinlineBorder = c.divToMul = true;
  c.fastMath = codegen::FastMath::Mad;
  codegen::CodegenOptions options = driver::codegenOptions(c);
  CHECK(options.localSize == c.local);
  CHECK(options.specialiseBoundaries);
  CHECK(options.noinlineBorder);
  CHECK(options.fastMath == codegen::FastMath::Mad);
  CHECK(options.divToMul);
  CHECK(options.kernelName == codegen::CodegenOptions{}.kernelName);
}

TEST_CASE("driver: the input checks come with the pipeline, in liftc's words") {
  const Program program = jacobi2d();
  const Configuration plain;
  auto compileAt = [&](driver::Sizes sizes) {
    return errorOf([&] { driver::compileProgram(program, sizes, plain, codegen::Target::OpenCL); });
  };
  CHECK(compileAt({{"N", 64}}) == "missing --size for M");
  CHECK(compileAt({{"N", 64}, {"M", 2}}) == "size M = 2 is below its minimum 3");
  CHECK(compileAt({{"N", 64}, {"M", 64}, {"K", 1}}) == "the program has no size K (its sizes: N, M)");
  CHECK(compileAt({{"N", int64_t(1) << 41}, {"M", 64}}) ==
        "size N = 2199023255552 is above liftc's limit 2^40 = 1099511627776");
  // 2^40 x 2^40 elements: each size within its limit, the arrays beyond 2^60 scalars.
  CHECK(compileAt({{"N", int64_t(1) << 40}, {"M", int64_t(1) << 40}}).find("has more than 2^60 values") !=
        std::string::npos);
}

TEST_CASE("driver: iterate counts beyond the limit are refused before any pass") {
  const std::string text = test::readFile(test::sourceDir() / "examples" / "json" / "jacobi2d_5pt_iter16.json");
  Program program = readProgram(text);
  const driver::Sizes sizes{{"N", 16}, {"M", 16}};
  CHECK(driver::iterationProduct(typeCheck(program, sizes), sizes) == 16);
  const std::string count = "\"n\": 16";
  std::string tooMany = text;
  tooMany.replace(tooMany.find(count), count.size(), "\"n\": 100000");
  CHECK_THROWS_WITH_AS(driver::compileProgram(readProgram(tooMany), sizes, Configuration{}, codegen::Target::OpenCL),
                       doctest::Contains("liftc's limit on iterations"), codegen::LimitError);
}

} // TEST_SUITE
} // namespace liftcc
