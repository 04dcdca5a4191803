// Generated OpenCL kernels run on the default OpenCL device (PoCL on the CI
// machine) and must agree with the reference interpreter.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "primitives/api.h"
#include "tests/opencl_test_support.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <regex>

namespace liftcc {
namespace {

using namespace api;

Expr add3() {
  return userFun("add3", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}, {"c", ScalarKind::Float}},
                 ScalarKind::Float, "return a + b + c;");
}
Expr add() {
  return userFun("add", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, "return a + b;");
}
Expr jacobi5() {
  return userFun("jacobi5",
                 {{"n", ScalarKind::Float},
                  {"w", ScalarKind::Float},
                  {"c", ScalarKind::Float},
                  {"e", ScalarKind::Float},
                  {"s", ScalarKind::Float}},
                 ScalarKind::Float, "return 0.2f * (n + w + c + e + s);");
}
/// The 5-point Jacobi update of a 3x3 neighbourhood.
Expr jacobiOf(Expr nbh) {
  auto at2 = [&](int r, int c) { return at(c, at(r, nbh)); };
  return apply(jacobi5(), {at2(0, 1), at2(1, 0), at2(1, 1), at2(1, 2), at2(2, 1)});
}

/// Generates the kernel, runs it for every size assignment and compares with
/// the interpreter. Returns the kernel for further inspection.
codegen::Kernel checkOnDevice(const Program &program, const std::vector<std::map<std::string, int64_t>> &sizeSets,
                              const codegen::CodegenOptions &options = {}) {
  Program typed = typeCheck(program);
  codegen::Kernel kernel = codegen::generateKernel(typed, codegen::Target::OpenCL, options);
  std::optional<ocl::Context> context = ocl::test::testContext();
  if (!context) return kernel; // generated but not executed
  tuner::OpenCLKernelRunner runner(*context, kernel);
  for (const auto &sizes : sizeSets) {
    Program concrete = typeCheck(program, sizes);
    std::vector<Value> inputs = randomInputs(concrete, sizes, 42);
    Value expected = interpret(concrete, sizes, inputs);
    tuner::KernelRun run = runner.run(sizes, inputs, concrete.body().typeOrThrow());
    auto mismatch = compareValues(expected, run.output);
    CAPTURE(kernel.source);
    CHECK_MESSAGE(!mismatch, *mismatch);
  }
  return kernel;
}

size_t count(const std::string &text, const std::string &needle) {
  size_t n = 0;
  for (size_t pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1)) ++n;
  return n;
}

} // namespace

TEST_CASE("opencl: 1D Jacobi with clamp padding, mapGlb") {
  Size n = size("N");
  Expr a = input("A", array(f32(), n));
  Program p = program({a}, mapGlb(
                               0,
                               [](Expr w) {
                                 return apply(add3(), {at(0, w), at(1, w), at(2, w)});
                               },
                               slide(3, 1, pad(1, 1, clamp, a))));
  codegen::Kernel k = checkOnDevice(p, {{{"N", 1}}, {{"N", 7}}, {{"N", 1000}}});
  // One global read per stencil access and no temporaries.
  CHECK(count(k.source, "A[") == 3);
  CHECK(k.source.find("tile_") == std::string::npos);
  CHECK(k.source.find("priv_") == std::string::npos);
}

TEST_CASE("opencl: pad modes and constant padding") {
  Size n = size("N", 2);
  Expr a = input("A", array(f32(), n));
  for (PadMode mode : {clamp, mirror, wrap}) {
    Program p = program({a}, mapGlb(
                                 0,
                                 [](Expr w) {
                                   return apply(add3(), {at(0, w), at(1, w), at(2, w)});
                                 },
                                 slide(3, 1, pad(2, 2, mode, a))));
    checkOnDevice(p, {{{"N", 2}}, {{"N", 5}}, {{"N", 33}}});
  }
  Program constant = program({a}, mapGlb(
                                      0,
                                      [](Expr w) {
                                        return apply(add3(), {at(0, w), at(1, w), at(2, w)});
                                      },
                                      slide(3, 1, padConstant(1, 1, lit(0.5f), a))));
  checkOnDevice(constant, {{{"N", 2}}, {{"N", 17}}});
}

