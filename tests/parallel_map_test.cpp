// parallelMap (explore/parallel_map.h) and the space it builds: results in
// index order whatever the thread count, the first failure rethrown, and the
// same exploration space on one thread as on several.

#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/parallel_map.h"
#include "explore/space.h"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

namespace liftcc {
namespace {

TEST_CASE("parallelMap: results in index order on any number of threads") {
  for (size_t threads : {1, 2, 7}) {
    CAPTURE(threads);
    std::vector<size_t> squares = explore::parallelMap(1000, threads, [](size_t i) { return i * i; });
    REQUIRE(squares.size() == 1000);
    for (size_t i = 0; i < squares.size(); ++i) CHECK(squares[i] == i * i);
  }
  CHECK(explore::parallelMap(0, 4, [](size_t i) { return i; }).empty());
  CHECK(explore::defaultThreadCount(3) == 3);
  CHECK(explore::defaultThreadCount(0) >= 1);
}

TEST_CASE("parallelMap: the failure of the smallest index is rethrown, after every thread stopped") {
  auto failing = [](size_t i) -> int {
    if (i == 7 || i == 500) throw std::runtime_error("failed at " + std::to_string(i));
    return int(i);
  };
  for (size_t threads : {1, 4}) {
    CAPTURE(threads);
    CHECK_THROWS_WITH_AS(explore::parallelMap(600, threads, failing), "failed at 7", std::runtime_error);
  }
}

TEST_CASE("enumerateSpace: the same variants in the same order on one thread and on several") {
  Program typed = typeCheck(examples::findExample("jacobi2d_5pt").build(), {{"N", 64}, {"M", 64}});
  explore::SpaceOptions options;
  options.fastMathLevels = {codegen::FastMath::None, codegen::FastMath::Relaxed};
  options.threads = 1;
  explore::Space one = explore::enumerateSpace(typed, {}, options);
  options.threads = 3;
  explore::Space three = explore::enumerateSpace(typed, {}, options);
  REQUIRE(one.variants.size() > 500);
  REQUIRE(one.variants.size() == three.variants.size());
  CHECK(one.dropped == three.dropped);
  CHECK(one.duplicates == three.duplicates);
  for (size_t i = 0; i < one.variants.size(); ++i) {
    CAPTURE(i);
    CHECK(one.variants[i].configuration.key() == three.variants[i].configuration.key());
    CHECK(one.variants[i].kernel.source == three.variants[i].kernel.source);
  }
}

} // namespace
} // namespace liftcc
