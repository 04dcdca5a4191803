// The multi-stage examples, continued (tests/multistage_examples_test.cpp):
// every low-level program of the 3D radius-2 chain with two results on the device and through NVRTC. A file
// of its own so that ctest runs it beside the others.

#include "tests/multistage_examples_support.h"

namespace liftcc {

TEST_SUITE("multistage examples") {

TEST_CASE("multistage examples: every low-level program of the 3D radius-2 chain with two results on the device and "
          "through NVRTC") {
  test::checkEveryProgram("chain3d_radius2", 66);
}

} // TEST_SUITE("multistage examples")
} // namespace liftcc
