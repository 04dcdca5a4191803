// The multi-stage examples, continued (tests/multistage_examples_test.cpp):
// every low-level program of the iterated 2D Jacobi (host loop and time tiles) on the device and through NVRTC. A file
// of its own so that ctest runs it beside the others.

#include "tests/multistage_examples_support.h"

namespace liftcc {

TEST_SUITE("multistage examples") {

TEST_CASE("multistage examples: every low-level program of the iterated 2D Jacobi (host loop and time tiles) on the "
          "device and through NVRTC") {
  test::checkEveryProgram("jacobi2d_5pt_iter16", 67);
  test::checkEveryProgram("jacobi2d_5pt_iter64", 68);
}

} // TEST_SUITE("multistage examples")
} // namespace liftcc
