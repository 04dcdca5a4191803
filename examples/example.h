#pragma once
// The benchmark stencils of the CGO'18 Lift paper (Hagedorn et al., "High
// Performance Stencil Code Generation with Lift", Table 1), written with the
// C++ API. Every multi-dimensional stencil is a composition of the 1D
// primitives (padN/slideN/mapN/zipN), exactly as in the paper.
//
//   const Example &ex = findExample("jacobi2d_5pt");
//   Program p = ex.build();   // untyped; typeCheck(p) before interpreting

#include "core/ir/expr.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace liftcc::examples {

struct Example {
  std::string name;                          ///< lower_snake_case, e.g. "jacobi2d_5pt"
  int dims;                                  ///< 1, 2 or 3
  int points;                                ///< stencil points ("Pts" in Table 1)
  std::vector<std::string> sizeNames;        ///< the program's size variables, outermost dimension first
  std::map<std::string, int64_t> paperSizes; ///< Table 1 input size (the smaller one where two are listed)
  std::function<Program()> build;            ///< a fresh (untyped) program
};

/// Every example, in Table 1 order, then the 1D Jacobi. Builds a new list on
/// every call (no global mutable state).
std::vector<Example> allExamples();

/// The multi-stage programs (examples/multistage_examples.h): SRAD's two
/// kernels as one program, a 2D wave step with two time levels, a 3D
/// radius-2 chain with two results, the 2D Jacobi iterated 16 and 64 times.
/// `points` is the widest stage's. Not in allExamples(), whose programs are
/// single stencils.
std::vector<Example> multiStageExamples();

/// The example called `name`, of either list; throws std::invalid_argument listing the valid
/// names otherwise.
const Example &findExample(const std::string &name);

} // namespace liftcc::examples