TEST_CASE("opencl: 2D Jacobi 5-point, mapGlb over both dimensions") {
  Size n = size("N", 1), m = size("M", 1);
  Expr a = input("A", array(f32(), n, m));
  Program p = program({a}, mapGlb(
                               1,
                               [](Expr row) {
                                 return mapGlb(
                                     0, [](Expr nbh) { return jacobiOf(nbh); }, row);
                               },
                               slideN(2, 3, 1, padN(2, 1, 1, clamp, a))));
  codegen::Kernel k = checkOnDevice(p, {{{"N", 1}, {"M", 1}}, {{"N", 5}, {"M", 9}}, {{"N", 64}, {"M", 33}}});
  CHECK(count(k.source, "A[") == 5);
  CHECK(k.dims == 2);
  CHECK(k.source.find("tile_") == std::string::npos);
}

TEST_CASE("opencl: 2D Jacobi with a local-memory tile per work-group") {
  const int t = 8; // outputs per tile and dimension
  Size n = size("N", t), m = size("M", t);
  Expr a = input("A", array(f32(), n, m));
  Expr idf = id(ScalarKind::Float);
  auto computeTile = [&](Expr tile) {
    Expr local = toLocal(
        [&](Expr x) {
          return mapLcl(
              1, [&](Expr r) { return mapLcl(0, idf, r); }, x);
        },
        tile);
    return mapLcl(
        1,
        [](Expr row) {
          return mapLcl(
              0, [](Expr nbh) { return jacobiOf(nbh); }, row);
        },
        slideN(2, 3, 1, local));
  };
  Expr tiles = slideN(2, t + 2, t, padN(2, 1, 1, clamp, a));
  Expr computed = mapWrg(
      1, [&](Expr row) { return mapWrg(0, computeTile, row); }, tiles);
  // Untile: [[ [[float]t]t ]M/t]N/t -> [[float]M]N.
  Expr untiled =
      join(map([](Expr rowOfTiles) { return map([](Expr x) { return join(x); }, transpose(rowOfTiles)); }, computed));
  Program p = program({a}, untiled);
  codegen::Kernel k = checkOnDevice(p, {{{"N", 8}, {"M", 8}}, {{"N", 24}, {"M", 40}}});
  CHECK(k.localSize.has_value());
  CHECK(k.localMemoryBytes == (t + 2) * (t + 2) * 4);
  // One barrier, after the tile copy: the mapWrg body runs once per work-group
  // (no loop), so nothing needs to wait at its end; and no guard on the group
  // ids (the launch provides exactly one work-group per tile), so the barrier
  // is not in conditional code.
  CHECK(count(k.source, "barrier(") == 1);
  CHECK(count(k.source, "if (wg") == 0);
  CHECK(count(k.source, "get_group_id(") == 2);
  // The tile is the only temporary; the input is read once per tile element.
  CHECK(count(k.source, "A[") == 1);
}

