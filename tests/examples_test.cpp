// The benchmark stencils of examples/: each one type-checks, computes what a
// plain loop implementation computes (tests/example_references.cpp) on random
// inputs of small, non-square sizes, and round-trips through JSON.
//
// examples/json/<name>.json are the committed JSON forms of the examples.
// After changing an example (or the JSON writer) regenerate them with
//   LIFTCC_REGENERATE_EXAMPLES=1 ./build/tests/liftcc_tests -ts=examples
// and review the diff.
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "tests/example_references.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

namespace {

using liftcc::examples::Example;
using liftcc::testref::Grid;

struct InputRange {
  float lo, hi;
};

/// How to check one example: its reference and the value range of each input
/// (physically meaningful where the formula needs it, e.g. SRAD divides by
/// the image intensity, which Rodinia keeps in [1, e]).
struct ReferenceCase {
  liftcc::testref::Reference reference;
  std::vector<InputRange> inputs;
};

const std::map<std::string, ReferenceCase> &referenceCases() {
  namespace r = liftcc::testref;
  const InputRange unit{-1.0f, 1.0f};
  static const std::map<std::string, ReferenceCase> cases{
      {"stencil2d", {r::stencil2d, {unit}}},
      {"srad1", {r::srad1, {{1.0f, 2.718f}}}},
      {"srad2", {r::srad2, {{1.0f, 2.718f}, {0.0f, 1.0f}}}},
      {"hotspot2d", {r::hotspot2d, {{323.0f, 343.0f}, {0.0f, 0.01f}}}},
      {"hotspot3d", {r::hotspot3d, {{323.0f, 343.0f}, {0.0f, 0.01f}}}},
      {"acoustic", {r::acoustic, {unit, unit}}},
      {"gaussian", {r::gaussian, {unit}}},
      {"gradient", {r::gradient, {unit}}},
      {"jacobi2d_5pt", {r::jacobi2d5pt, {unit}}},
      {"jacobi2d_9pt", {r::jacobi2d9pt, {unit}}},
      {"jacobi3d_7pt", {r::jacobi3d7pt, {unit}}},
      {"jacobi3d_13pt", {r::jacobi3d13pt, {unit}}},
      {"poisson", {r::poisson, {unit}}},
      {"heat", {r::heat, {unit}}},
      {"jacobi1d_3pt", {r::jacobi1d3pt, {unit}}},
  };
  return cases;
}

/// Small test extents per dimensionality, including non-square ones.
std::vector<std::vector<int64_t>> testExtents(int dims) {
  switch (dims) {
  case 1: return {{9}, {17}};
  case 2: return {{7, 9}, {16, 5}};
  case 3: return {{5, 6, 7}, {7, 5, 6}};
  }
  return {};
}

std::string extentString(const std::vector<int64_t> &extents) {
  std::string s;
  for (int64_t e : extents) s += (s.empty() ? "" : "x") + std::to_string(e);
  return s;
}

std::string sourcePath(const std::string &relative) { return std::string(LIFTCC_SOURCE_DIR) + "/" + relative; }

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool regenerating() {
  const char *v = std::getenv("LIFTCC_REGENERATE_EXAMPLES");
  return v != nullptr && std::string(v) == "1";
}

} // namespace

