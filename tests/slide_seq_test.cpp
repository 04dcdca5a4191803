// slideSeq, the sequential sliding window (2.5D streaming): its meaning is
// mapSeq(f, slide(n, s, x)) on random inputs; its kernels keep the window in
// private memory, load each element once, and match the interpreter on the
// device; the streaming rules derive it for every 2D and 3D example where the
// stencil has a constant window, and the CUDA variants compile with NVRTC.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/ir/printer.h"
#include "core/ir/transform.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "examples/stencil_helpers.h"
#include "primitives/api.h"
#include "rewrite/apply.h"
#include "rewrite/recipes.h"
#include "rewrite/rule.h"
#include "tests/nvrtc_test_support.h"
#include "tests/kernel_text_support.h"
#include "tests/opencl_test_support.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <random>
#include <set>

namespace liftcc {
namespace {

using namespace api;
using test::sizesFor;
using test::streamingLoop;

Expr add() {
  return userFun("add", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, "return a + b;");
}
Expr mulAdd() {
  return userFun("mulAdd", {{"acc", ScalarKind::Float}, {"x", ScalarKind::Float}}, ScalarKind::Float,
                 "return 1.5f * acc + x;");
}

/// A function of a 1D window that depends on the order of its elements
/// (a Horner-like fold), so a rotated or misplaced slot shows.
Expr orderedFold() {
  return fn([](Expr w) { return at(0, reduce(mulAdd(), lit(0.0f), w)); }, "w");
}

void checkSame(const Value &expected, const Value &actual, double rel = 1e-4, double abs = 1e-5) {
  auto mismatch = compareValues(expected, actual, {rel, abs});
  CHECK_MESSAGE(!mismatch, *mismatch);
}

Value runOnDevice(ocl::Context &context, const Program &reference, const std::map<std::string, int64_t> &sizes,
                  const codegen::Kernel &kernel) {
  tuner::OpenCLKernelRunner runner(context, kernel);
  std::vector<Value> inputs = randomInputs(reference, sizes, 7);
  return runner.run(sizes, inputs, reference.body().typeOrThrow()).output;
}

/// The global-memory loads of `name` in `text` ("name[...]"), as written.
std::vector<std::string> loadsOf(const std::string &text, const std::string &name) {
  std::vector<std::string> loads;
  for (size_t at = text.find(name + "["); at != std::string::npos; at = text.find(name + "[", at + 1)) {
    if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) continue;
    size_t end = text.find(']', at);
    loads.push_back(text.substr(at, end - at + 1));
  }
  return loads;
}

} // namespace

TEST_CASE("slideSeq: the interpreter gives mapSeq(f, slide(n, s, x)) on random inputs") {
  std::mt19937_64 rng(2019);
  int checked = 0;
  for (int64_t n = 1; n <= 5; ++n)
    for (int64_t s = 1; s <= 2; ++s)
      for (int64_t length : {n, n + 1, n + 4, 2 * n + 3, int64_t{17}}) {
        if (length < n) continue;
        Expr a = input("A", array(f32(), size("N")));
        std::map<std::string, int64_t> sizes{{"N", length}};
        Program windows = typeCheck(program({a}, mapSeq(orderedFold(), slide(n, s, a))), sizes);
        Program streamed = typeCheck(program({a}, slideSeq(n, s, orderedFold(), a)), sizes);
        CHECK(streamed.body().typeOrThrow() == windows.body().typeOrThrow());
        std::vector<Value> inputs = randomInputs(windows, sizes, rng());
        CAPTURE(n);
        CAPTURE(s);
        CAPTURE(length);
        Value expected = interpret(windows, sizes, inputs);
        CHECK(expected.size() == static_cast<size_t>((length - n + s) / s));
        checkSame(expected, interpret(streamed, sizes, inputs), 0, 0);
        ++checked;
      }
  CHECK(checked == 50);
}