// PoCL 3.1 (pthread device, LLVM 15) dies with SIGSEGV in the compiled
// work-group function of this kernel: its one barrier is under a guard on a
// group id and followed by work-item loops in three dimensions. Without the
// guard, or with a second barrier at the end of the guarded block, it runs.
// liftcc's mapWrg kernels used to end with that second barrier; they now have
// neither the guard nor it (codegen/generator_loops.cpp). Skipped: it kills the
// test process on the affected PoCL (run it with -ts='*' -tc='*PoCL 3.1*' --no-skip).
TEST_CASE("opencl: PoCL 3.1 reproducer, a barrier under a group-id guard before 3D work-item loops" * doctest::skip()) {
  const char *source = R"CL(
kernel void k(global float *out) {
  local float tile[216];
  const int wg = (int)get_group_id(0);
  if (wg < 3) {
    for (int z = (int)get_local_id(2); z < 6; z += (int)get_local_size(2))
      for (int y = (int)get_local_id(1); y < 6; y += (int)get_local_size(1))
        for (int x = (int)get_local_id(0); x < 6; x += (int)get_local_size(0))
          tile[x + 6 * y + 36 * z] = x + y + z;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int z = (int)get_local_id(2); z < 4; z += (int)get_local_size(2))
      for (int y = (int)get_local_id(1); y < 4; y += (int)get_local_size(1))
        for (int x = (int)get_local_id(0); x < 4; x += (int)get_local_size(0))
          out[x + 12 * y + 96 * z + 4 * wg] = tile[x + 6 * y + 36 * z + 43];
  }
}
)CL";
  std::optional<ocl::Context> context = ocl::test::testContext();
  if (!context) return;
  ocl::Program program(*context, source);
  ocl::Kernel kernel(program, "k");
  ocl::Buffer out(*context, 18 * 12 * 12 * sizeof(float));
  out.upload(std::vector<float>(18 * 12 * 12, 0.0f));
  kernel.setArgs(out);
  context->launch(kernel, ocl::NDRange(18, 12, 12), ocl::NDRange(6, 6, 6));
  std::vector<float> result = out.download<float>();
  CHECK(result[0] == 3.0f); // tile[43] = 1 + 1 + 1
}

TEST_CASE("opencl: reverse, a view primitive built with api::primitive, read through slide and in 2D") {
  auto reverse = [](Expr in) { return primitive(Op::Reverse, {{"in", std::move(in)}}); };
  Size n = size("N", 1), m = size("M", 1);
  Expr a = input("A", array(f32(), n));
  // The interpreter's semantics, by hand.
  Program typed = typeCheck(program({a}, reverse(a)));
  Value in = Value::array({Scalar::ofFloat(1), Scalar::ofFloat(2), Scalar::ofFloat(3)});
  Value out = interpret(typed, {{"N", 3}}, {in});
  CHECK(typed.body().typeOrThrow().str() == "[float]N");
  REQUIRE(out.size() == 3);
  CHECK(out[0].scalar().asFloat() == 3.0f);
  CHECK(out[2].scalar().asFloat() == 1.0f);
  // On the device, against the interpreter: a stencil over the reversed, padded input.
  Program stencil = program({a}, mapGlb(
                                     0,
                                     [](Expr w) {
                                       return apply(add3(), {at(0, w), at(1, w), at(2, w)});
                                     },
                                     slide(3, 1, reverse(pad(1, 1, clamp, a)))));
  codegen::Kernel k = checkOnDevice(stencil, {{{"N", 1}}, {{"N", 7}}, {{"N", 100}}});
  CHECK(count(k.source, "A[") == 3);
  // Both dimensions reversed: the rows, and the elements of each row.
  Expr b = input("B", array(f32(), n, m));
  Program twoD =
      program({b}, mapGlb(
                       1, [&](Expr row) { return mapGlb(0, id(ScalarKind::Float), reverse(row)); }, reverse(b)));
  checkOnDevice(twoD, {{{"N", 1}, {"M", 1}}, {{"N", 3}, {"M", 5}}, {{"N", 17}, {"M", 4}}});
}

TEST_CASE("opencl: zip of a stencil with a second grid, and a reduction") {
  Size n = size("N", 1);
  Expr a = input("A", array(f32(), n)), b = input("B", array(f32(), n));
  Program p =
      program({a, b}, mapGlb(
                          0,
                          [](Expr t) {
                            return apply(add(), {at(0, reduceSeqUnroll(add(), lit(0.0f), get(0, t))), get(1, t)});
                          },
                          zip(slide(3, 1, pad(1, 1, clamp, a)), b)));
  // The reduction result is materialised in a private array of one element.
  checkOnDevice(p, {{{"N", 1}}, {{"N", 100}}});
}

