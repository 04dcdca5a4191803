// atDynamic, the view primitive that picks an element at a computed int
// index (clamped into the array): its semantics by hand, its type errors,
// the point interpreter against the whole interpretation, and its kernels
// against the interpreter on the device (lookup tables in 1D and 2D, an
// index from generate, an index read under padConstant's guard) and through
// NVRTC.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/point_interpreter.h"
#include "core/interp/value_compare.h"
#include "core/interp/value_io.h"
#include "core/typecheck/typecheck.h"
#include "primitives/api.h"
#include "tests/device_check_support.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

namespace liftcc {
namespace {

using namespace api;

Expr twice() { return userFun("twice", {{"x", ScalarKind::Float}}, ScalarKind::Float, "return 2.0f * x;"); }

/// out[i] = twice(T[clamp(I[i])]): a lookup table.
Program lookup(bool lowered) {
  Size n = size("N", 1), m = size("M", 1);
  Expr indices = input("I", array(i32(), n)), table = input("T", array(f32(), m));
  auto element = [&](Expr i) { return apply(twice(), {atDynamic(i, table)}); };
  return program({indices, table}, lowered ? mapGlb(0, fn(element, "i"), indices) : map(fn(element, "i"), indices));
}

void checkKernel(const Program &untyped, const std::vector<std::map<std::string, int64_t>> &sizeSets,
                 const codegen::Kernel &kernel) {
  std::optional<ocl::Context> context = ocl::test::testContext();
  if (!context) return;
  tuner::OpenCLKernelRunner runner(*context, kernel);
  for (const auto &sizes : sizeSets) {
    Program typed = typeCheck(untyped, sizes);
    std::vector<Value> inputs = randomInputs(typed, sizes, 11);
    tuner::KernelRun run = runner.run(sizes, inputs, typed.body().typeOrThrow());
    auto mismatch = compareValues(interpret(typed, sizes, inputs), run.output);
    CAPTURE(kernel.source);
    CHECK_MESSAGE(!mismatch, *mismatch);
  }
}

} // namespace

TEST_CASE("atDynamic: the element at a computed index, clamped into the array") {
  Program typed = typeCheck(lookup(false));
  CHECK(typed.body().typeOrThrow().str() == "[float]N");
  Value indices = Value::array({Scalar::ofInt(-5), Scalar::ofInt(0), Scalar::ofInt(2), Scalar::ofInt(7)});
  Value table = Value::array({Scalar::ofFloat(10), Scalar::ofFloat(20), Scalar::ofFloat(30)});
  Value out = interpret(typed, {{"N", 4}, {"M", 3}}, {indices, table});
  REQUIRE(out.size() == 4);
  CHECK(out[0].scalar().asFloat() == 20.0f); // -5 reads element 0
  CHECK(out[1].scalar().asFloat() == 20.0f);
  CHECK(out[2].scalar().asFloat() == 60.0f);
  CHECK(out[3].scalar().asFloat() == 60.0f); // 7 reads element 2
  // The point interpreter reads the same elements.
  std::map<std::string, int64_t> sizes{{"N", 4}, {"M", 3}};
  std::vector<std::byte> i = toBytes(indices), t = toBytes(table);
  std::vector<Value> points = interpretPoints(
      typed, sizes, {std::span<const std::byte>(i), std::span<const std::byte>(t)}, {{0}, {1}, {2}, {3}});
  for (size_t k = 0; k < 4; ++k) CHECK(points[k].scalar().asFloat() == out[k].scalar().asFloat());
}

TEST_CASE("atDynamic: an index that is not an int, or an operand that is not an array, is a located type error") {
  Size n = size("N", 1);
  Expr a = input("A", array(f32(), n));
  CHECK_THROWS_WITH_AS(typeCheck(program({a}, map(fn([&](Expr x) { return atDynamic(x, a); }), a))),
                       "/body/f/body/index: atDynamic: expected an int index, found float", TypeError);
  Expr s = input("S", i32());
  CHECK_THROWS_AS(typeCheck(program({s}, atDynamic(s, s))), TypeError);
}

TEST_CASE("atDynamic: lookup kernels match the interpreter on the device, and compile with NVRTC") {
  // 1D: indices beyond both ends of the table are clamped.
  codegen::Kernel k1 = codegen::generateKernel(typeCheck(lookup(true)), codegen::Target::OpenCL);
  CHECK(k1.source.find("min(") != std::string::npos);
  checkKernel(lookup(true), {{{"N", 1}, {"M", 1}}, {{"N", 100}, {"M", 7}}, {{"N", 1000}, {"M", 37}}}, k1);

  // 2D: a table read at a row and a column taken from two index arrays.
  Size n = size("N", 1), r = size("R", 1), c = size("C", 1);
  Expr rows = input("I", array(i32(), n)), cols = input("J", array(i32(), n)), table = input("T", array(f32(), r, c));
  Program twoD =
      program({rows, cols, table},
              mapGlb(0, fn([&](Expr p) { return apply(twice(), {atDynamic(get(1, p), atDynamic(get(0, p), table))}); }),
                     zip({rows, cols})));
  codegen::Kernel k2 = codegen::generateKernel(typeCheck(twoD), codegen::Target::OpenCL);
  checkKernel(twoD, {{{"N", 64}, {"R", 5}, {"C", 9}}, {{"N", 3}, {"R", 1}, {"C", 1}}}, k2);

  // An index that is generate's own (within range): read with no clamp.
  Size m = size("M", 1);
  Expr a = input("A", array(f32(), m));
  Program reversed = program({a}, mapGlb(0, twice(), generate(m, fn([&](Expr i) { return atDynamic(i, a); }))));
  codegen::Kernel k3 = codegen::generateKernel(typeCheck(reversed), codegen::Target::OpenCL);
  CHECK(k3.source.find("A[gid0_0]") != std::string::npos);
  checkKernel(reversed, {{{"M", 1}}, {{"M", 33}}}, k3);

  // An index read from memory under padConstant's guard: it is never named
  // (a named index would be evaluated before the guard, reading I out of
  // bounds at the padding).
  Size len = size("N", 1);
  Expr idx = input("I", array(i32(), len)), tab = input("T", array(f32(), m));
  Expr looked = map(fn([&](Expr i) { return atDynamic(i, tab); }), idx);
  Expr add3 = userFun("add3", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}, {"c", ScalarKind::Float}},
                      ScalarKind::Float, "return a + b + c;");
  Program guarded = program({idx, tab}, mapGlb(0, fn([&](Expr w) {
                                                 return apply(add3, {at(0, w), at(1, w), at(2, w)});
                                               }),
                                               slide(3, 1, padConstant(1, 1, lit(0.0f), looked))));
  codegen::Kernel k4 = codegen::generateKernel(typeCheck(guarded), codegen::Target::OpenCL);
  for (size_t line = k4.source.find("const int idx_"); line != std::string::npos;
       line = k4.source.find("const int idx_", line + 1))
    CHECK(k4.source.substr(line, k4.source.find('\n', line) - line).find("I[") == std::string::npos);
  checkKernel(guarded, {{{"N", 1}, {"M", 4}}, {{"N", 50}, {"M", 9}}}, k4);

  // Two tables read at one index from memory, whose own subscript is a lone
  // work-item id (so it carries no index hole): still never named.
  Expr plus = userFun("plus", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, "return a + b;");
  Expr other = input("U", array(f32(), m));
  Program shared = program({idx, tab, other}, mapGlb(0, fn([&](Expr i) {
                                                       Expr row = atDynamic(i, zip({tab, other}));
                                                       return apply(plus, {get(0, row), get(1, row)});
                                                     }),
                                                     idx));
  codegen::Kernel k5 = codegen::generateKernel(typeCheck(shared, {{"N", 20}, {"M", 6}}), codegen::Target::OpenCL);
  CAPTURE(k5.source);
  CHECK(k5.source.find("const int idx_") == std::string::npos);
  checkKernel(shared, {{{"N", 20}, {"M", 6}}}, k5);

  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  if (!strict) return;
  for (const Program &p : {lookup(true), twoD, reversed, guarded}) {
    codegen::Kernel kernel = codegen::generateKernel(typeCheck(p), codegen::Target::CUDA);
    CAPTURE(kernel.source);
    cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, *strict, "at_dynamic.cu");
    CHECK(ptx.log.empty());
    CHECK(ptx.ptx.find(".entry liftcc_kernel") != std::string::npos);
  }
}

} // namespace liftcc
