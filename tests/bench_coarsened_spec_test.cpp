// The bench's coarsened contenders with boundary specialisation (":spec"):
// the spelling, and that the kernel really is specialised and guard-free.

#include "bench/contenders.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"

#include <doctest/doctest.h>

namespace liftcc {

TEST_CASE("bench contenders: coarsened variants spelled x8, x8:global, x8:spec, x8:global:spec") {
  auto plain = bench::parseCoarsenedVariant("x8");
  REQUIRE(plain);
  CHECK(plain->factors == std::array<int64_t, 3>{8, 1, 1});
  CHECK(plain->privateWindow);
  CHECK(!plain->specialise);
  auto both = bench::parseCoarsenedVariant("z4:global:spec");
  REQUIRE(both);
  CHECK(both->factors == std::array<int64_t, 3>{1, 1, 4});
  CHECK(!both->privateWindow);
  CHECK(both->specialise);
  CHECK(!both->noinlineBorder);
  auto noinline = bench::parseCoarsenedVariant("x8:spec:noinline");
  REQUIRE(noinline);
  CHECK(noinline->specialise);
  CHECK(noinline->noinlineBorder);
  CHECK(!bench::parseCoarsenedVariant("x8:noinline"));
  CHECK(!bench::parseCoarsenedVariant("x8:spec:global"));
  CHECK(!bench::parseCoarsenedVariant(":spec"));
  CHECK(!bench::parseCoarsenedVariant("w8:spec"));
}

TEST_CASE("bench contenders: a coarsened ':spec' contender is boundary-specialised and launched guard-free") {
  const examples::Example &example = examples::findExample("jacobi2d_5pt");
  bench::ContenderOptions options;
  options.coarsened = std::vector<bench::CoarsenedVariant>{*bench::parseCoarsenedVariant("x4:spec")};
  std::vector<bench::Contender> contenders = bench::contendersFor(example, options, codegen::Target::OpenCL);
  const bench::Contender *spec = nullptr;
  for (const auto &c : contenders)
    if (c.variant == "coarsened x4 spec") spec = &c;
  REQUIRE(spec);
  CHECK(spec->sizeMultiple == 4);
  // 1024 / 4 = 256 work-items along x in work-groups of 64: two interior groups.
  bench::Sizes sizes{{"N", 1024}, {"M", 1024}};
  Program typed = typeCheck(example.build(), sizes);
  bench::ContenderKernel k = spec->kernelAt(typed, sizes, codegen::Target::OpenCL);
  REQUIRE(k.kernel.interior);
  CHECK(k.kernel.requiresLocalSize);
  REQUIRE(k.local);
  CHECK((*k.local)[0] == 64);
  CHECK(k.kernel.source.find("reqd_work_group_size") != std::string::npos);
}

TEST_CASE("bench contenders: the noinline-border twins call never-inlined user functions from their border code") {
  const examples::Example &example = examples::findExample("gaussian");
  bench::ContenderOptions options;
  options.coarsened = std::vector<bench::CoarsenedVariant>{*bench::parseCoarsenedVariant("y4:spec:noinline")};
  bench::Sizes sizes{{"N", 256}, {"M", 256}};
  Program typed = typeCheck(example.build(), sizes);
  int found = 0;
  for (const auto &c : bench::contendersFor(example, options, codegen::Target::OpenCL)) {
    if (c.variant != "plain+spec wg noinline-border" && c.variant != "coarsened y4 spec noinline-border") continue;
    CAPTURE(c.variant);
    ++found;
    bench::ContenderKernel k = c.kernelAt(typed, sizes, codegen::Target::OpenCL);
    REQUIRE(k.kernel.interior);
    CHECK(k.kernel.source.find("__attribute__((noinline)) static float liftcc_border_gaussian5x5(") !=
          std::string::npos);
  }
  CHECK(found == 2);
  // No such twin on CUDA, where the option changes nothing.
  for (const auto &c : bench::contendersFor(example, {}, codegen::Target::CUDA))
    CHECK(c.variant.find("noinline") == std::string::npos);
}

} // namespace liftcc