TEST_CASE("slideSeq: type errors name the field") {
  Expr a = input("A", array(f32(), 4));
  CHECK_THROWS_WITH_AS(
      typeCheck(program({a}, slideSeq(5, 1, orderedFold(), a))),
      doctest::Contains("slideSeq(5, 1) of [float]4: the input is not provably at least one window long"), TypeError);
  CHECK_THROWS_WITH_AS(typeCheck(program({a}, slideSeq(0, 1, orderedFold(), a))),
                       doctest::Contains("/size: slideSeq: the window size must be provably positive"), TypeError);
}

TEST_CASE("slideSeq: kernels march with the window in registers and match the interpreter on the device") {
  auto context = ocl::test::testContext();
  int ran = 0;
  // Rows on global work-items, each row streamed: sizes, windows and steps
  // with lengths the step does not divide, and tuple elements (a zip).
  for (int64_t n = 1; n <= 5; ++n)
    for (int64_t s = 1; s <= 2; ++s) {
      int64_t rows = 3, length = 2 * n + 5;
      Expr a = input("A", array(f32(), size("N"), size("M")));
      Expr b = input("B", array(f32(), size("N"), size("M")));
      std::map<std::string, int64_t> sizes{{"N", rows}, {"M", length}};
      Expr zipped = fn(
          [](Expr w) {
            Expr firsts = map(fn([](Expr t) { return get(0, t); }, "t"), w);
            Expr seconds = map(fn([](Expr t) { return get(1, t); }, "t"), w);
            return apply(add(), {at(0, reduceSeqUnroll(mulAdd(), lit(0.0f), firsts)),
                                 at(0, reduceSeqUnroll(add(), lit(0.0f), seconds))});
          },
          "w");
      auto rowPairs = [](Expr r) { return zip(get(0, r), get(1, r)); };
      Program low = typeCheck(
          program({a, b}, mapGlb(0, fn([&](Expr r) { return slideSeq(n, s, zipped, rowPairs(r)); }, "r"), zip(a, b))),
          sizes);
      Program reference = typeCheck(
          program({a, b}, map(fn([&](Expr r) { return mapSeq(zipped, slide(n, s, rowPairs(r))); }, "r"), zip(a, b))),
          sizes);
      codegen::Kernel kernel = codegen::generateKernel(low, codegen::Target::OpenCL);
      CAPTURE(n);
      CAPTURE(s);
      CAPTURE(kernel.source);
      std::string loop = streamingLoop(kernel.source);
      REQUIRE(!loop.empty());
      // s new elements per step (all n when the windows do not overlap), each
      // read once from each of the zipped inputs; the rest carry over.
      size_t fresh = static_cast<size_t>(std::min(n, s));
      CHECK(loadsOf(loop, "A").size() == fresh);
      CHECK(loadsOf(loop, "B").size() == fresh);
      // The window's first n - s elements are loaded once, before the loop.
      CHECK(loadsOf(kernel.source, "A").size() == static_cast<size_t>(n));
      if (s < n) CHECK(loop.find("win_0[0] = win_0[" + std::to_string(1 * s) + "];") != std::string::npos);
      if (!context) continue;
      std::vector<Value> inputs = randomInputs(reference, sizes, 3);
      tuner::OpenCLKernelRunner runner(*context, kernel);
      checkSame(interpret(reference, sizes, inputs), runner.run(sizes, inputs, reference.body().typeOrThrow()).output);
      ++ran;
    }
  if (context) CHECK(ran == 10);
}

