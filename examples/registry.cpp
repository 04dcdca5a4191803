// The list of benchmark stencils with their Table 1 metadata.
//
// Input sizes are those of CGO'18 Table 1 (the smaller one where the paper
// lists two, e.g. 4096^2 of "4096^2 / 8192^2"). Sizes are named outermost
// dimension first: N (1D), N x M (2D), O x N x M (3D, O planes).
#include "examples/example.h"
#include "examples/multistage_examples.h"
#include "examples/stencils.h"

#include <stdexcept>

namespace liftcc::examples {

namespace {
using Sizes = std::map<std::string, int64_t>;
const std::vector<std::string> k1D{"N"};
const std::vector<std::string> k2D{"N", "M"};
const std::vector<std::string> k3D{"O", "N", "M"};
} // namespace

std::vector<Example> allExamples() {
  return {
      {"stencil2d", 2, 9, k2D, Sizes{{"N", 4096}, {"M", 4096}}, stencil2d},
      {"srad1", 2, 5, k2D, Sizes{{"N", 504}, {"M", 458}}, srad1},
      {"srad2", 2, 3, k2D, Sizes{{"N", 504}, {"M", 458}}, srad2},
      {"hotspot2d", 2, 5, k2D, Sizes{{"N", 8192}, {"M", 8192}}, hotspot2d},
      {"hotspot3d", 3, 7, k3D, Sizes{{"O", 8}, {"N", 512}, {"M", 512}}, hotspot3d},
      {"acoustic", 3, 7, k3D, Sizes{{"O", 404}, {"N", 512}, {"M", 512}}, acoustic},
      {"gaussian", 2, 25, k2D, Sizes{{"N", 4096}, {"M", 4096}}, gaussian},
      {"gradient", 2, 5, k2D, Sizes{{"N", 4096}, {"M", 4096}}, gradient},
      {"jacobi2d_5pt", 2, 5, k2D, Sizes{{"N", 4096}, {"M", 4096}}, jacobi2d5pt},
      {"jacobi2d_9pt", 2, 9, k2D, Sizes{{"N", 4096}, {"M", 4096}}, jacobi2d9pt},
      {"jacobi3d_7pt", 3, 7, k3D, Sizes{{"O", 256}, {"N", 256}, {"M", 256}}, jacobi3d7pt},
      {"jacobi3d_13pt", 3, 13, k3D, Sizes{{"O", 256}, {"N", 256}, {"M", 256}}, jacobi3d13pt},
      {"poisson", 3, 19, k3D, Sizes{{"O", 256}, {"N", 256}, {"M", 256}}, poisson},
      {"heat", 3, 7, k3D, Sizes{{"O", 256}, {"N", 256}, {"M", 256}}, heat},
      // Not in Table 1: 2^22 points, the size of a 2048^2 grid.
      {"jacobi1d_3pt", 1, 3, k1D, Sizes{{"N", 4194304}}, jacobi1d3pt},
  };
}

std::vector<Example> multiStageExamples() {
  return {
      {"srad_two_stage", 2, 5, k2D, Sizes{{"N", 504}, {"M", 458}}, sradTwoStage},
      {"wave2d", 2, 5, k2D, Sizes{{"N", 4096}, {"M", 4096}}, wave2d},
      {"chain3d_radius2", 3, 13, k3D, Sizes{{"O", 256}, {"N", 256}, {"M", 256}}, chain3dRadius2},
      {"jacobi2d_5pt_iter16", 2, 5, k2D, Sizes{{"N", 4096}, {"M", 4096}}, [] { return jacobi2d5ptIterated(16); }},
      {"jacobi2d_5pt_iter64", 2, 5, k2D, Sizes{{"N", 4096}, {"M", 4096}}, [] { return jacobi2d5ptIterated(64); }},
  };
}

const Example &findExample(const std::string &name) {
  // Built once and never modified: a constant, not mutable global state.
  static const std::vector<Example> examples = [] {
    std::vector<Example> all = allExamples();
    for (Example &e : multiStageExamples()) all.push_back(std::move(e));
    return all;
  }();
  std::string valid;
  for (const Example &e : examples) {
    if (e.name == name) return e;
    valid += (valid.empty() ? "" : ", ") + e.name;
  }
  throw std::invalid_argument("unknown example '" + name + "' (valid names: " + valid + ")");
}

} // namespace liftcc::examples
