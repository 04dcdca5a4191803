// The multi-stage examples (examples/multistage_examples.h): each computes
// what its plain C loops compute (tests/multistage_references.cpp), matches
// examples/json, and every low-level program of its exploration space (one
// per strategy, with a small work-group) runs on the device matching the
// interpreter; their CUDA C compiles with NVRTC.
//
// Regenerate examples/json/<name>.json after changing an example with
//   LIFTCC_REGENERATE_EXAMPLES=1 ./build-test/tests/liftcc_tests -sf='*multistage_examples*'

#include "core/json/program_json.h"
#include "tests/multistage_examples_support.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

namespace liftcc {

using test::Inputs;
using test::referenceCases;

TEST_SUITE("multistage examples") {

TEST_CASE("multistage examples: each matches its C loops, and round-trips through examples/json") {
  std::vector<examples::Example> list = examples::multiStageExamples();
  CHECK(list.size() == 5);
  uint64_t seed = 16;
  for (const examples::Example &example : list) {
    CAPTURE(example.name);
    REQUIRE(referenceCases().count(example.name) == 1);
    CHECK(&examples::findExample(example.name) != nullptr);
    Program p = example.build();
    std::vector<std::string> programSizes;
    for (const auto &s : p.sizes) programSizes.push_back(s.varName());
    CHECK(programSizes == example.sizeNames);

    test::Sizes sizes = test::smallSizes(example);
    Program typed = typeCheck(p, sizes);
    Inputs inputs = test::randomGrids(typed, example, sizes, seed++);
    std::vector<Scalar> expected;
    for (float x : referenceCases().at(example.name).reference(inputs.grids)) expected.push_back(Scalar::ofFloat(x));
    auto mismatch = compareValues(Value::fromFlat(typed.body().typeOrThrow(), sizes, expected),
                                  interpret(typed, sizes, inputs.values), {1e-5, 1e-5});
    CHECK_MESSAGE(!mismatch, mismatch.value_or(""));

    std::string text = writeProgram(p);
    CHECK(writeProgram(readProgram(text)) == text);
    std::string path = std::string(LIFTCC_SOURCE_DIR) + "/examples/json/" + example.name + ".json";
    const char *regenerate = std::getenv("LIFTCC_REGENERATE_EXAMPLES");
    if (regenerate != nullptr && std::string(regenerate) == "1") {
      std::ofstream(path, std::ios::binary) << text;
      MESSAGE("wrote ", path);
    } else {
      bool upToDate = test::readFile(path) == text; // not inside CHECK: doctest would print both files
      CHECK_MESSAGE(upToDate, path << " is stale; regenerate it (see tests/multistage_examples_test.cpp)");
    }
  }
}

TEST_CASE("multistage examples: every low-level program of SRAD's two stages and of the wave step on the device "
          "and through NVRTC") {
  test::checkEveryProgram("srad_two_stage", 64);
  test::checkEveryProgram("wave2d", 65);
}

} // TEST_SUITE("multistage examples")
} // namespace liftcc