TEST_CASE("opencl: split/join and transpose in the output, generate in the input") {
  Size n = size("N", 1), m = size("M", 1);
  Expr a = input("A", array(f32(), n, m));
  Expr twice = userFun("twice", {{"x", ScalarKind::Float}}, ScalarKind::Float, "return 2.0f * x;");
  Program tp = program({a}, transpose(mapGlb(
                                1, [&](Expr r) { return mapGlb(0, twice, r); }, a)));
  checkOnDevice(tp, {{{"N", 3}, {"M", 5}}});

  Size k = size("K", 1);
  Expr v = input("V", array(f32(), k * 4));
  Program sj = program({v}, join(mapGlb(
                                0, [&](Expr chunk) { return mapSeq(twice, chunk); }, split(4, v))));
  checkOnDevice(sj, {{{"K", 1}}, {{"K", 9}}});

  Expr scale = userFun("scale", {{"i", ScalarKind::Int}, {"x", ScalarKind::Float}}, ScalarKind::Float,
                       "return x * (float)(i % 3);");
  Program gen = program({v}, mapGlb(
                                 0,
                                 [&](Expr t) {
                                   return apply(scale, {get(0, t), get(1, t)});
                                 },
                                 zip(generate(k * 4, [](Expr i) { return i; }), v)));
  checkOnDevice(gen, {{{"K", 3}}});
}

TEST_CASE("codegen: illegal nestings are rejected with the node's location") {
  Size n = size("N"), m = size("M");
  Expr a = input("A", array(f32(), n, m));
  Expr idf = id(ScalarKind::Float);
  auto reject = [](const Program &p, const std::string &message) {
    Program typed = typeCheck(p);
    try {
      codegen::generateKernel(typed, codegen::Target::OpenCL);
      FAIL("accepted");
    } catch (const codegen::CodegenError &e) {
      CHECK_MESSAGE(std::string(e.what()).find(message) != std::string::npos, e.what());
      CHECK(e.path().rfind("/body", 0) == 0);
    }
  };
  reject(program({a}, mapGlb(
                          0, [&](Expr r) { return mapGlb(0, idf, r); }, a)),
         "nested inside another mapGlb(0)");
  reject(program({a}, mapGlb(
                          0, [&](Expr r) { return mapLcl(0, idf, r); }, a)),
         "mapLcl must be nested inside mapWrg");
  reject(program({a}, mapLcl(
                          0, [&](Expr r) { return mapSeq(idf, r); }, a)),
         "mapLcl must be nested inside mapWrg");
  reject(program({a}, map([&](Expr r) { return mapSeq(idf, r); }, a)), "map must be lowered");
  Size l = size("L", 2);
  Expr v = input("V", array(f32(), l));
  reject(program({v}, mapWrg(
                          0,
                          [&](Expr w) {
                            return mapLcl(
                                0,
                                [&](Expr pair) {
                                  return apply(idf, {at(0, toLocal([&](Expr x) { return mapSeq(idf, x); }, pair))});
                                },
                                slide(2, 1, w));
                          },
                          slide(2, 1, v))),
         "toLocal must be used by a whole work-group");
  reject(program({a}, transpose(a)), "computes nothing");
}

} // namespace liftcc

namespace liftcc {

TEST_CASE("opencl: iterate runs the kernel of its function repeatedly with swapped buffers") {
  using namespace api;
  Size n = size("N", 1);
  Expr a = input("A", array(f32(), n));
  Expr avg3 = userFun("avg3", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}, {"c", ScalarKind::Float}},
                      ScalarKind::Float, "return (a + b + c) / 3.0f;");
  auto step = [&](Expr x) {
    return mapGlb(
        0,
        [&](Expr w) {
          return apply(avg3, {at(0, w), at(1, w), at(2, w)});
        },
        slide(3, 1, pad(1, 1, clamp, x)));
  };
  for (int iterations : {0, 1, 2, 5}) {
    CAPTURE(iterations);
    codegen::Kernel k = checkOnDevice(program({a}, iterate(iterations, step, a)), {{{"N", 1}}, {{"N", 50}}});
    REQUIRE(k.iteration.has_value());
    CHECK(k.iteration->count == arith::Expr(iterations));
  }
}

} // namespace liftcc