TEST_CASE("slideSeq: the stream recipe streams every 2D and 3D stencil example, matching on the device") {
  auto context = ocl::test::testContext();
  std::set<std::string> streamed, refused;
  for (const examples::Example &ex : examples::allExamples()) {
    if (ex.dims < 2) continue;
    CAPTURE(ex.name);
    // Extents no work-group size divides, different per dimension.
    std::map<std::string, int64_t> sizes =
        sizesFor(ex, ex.dims == 2 ? std::vector<int64_t>{13, 21} : std::vector<int64_t>{7, 9, 11});
    Program typed = typeCheck(ex.build(), sizes);
    std::optional<Program> lowered;
    try {
      lowered = rewrite::applyRecipe(typed, rewrite::Recipe::Stream);
    } catch (const rewrite::RewriteError &e) {
      MESSAGE(ex.name, " not streamed: ", e.what());
      refused.insert(ex.name);
      continue;
    }
    streamed.insert(ex.name);
    codegen::Kernel kernel = codegen::generateKernel(*lowered, codegen::Target::OpenCL);
    CAPTURE(kernel.source);
    // The streamed dimension is a loop; the inner dimensions are the NDRange.
    CHECK(kernel.dims == ex.dims - 1);
    std::string loop = streamingLoop(kernel.source);
    REQUIRE(!loop.empty());
    // Each neighbourhood input: per step, one plane of its window (the inner
    // neighbourhood of the column) is loaded, each point once; the previous
    // planes are rotated, not reloaded.
    for (const codegen::KernelArg &arg : kernel.args) {
      if (arg.role != codegen::KernelArg::Role::Input) continue;
      std::vector<std::string> inLoop = loadsOf(loop, arg.name), all = loadsOf(kernel.source, arg.name);
      std::set<std::string> distinct(inLoop.begin(), inLoop.end());
      CAPTURE(arg.name);
      CHECK(distinct.size() == inLoop.size());
      CHECK(!inLoop.empty());
      // Before the loop: the first size-1 planes (step 1 in every example), no more.
      CHECK(all.size() % inLoop.size() == 0);
      CHECK(all.size() / inLoop.size() <= 5);
    }
    CHECK(loop.find("win_0[0] = win_0[") != std::string::npos);
    if (!context) continue;
    checkSame(interpret(typed, sizes, randomInputs(typed, sizes, 7)), runOnDevice(*context, typed, sizes, kernel));
  }
  for (const char *name : {"jacobi2d_5pt", "jacobi2d_9pt", "gaussian", "heat", "jacobi3d_7pt", "jacobi3d_13pt",
                           "poisson", "hotspot3d", "acoustic"})
    CHECK_MESSAGE(streamed.count(name), name, " is not streamed");
  std::string names;
  for (const std::string &n : streamed) names += n + " ";
  MESSAGE("streamed: ", names);
}

TEST_CASE("slideSeq: streamed stencils with clamp, mirror, wrap and constant boundaries match on the device") {
  auto context = ocl::test::testContext();
  int checked = 0;
  for (int dims = 2; dims <= 3; ++dims)
    for (int boundary = 0; boundary < 4; ++boundary)
      for (int radius = 1; radius <= 2; ++radius) {
        std::vector<Size> sizes = examples::gridSizes(dims, 2 * radius + 1);
        Expr grid = examples::gridInput("A", sizes);
        Expr padded = boundary == 3 ? padConstantN(dims, radius, radius, lit(0.5f), grid)
                                    : padN(dims, radius, radius,
                                           std::array{PadMode::Clamp, PadMode::Mirror, PadMode::Wrap}[boundary], grid);
        // Every point of the box with its own weight, so any misplaced plane shows.
        std::vector<examples::WeightedGroup> groups;
        int k = 0;
        for (const examples::Offset &o : examples::boxOffsets(dims, radius))
          groups.push_back({std::to_string(0.01 * ++k) + "f", {o}});
        Expr f = fn([&](Expr nbh) { return examples::weightedSum("box", nbh, radius, groups); }, "nbh");
        Program high = program({grid}, mapN(dims, f, slideN(dims, 2 * radius + 1, 1, padded)));
        std::map<std::string, int64_t> extents;
        std::vector<int64_t> values{6, 9, 11};
        for (size_t d = 0; d < sizes.size(); ++d) extents[sizes[d].varName()] = values[d];
        Program typed = typeCheck(high, extents);
        Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::Stream);
        codegen::Kernel kernel = codegen::generateKernel(lowered, codegen::Target::OpenCL);
        CAPTURE(dims);
        CAPTURE(boundary);
        CAPTURE(radius);
        CAPTURE(kernel.source);
        CHECK(!streamingLoop(kernel.source).empty());
        ++checked;
        if (!context) continue;
        checkSame(interpret(typed, extents, randomInputs(typed, extents, 7)),
                  runOnDevice(*context, typed, extents, kernel));
      }
  CHECK(checked == 16);
}

