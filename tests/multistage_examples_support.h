#pragma once
// Shared by the multi-stage example suites (tests/multistage_examples*_test.cpp):
// the C loop reference and input ranges of each example, small sizes, and
// the check that runs one variant of every low-level program of an
// example's exploration space on the device against the interpreter and
// compiles its CUDA C with NVRTC.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/space.h"
#include "explore/strategy_text.h"
#include "tests/device_check_support.h"
#include "tests/multistage_references.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tests/test_support.h"
#include "tuner/cuda/nvrtc_compiler.h"

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace liftcc::test {

using examples::Example;
using testref::Grid;
using Sizes = std::map<std::string, int64_t>;

struct ReferenceCase {
  testref::Reference reference;
  /// Per input, the range of its random values (SRAD divides by the image
  /// intensity, which Rodinia keeps in [1, e]).
  std::vector<std::pair<float, float>> ranges;
};

inline const std::map<std::string, ReferenceCase> &referenceCases() {
  static const std::map<std::string, ReferenceCase> cases{
      {"srad_two_stage", {testref::sradTwoStage, {{1.0f, 2.718f}}}},
      {"wave2d", {testref::wave2d, {{-1.0f, 1.0f}, {-1.0f, 1.0f}}}},
      {"chain3d_radius2", {testref::chain3dRadius2, {{-1.0f, 1.0f}}}},
      {"jacobi2d_5pt_iter16", {testref::jacobi2d5ptIter16, {{-1.0f, 1.0f}}}},
      {"jacobi2d_5pt_iter64", {testref::jacobi2d5ptIter64, {{-1.0f, 1.0f}}}},
  };
  return cases;
}

/// Small, non-square sizes: 24 is divided by the tiles 4 and 8, 20 only by 4
/// (partial tiles).
inline Sizes smallSizes(const Example &example) {
  std::vector<int64_t> extents = example.dims == 3 ? std::vector<int64_t>{6, 7, 12} : std::vector<int64_t>{20, 24};
  Sizes sizes;
  for (size_t d = 0; d < extents.size(); ++d) sizes[example.sizeNames.at(d)] = extents[d];
  return sizes;
}

struct Inputs {
  std::vector<Grid> grids;
  std::vector<Value> values;
};

inline Inputs randomGrids(const Program &typed, const Example &example, const Sizes &sizes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int64_t> extents;
  for (const std::string &name : example.sizeNames) extents.push_back(sizes.at(name));
  Inputs out;
  for (size_t i = 0; i < typed.inputs().size(); ++i) {
    auto [lo, hi] = referenceCases().at(example.name).ranges.at(i);
    std::uniform_real_distribution<float> dist(lo, hi);
    Grid grid{extents, {}};
    std::vector<Scalar> scalars;
    int64_t count = 1;
    for (int64_t e : extents) count *= e;
    for (int64_t k = 0; k < count; ++k) {
      grid.data.push_back(dist(rng));
      scalars.push_back(Scalar::ofFloat(grid.data.back()));
    }
    out.values.push_back(Value::fromFlat(typed.inputs()[i].typeOrThrow(), sizes, scalars));
    out.grids.push_back(std::move(grid));
  }
  return out;
}

/// The space of the tests: small work-groups, two tile and coarsening
/// factors, time tiles of 2.
inline explore::SpaceOptions testSpaceOptions() {
  explore::SpaceOptions options;
  options.groupExtents = {4};
  options.tileSizes = {4, 8};
  options.coarsenFactors = {2, 4};
  options.vectorWidths = {4};
  // The mapping family over the plain recipe only: every mapping of the
  // other recipes is the strategy suite's ("mapping: every mapping of the 2D
  // and 3D examples' recipes ..."), and 3D has many.
  options.mappedRecipes = {rewrite::Recipe::Plain};
  return options;
}

/// One variant per low-level program (the first of its work-group shapes).
inline std::vector<const explore::Variant *> onePerProgram(const explore::Space &space) {
  std::vector<explore::Configuration> configurations;
  for (const explore::Variant &v : space.variants) configurations.push_back(v.configuration);
  std::vector<size_t> ids = explore::programGroupIds(configurations);
  std::set<size_t> seen;
  std::vector<const explore::Variant *> out;
  for (size_t i = 0; i < ids.size(); ++i)
    if (seen.insert(ids[i]).second) out.push_back(&space.variants[i]);
  return out;
}

/// Runs one variant of every low-level program of `name`'s space on the test
/// device (when there is one) against the interpreter and compiles its CUDA
/// C with NVRTC (when built with it); checks which families the space has.
inline void checkEveryProgram(const std::string &name, uint64_t seed) {
  const Example &example = examples::findExample(name);
  CAPTURE(example.name);
  std::optional<ocl::Context> context = ocl::test::testContext();
  std::optional<cuda::NvrtcOptions> nvrtc = cuda::test::strictSm90();
  Sizes sizes = smallSizes(example);
  Program typed = typeCheck(example.build(), sizes);
  explore::Space space = explore::enumerateSpace(typed, explore::DeviceLimits{}, testSpaceOptions());
  std::vector<const explore::Variant *> programs = onePerProgram(space);
  std::set<std::string> families;
  for (const explore::Variant *v : programs) families.insert(explore::familyOf(v->configuration));
  MESSAGE(example.name, ": ", programs.size(), " low-level programs of ", space.variants.size(), " variants");
  CHECK(families.count("plain") == 1);
  CHECK(families.count("tiled") == 1);
  CHECK(families.count("coarsened") == 1);
  // An intermediate read through a neighbourhood can be fused (not one that
  // is also a result: it must be written anyway); an iterated program can be
  // time-tiled.
  CHECK(families.count("fused") == (example.name == "srad_two_stage" ? 1 : 0));
  CHECK(families.count("timeTiled") == (example.name.starts_with("jacobi2d_5pt_iter") ? 1 : 0));

  Inputs inputs = randomGrids(typed, example, sizes, seed);
  std::optional<Value> expected;
  if (context) expected = interpret(typed, sizes, inputs.values);
  size_t ran = 0, compiled = 0;
  for (const explore::Variant *v : programs) {
    std::string strategy = explore::strategyText(*v);
    CAPTURE(strategy);
    if (context) {
      auto mismatch = test::deviceMismatch(*context, v->kernel, sizes, inputs.values, typed.body().typeOrThrow(),
                                           *expected, {1e-4, 1e-5}, test::launchLocalSize(v->configuration.local));
      CHECK_MESSAGE(!mismatch, *mismatch);
      ++ran;
    }
    if (nvrtc) {
      codegen::Kernel cuda = explore::makeVariant(typed, v->configuration, codegen::Target::CUDA).kernel;
      CAPTURE(cuda.source);
      CHECK(cuda::compileToPtx(cuda.source, *nvrtc, example.name + ".cu").ptx.find(".entry") != std::string::npos);
      ++compiled;
    }
  }
  if (context) CHECK(ran == programs.size());
  if (nvrtc) CHECK(compiled == programs.size());
}

} // namespace liftcc::test
