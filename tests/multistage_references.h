#pragma once
// Plain C++ loop references of the multi-stage examples
// (examples/multistage_examples.h), in the style of tests/example_references.h:
// each stage is a loop over a flat row-major grid writing a whole
// intermediate grid, the next stage a loop reading it. A result of several
// grids is flattened as the interpreter flattens its value: an array of pairs
// point by point (u0, v0, u1, v1, ...), a pair of arrays one grid after the other.

#include "tests/example_references.h"

namespace liftcc::testref {

std::vector<float> sradTwoStage(const std::vector<Grid> &in);
std::vector<float> wave2d(const std::vector<Grid> &in);
std::vector<float> chain3dRadius2(const std::vector<Grid> &in);
std::vector<float> jacobi2d5ptIter16(const std::vector<Grid> &in);
std::vector<float> jacobi2d5ptIter64(const std::vector<Grid> &in);

} // namespace liftcc::testref