TEST_CASE("slideSeq: the streaming rules apply where they should and preserve semantics") {
  const examples::Example &j1 = examples::findExample("jacobi1d_3pt");
  std::map<std::string, int64_t> sizes1{{j1.sizeNames[0], 19}};
  Program typed1 = typeCheck(j1.build(), sizes1);
  std::vector<std::string> at1 = rewrite::applicableLocations(typed1, rewrite::slideSeqIntroduction());
  REQUIRE(at1.size() == 1);
  Program rewritten1 = rewrite::applyRule(typed1, rewrite::slideSeqIntroduction(), at1.front());
  CHECK(containsNode(rewritten1.body(), [](const Expr &e) { return e.isPrim(Op::SlideSeq); }));
  std::vector<Value> inputs1 = randomInputs(typed1, sizes1, 1);
  checkSame(interpret(typed1, sizes1, inputs1), interpret(rewritten1, sizes1, inputs1), 0, 0);
  // The 1D rule does not stream a 2D stencil directly (its map is over
  // map(transpose)-reordered windows); the N-d rules do, and not in 1D.
  const examples::Example &j3 = examples::findExample("jacobi3d_7pt");
  std::map<std::string, int64_t> sizes3 = sizesFor(j3, {5, 6, 7});
  Program typed3 = typeCheck(j3.build(), sizes3);
  CHECK(rewrite::applicableLocations(typed3, rewrite::streamOuterDimension(3)).size() == 1);
  CHECK(rewrite::applicableLocations(typed1, rewrite::streamOuterDimension(2)).empty());
  Program streamed = rewrite::applyRule(typed3, rewrite::streamOuterDimension(3),
                                        rewrite::applicableLocations(typed3, rewrite::streamOuterDimension(3)).front());
  std::vector<Value> inputs3 = randomInputs(typed3, sizes3, 1);
  checkSame(interpret(typed3, sizes3, inputs3), interpret(streamed, sizes3, inputs3), 0, 0);
  // A window element too large for registers is not streamed.
  Expr a = input("A", array(f32(), 200, 16));
  Program wide = typeCheck(program(
      {a},
      map(fn([](Expr w) { return map(fn([](Expr c) { return at(0, reduce(add(), lit(0.0f), c)); }), transpose(w)); }),
          slide(3, 1, a))));
  CHECK(rewrite::applicableLocations(wide, rewrite::slideSeqIntroduction()).size() == 1);
  Expr b = input("B", array(f32(), 200, 100));
  Program wider = typeCheck(program(
      {b},
      map(fn([](Expr w) { return map(fn([](Expr c) { return at(0, reduce(add(), lit(0.0f), c)); }), transpose(w)); }),
          slide(3, 1, b))));
  CHECK(rewrite::applicableLocations(wider, rewrite::slideSeqIntroduction()).empty());
}

TEST_CASE("slideSeq: the CUDA variants of the streamed examples compile with NVRTC") {
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  if (!strict) return;
  int compiled = 0;
  for (const examples::Example &ex : examples::allExamples()) {
    if (ex.dims < 2) continue;
    std::map<std::string, int64_t> sizes = sizesFor(ex, {16, 32, 32});
    std::optional<Program> lowered;
    try {
      lowered = rewrite::applyRecipe(typeCheck(ex.build(), sizes), rewrite::Recipe::Stream);
    } catch (const rewrite::RewriteError &) {
      continue;
    }
    codegen::Kernel kernel = codegen::generateKernel(*lowered, codegen::Target::CUDA);
    CAPTURE(ex.name);
    CAPTURE(kernel.source);
    cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, *strict, ex.name + ".cu");
    CHECK(ptx.warnings.empty());
    CHECK(ptx.ptx.find(".entry liftcc_kernel") != std::string::npos);
    ++compiled;
  }
  CHECK(compiled >= 9);
}

} // namespace liftcc