TEST_SUITE("examples") {

TEST_CASE("examples: the example list is consistent") {
  std::vector<Example> examples = liftcc::examples::allExamples();
  CHECK(examples.size() == 15);
  std::set<std::string> names;
  for (const Example &ex : examples) {
    INFO(ex.name);
    CHECK(names.insert(ex.name).second);
    CHECK(referenceCases().count(ex.name) == 1);
    CHECK(ex.sizeNames.size() == static_cast<size_t>(ex.dims));
    liftcc::Program p = ex.build();
    std::vector<std::string> programSizes;
    for (const auto &s : p.sizes) programSizes.push_back(s.varName());
    CHECK(programSizes == ex.sizeNames);
    std::set<std::string> paperNames;
    for (const auto &[name, value] : ex.paperSizes) {
      paperNames.insert(name);
      CHECK(value > 0);
    }
    CHECK(paperNames == std::set<std::string>(ex.sizeNames.begin(), ex.sizeNames.end()));
    CHECK(&liftcc::examples::findExample(ex.name) != nullptr);
    CHECK(liftcc::examples::findExample(ex.name).name == ex.name);
  }
}

TEST_CASE("examples: findExample names the valid examples when the name is unknown") {
  try {
    liftcc::examples::findExample("jacobi4d");
    FAIL("expected std::invalid_argument");
  } catch (const std::invalid_argument &e) {
    std::string message = e.what();
    CHECK(message.find("jacobi4d") != std::string::npos);
    CHECK(message.find("jacobi2d_5pt") != std::string::npos);
    CHECK(message.find("acoustic") != std::string::npos);
  }
}

TEST_CASE("examples: every example type-checks and matches its loop reference") {
  uint64_t seed = 20180224;
  for (const Example &ex : liftcc::examples::allExamples()) {
    INFO("example ", ex.name);
    liftcc::Program typed = liftcc::typeCheck(ex.build());
    // A stencil maps a grid to a grid of the same shape; this also checks
    // that the arithmetic simplified the slide counts (N + 2 - 3 + 1) to N.
    CHECK(typed.body().typeOrThrow() == typed.inputs().at(0).typeOrThrow());
    const ReferenceCase &rc = referenceCases().at(ex.name);
    REQUIRE(rc.inputs.size() == typed.inputs().size());

    for (const std::vector<int64_t> &extents : testExtents(ex.dims)) {
      std::map<std::string, int64_t> sizes;
      for (size_t d = 0; d < extents.size(); ++d) sizes[ex.sizeNames.at(d)] = extents[d];
      INFO("extents ", extentString(extents));

      std::mt19937_64 rng(seed++);
      std::vector<Grid> grids;
      std::vector<liftcc::Value> values;
      for (size_t i = 0; i < rc.inputs.size(); ++i) {
        std::uniform_real_distribution<float> dist(rc.inputs[i].lo, rc.inputs[i].hi);
        Grid g{extents, {}};
        std::vector<liftcc::Scalar> scalars;
        int64_t count = 1;
        for (int64_t e : extents) count *= e;
        for (int64_t k = 0; k < count; ++k) {
          g.data.push_back(dist(rng));
          scalars.push_back(liftcc::Scalar::ofFloat(g.data.back()));
        }
        values.push_back(liftcc::Value::fromFlat(typed.inputs()[i].typeOrThrow(), sizes, scalars));
        grids.push_back(std::move(g));
      }

      liftcc::Value out = liftcc::interpret(typed, sizes, values);
      std::vector<liftcc::Scalar> expected;
      for (float x : rc.reference(grids)) expected.push_back(liftcc::Scalar::ofFloat(x));
      // Relative 1e-5 plus 1e-6 absolute for results near zero.
      auto mismatch = liftcc::compareValues(liftcc::Value::fromFlat(typed.body().typeOrThrow(), sizes, expected), out,
                                            {1e-5, 1e-6});
      CHECK_MESSAGE(!mismatch, mismatch.value_or(""));
    }
  }
}

TEST_CASE("examples: every example round-trips through JSON and matches examples/json") {
  for (const Example &ex : liftcc::examples::allExamples()) {
    INFO("example ", ex.name);
    liftcc::Program p = ex.build();
    std::string text = liftcc::writeProgram(p);
    liftcc::Program q = liftcc::readProgram(text);
    CHECK(liftcc::writeProgram(q) == text);
    CHECK(liftcc::programToJson(q) == liftcc::programToJson(p));
    CHECK(q.fun == p.fun);

    std::string path = sourcePath("examples/json/" + ex.name + ".json");
    if (regenerating()) {
      std::filesystem::create_directories(std::filesystem::path(path).parent_path());
      std::ofstream out(path, std::ios::binary);
      out << text;
      REQUIRE_MESSAGE(out.good(), "cannot write ", path);
      MESSAGE("wrote ", path);
    } else {
      std::string stale =
          path + " is stale; regenerate it with LIFTCC_REGENERATE_EXAMPLES=1 (see tests/examples_test.cpp)";
      bool upToDate = readFile(path) == text; // not inside CHECK: doctest would print both whole files
      CHECK_MESSAGE(upToDate, stale);
    }
  }
}

} // TEST_SUITE("examples")
