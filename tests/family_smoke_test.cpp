// One kernel of every family of the exploration space, derived from its
// printed strategy, run on the OpenCL test device (PoCL here) and compared
// with the interpreter. This is the quick tier's device check
// (tools/test.sh --quick): the family suites (coarsening, vector, partial
// tiles, multistage, strategy, ...) cover each family in depth in the full
// tier; here every family proves, in seconds, that it still lowers,
// compiles and computes the same values. Sizes are small and no tile or
// factor divides them, so partial tiles and remainders are exercised too.

#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/strategy_text.h"
#include "tests/device_check_support.h"
#include "tests/opencl_test_support.h"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace liftcc;

namespace {

struct FamilyCase {
  std::string family;   ///< what explore::familyOf names the strategy's configuration
  std::string example;  ///< examples::findExample name
  std::map<std::string, int64_t> sizes;
  std::string strategy; ///< explore/strategy_text.h grammar
};

std::vector<FamilyCase> familyCases() {
  const std::map<std::string, int64_t> grid2D{{"N", 21}, {"M", 19}};
  const std::map<std::string, int64_t> grid3D{{"N", 7}, {"M", 9}, {"O", 11}};
  return {
      {"plain", "jacobi2d_5pt", grid2D, "mapGlb(x,y) ; wg(8,4)"},
      {"tiled", "jacobi2d_5pt", grid2D, "tile(8) ; mapWrg(x,y)"},
      {"local", "jacobi2d_5pt", grid2D, "tile(8) ; toLocal ; mapWrg(x,y)"},
      {"coarsened", "jacobi2d_5pt", grid2D, "coarsen(x=4,y=2) ; privateWindow ; mapGlb(x,y)"},
      {"coarsened", "gaussian", grid2D, "coarsen(x=2,y=4) ; globalWindow ; mapGlb(x,y) ; specialise"},
      {"vector", "jacobi2d_5pt", grid2D, "vectorize(4) ; mapGlb(x,y)"},
      {"stream", "heat", grid3D, "stream ; mapGlb(x,y)"},
      {"mapping", "jacobi2d_5pt", grid2D, "mapGlb(y)"},
      {"fused", "srad_two_stage", grid2D, "fuse ; mapGlb(x,y)"},
      {"timeTiled", "jacobi2d_5pt_iter16", grid2D, "timeTile(4) ; mapGlb(x,y)"},
  };
}

} // namespace

TEST_SUITE("family smoke") {

TEST_CASE("family smoke: one kernel of every family matches the interpreter on the device") {
  std::optional<ocl::Context> context = ocl::test::testContext();
  std::set<std::string> families;
  for (const FamilyCase &c : familyCases()) {
    CAPTURE(c.example);
    CAPTURE(c.strategy);
    std::map<std::string, int64_t> sizes;
    const examples::Example &example = examples::findExample(c.example);
    for (const std::string &name : example.sizeNames) sizes[name] = c.sizes.at(name);
    Program typed = typeCheck(example.build(), sizes);
    explore::Variant v = explore::variantFromStrategy(typed, c.strategy);
    CHECK(explore::familyOf(v.configuration) == c.family);
    families.insert(explore::familyOf(v.configuration));
    if (!context) continue;
    std::vector<Value> inputs = randomInputs(typed, sizes, 17);
    auto mismatch = test::deviceMismatch(*context, v.kernel, sizes, inputs, typed.body().typeOrThrow(),
                                         interpret(typed, sizes, inputs), {1e-4, 1e-5},
                                         test::launchLocalSize(v.configuration.local));
    CHECK_MESSAGE(!mismatch, *mismatch);
  }
  // Every family the space has (explore/space.cpp's family table).
  CHECK(families == std::set<std::string>{"plain", "tiled", "local", "coarsened", "vector", "stream", "mapping",
                                          "fused", "timeTiled"});
}

} // TEST_SUITE
