#include "opencl_test_support.h"
#include "tuner/median.h"
#include "tuner/opencl/opencl_runtime.h"
#include "tuner/opencl/opencl_timing.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

using namespace liftcc;
using namespace liftcc::ocl;

// The runtime objects own OpenCL handles: copying must not compile, moving
// must be cheap and safe.
static_assert(!std::is_copy_constructible_v<Context>);
static_assert(!std::is_copy_constructible_v<Program>);
static_assert(!std::is_copy_constructible_v<Kernel>);
static_assert(!std::is_copy_constructible_v<Buffer>);
static_assert(std::is_nothrow_move_constructible_v<Context>);
static_assert(std::is_nothrow_move_constructible_v<Program>);
static_assert(std::is_nothrow_move_constructible_v<Kernel>);
static_assert(std::is_nothrow_move_constructible_v<Buffer>);
static_assert(std::is_nothrow_move_assignable_v<Buffer>);

namespace {

// One program for all runtime tests: PoCL compiles slowly the first time and
// caches by source text, so every test case reuses this exact source.
constexpr const char *testSource = R"CLC(
__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c, const int n) {
  const int i = get_global_id(0);
  if (i < n) // the global size is rounded up to the work-group size
    c[i] = a[i] + b[i];
}

__kernel void scalars(__global int *oi, __global uint *ou, __global float *of,
                      const int i, const uint u, const float f) {
  oi[0] = i;
  ou[0] = u;
  of[0] = f;
}

__kernel void coords(__global int *out, const int width) {
  const int x = get_global_id(0), y = get_global_id(1);
  out[y * width + x] = 1000 * y + x;
}

__kernel void coords3(__global int *out, const int w, const int h) {
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  out[(z * h + y) * w + x] = 10000 * z + 100 * y + x;
}

// Reverses each work-group's slice through __local memory; the padding
// work-items of the last group contribute -1.
__kernel void reverse_groups(__global const int *in, __global int *out,
                             __local int *scratch, const int n) {
  const int g = get_global_id(0);
  const int l = get_local_id(0), size = get_local_size(0);
  scratch[l] = g < n ? in[g] : -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (g < n)
    out[g] = scratch[size - 1 - l];
}

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void twice(__global double *out, const double d) { out[0] = 2.0 * d; }
#endif
)CLC";

} // namespace

TEST_CASE("NDRange and roundUp") {
  const NDRange a(10);
  CHECK(a.dims() == 1);
  CHECK(a.total() == 10);
  const NDRange b(3, 4, 5);
  CHECK(b.dims() == 3);
  CHECK(b[2] == 5);
  CHECK(b.total() == 60);
  CHECK(roundUp(NDRange(1003), NDRange(64)) == NDRange(1024));
  CHECK(roundUp(NDRange(64), NDRange(64)) == NDRange(64));
  CHECK(roundUp(NDRange(17, 9), NDRange(8, 4)) == NDRange(24, 12));
  CHECK_THROWS_AS(roundUp(NDRange(10), NDRange(2, 2)), std::invalid_argument);
  CHECK_THROWS_AS(roundUp(NDRange(10), NDRange(0)), std::invalid_argument);
}

TEST_CASE("median") {
  const std::vector<std::uint64_t> odd{5, 1, 3};
  const std::vector<std::uint64_t> even{4, 1, 3, 2};
  CHECK(tuner::median(odd) == 3.0);
  CHECK(tuner::median(even) == 2.5);
  CHECK_THROWS_AS(tuner::median(std::vector<std::uint64_t>{}), std::invalid_argument);
}

TEST_CASE("vector add with a global size that is not a multiple of local") {
  const auto device = test::testDevice();
  if (!device) return;
  Context ctx(*device);
  Program program(ctx, testSource);
  Kernel vadd(program, "vadd");
  CHECK(vadd.name() == "vadd");
  CHECK(vadd.numArgs() == 4);

  const int n = 1003; // prime-ish: no work-group size divides it
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.25f * static_cast<float>(i);
  }
  Buffer da(ctx, n * sizeof(float), CL_MEM_READ_ONLY);
  Buffer db(ctx, n * sizeof(float), CL_MEM_READ_ONLY);
  Buffer dc(ctx, n * sizeof(float), CL_MEM_WRITE_ONLY);
  da.upload(a);
  db.upload(b);
  vadd.setArgs(da, db, dc, n);

  // OpenCL 1.2 rejects the unrounded size; the runtime says so clearly.
  CHECK_THROWS_AS(ctx.launch(vadd, n, 64), std::invalid_argument);
  CHECK_THROWS_AS(ctx.launch(vadd, NDRange(1024), NDRange(32, 2)), std::invalid_argument);

  const auto ns = ctx.launch(vadd, roundUp(n, 64), NDRange(64));
  CHECK(ns > 0);
  std::vector<float> c(n);
  dc.download(c);
  for (int i = 0; i < n; ++i) REQUIRE(c[i] == a[i] + b[i]);

  // Again with the runtime choosing the work-group size, into a moved buffer.
  Buffer moved = std::move(dc);
  moved.upload(std::vector<float>(n, -1.0f));
  vadd.setArg(2, moved);
  CHECK(ctx.launch(vadd, n) > 0);
  const auto again = moved.download<float>();
  REQUIRE(again.size() == static_cast<std::size_t>(n));
  CHECK(std::equal(again.begin(), again.end(), c.begin()));
}

TEST_CASE("buffer transfers are bounds-checked and support offsets") {
  const auto device = test::testDevice();
  if (!device) return;
  Context ctx(*device);
  Buffer buf(ctx, 16);
  CHECK(buf.size() == 16);
  const std::vector<std::int32_t> values{1, 2, 3, 4};
  buf.upload(values);
  buf.upload(std::vector<std::int32_t>{42}, 8);
  CHECK(buf.download<std::int32_t>() == std::vector<std::int32_t>{1, 2, 42, 4});
  std::vector<std::int32_t> tail(2);
  buf.download(tail, 8);
  CHECK(tail == std::vector<std::int32_t>{42, 4});
  CHECK_THROWS_AS(buf.upload(std::vector<std::int32_t>(5)), std::out_of_range);
  CHECK_THROWS_AS(buf.download(tail, 12), std::out_of_range);
  CHECK_NOTHROW(buf.upload(std::vector<std::int32_t>{}, 16));
}

TEST_CASE("a buffer outlives the context it was created in") {
  const auto device = test::testDevice();
  if (!device) return;
  // The buffer retains the queue (and through it the context), so the
  // Context object may go first.
  std::optional<Buffer> buf;
  {
    Context ctx(*device);
    buf.emplace(ctx, 3 * sizeof(float));
  }
  buf->upload(std::vector<float>{1.0f, 2.0f, 3.0f});
  CHECK(buf->download<float>() == std::vector<float>{1.0f, 2.0f, 3.0f});
}

TEST_CASE("scalar kernel arguments of each kind") {
  const auto device = test::testDevice();
  if (!device) return;
  Context ctx(*device);
  Program program(ctx, testSource);
  Kernel k(program, "scalars");
  Buffer oi(ctx, sizeof(std::int32_t));
  Buffer ou(ctx, sizeof(std::uint32_t));
  Buffer of(ctx, sizeof(float));

  k.setArgs(oi, ou, of, -7, 3000000000u, 1.5f);
  ctx.launch(k, 1);
  CHECK(oi.download<std::int32_t>().at(0) == -7);
  CHECK(ou.download<std::uint32_t>().at(0) == 3000000000u);
  CHECK(of.download<float>().at(0) == 1.5f);

  // The same through liftcc scalars, as `liftc run` passes parameters.
  k.setArg(3, Scalar::ofInt(123));
  k.setArg(5, Scalar::ofFloat(-0.125f));
  CHECK_THROWS_AS(k.setArg(3, Scalar::ofBool(true)), std::invalid_argument);
  ctx.launch(k, 1);
  CHECK(oi.download<std::int32_t>().at(0) == 123);
  CHECK(of.download<float>().at(0) == -0.125f);

  // A double for a float parameter is an argument-size error, named as such.
  try {
    k.setArg(5, 2.0);
    FAIL("no exception");
  } catch (const OpenCLError &e) {
    CHECK(e.code() == CL_INVALID_ARG_SIZE);
    CHECK(std::string(e.what()).find("argument 5") != std::string::npos);
  }

  if (!device->doubles) {
    MESSAGE("device has no fp64; skipping the double argument");
    return;
  }
  Kernel twice(program, "twice");
  Buffer od(ctx, sizeof(double));
  twice.setArg(0, od);
  twice.setArg(1, 0.1);
  ctx.launch(twice, 1);
  CHECK(od.download<double>().at(0) == 0.2);
  twice.setArg(1, Scalar::ofDouble(-3.25));
  ctx.launch(twice, 1);
  CHECK(od.download<double>().at(0) == -6.5);
}

TEST_CASE("2-D launch") {
  const auto device = test::testDevice();
  if (!device) return;
  Context ctx(*device);
  Program program(ctx, testSource);
  Kernel k(program, "coords");
  const int w = 8, h = 6;
  Buffer out(ctx, w * h * sizeof(std::int32_t));
  k.setArgs(out, w);
  ctx.launch(k, NDRange(w, h), NDRange(4, 2));
  const auto v = out.download<std::int32_t>();
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) REQUIRE(v[y * w + x] == 1000 * y + x);
}

TEST_CASE("3-D launch, with and without a work-group size") {
  const auto device = test::testDevice();
  if (!device) return;
  Context ctx(*device);
  Program program(ctx, testSource);
  Kernel k(program, "coords3");
  const int w = 4, h = 3, d = 2;
  Buffer out(ctx, w * h * d * sizeof(std::int32_t));
  k.setArgs(out, w, h);
  for (const auto &local : {std::optional<NDRange>(NDRange(2, 1, 2)), std::optional<NDRange>()}) {
    out.upload(std::vector<std::int32_t>(w * h * d, -1));
    ctx.launch(k, NDRange(w, h, d), local);
    const auto v = out.download<std::int32_t>();
    for (int z = 0; z < d; ++z)
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) REQUIRE(v[(z * h + y) * w + x] == 10000 * z + 100 * y + x);
  }
}

TEST_CASE("__local memory argument") {
  const auto device = test::testDevice();
  if (!device) return;
  Context ctx(*device);
  Program program(ctx, testSource);
  Kernel k(program, "reverse_groups");
  const int n = 100, group = 16; // 7 groups, the last one padded
  std::vector<std::int32_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = 3 * i + 1;
  Buffer din(ctx, n * sizeof(std::int32_t)), dout(ctx, n * sizeof(std::int32_t));
  din.upload(in);
  k.setArg(0, din);
  k.setArg(1, dout);
  k.setLocalArg(2, group * sizeof(std::int32_t));
  k.setArg(3, n);
  ctx.launch(k, roundUp(n, group), NDRange(group));
  const auto out = dout.download<std::int32_t>();
  for (int i = 0; i < n; ++i) {
    const int base = i / group * group, mirror = base + group - 1 - i % group;
    REQUIRE(out[i] == (mirror < n ? in[mirror] : -1));
  }
  // An empty __local allocation is rejected (by liftcc, since NVIDIA's OpenCL
  // accepts it); the error names the argument.
  try {
    k.setLocalArg(2, 0);
    FAIL("no exception");
  } catch (const OpenCLError &e) {
    CHECK(e.code() == CL_INVALID_ARG_SIZE);
    CHECK(std::string(e.what()).find("argument 2") != std::string::npos);
  }
}

TEST_CASE("launches beyond the device's work-group limits are rejected") {
  const auto device = test::testDevice();
  if (!device) return;
  Context ctx(*device);
  Program program(ctx, testSource);
  Kernel k(program, "coords3");
  Buffer out(ctx, sizeof(std::int32_t));
  k.setArgs(out, 1, 1);
  const std::size_t tooBig = device->maxWorkGroupSize * 2;
  try {
    ctx.launch(k, NDRange(tooBig, 1, 1), NDRange(tooBig, 1, 1));
    FAIL("no exception");
  } catch (const std::invalid_argument &e) {
    const std::string what = e.what();
    CHECK(what.find("coords3") != std::string::npos);
    CHECK(what.find(std::to_string(tooBig)) != std::string::npos);
  }
  CHECK_THROWS_AS(ctx.launch(k, NDRange(0)), std::invalid_argument);
}

TEST_CASE("a kernel with a syntax error throws with the build log") {
  const auto device = test::testDevice();
  if (!device) return;
  Context ctx(*device);
  const char *broken = "__kernel void broken(__global float *x) {\n"
                       "  x[0] = ;\n"
                       "}\n";
  try {
    Program program(ctx, broken, "-DLIFTCC_TEST=1");
    FAIL("the build did not fail");
  } catch (const BuildError &e) {
    const std::string what = e.what();
    MESSAGE("build error as reported:\n" << what);
    CHECK(e.code() == CL_BUILD_PROGRAM_FAILURE);
    CHECK(e.call() == "clBuildProgram");
    REQUIRE_FALSE(e.log().empty());
    // The whole compiler log is part of the message, not just the code.
    CHECK(what.find(e.log()) != std::string::npos);
    CHECK(what.find("error") != std::string::npos);
    CHECK(what.find("-DLIFTCC_TEST=1") != std::string::npos);
  }
}

TEST_CASE("unknown kernel names are reported") {
  const auto device = test::testDevice();
  if (!device) return;
  Context ctx(*device);
  Program program(ctx, testSource);
  try {
    Kernel k(program, "nope");
    FAIL("no exception");
  } catch (const OpenCLError &e) {
    CHECK(e.code() == CL_INVALID_KERNEL_NAME);
    CHECK(std::string(e.what()).find("nope") != std::string::npos);
  }
}

TEST_CASE("timeKernel excludes warm-up runs and reports the median") {
  const auto device = test::testDevice();
  if (!device) return;
  Context ctx(*device);
  Program program(ctx, testSource);
  Kernel vadd(program, "vadd");
  const int n = 1 << 20;
  Buffer a(ctx, n * sizeof(float)), b(ctx, n * sizeof(float)), c(ctx, n * sizeof(float));
  vadd.setArgs(a, b, c, n);
  const auto t = timeKernel(ctx, vadd, n, std::nullopt, {.warmupRuns = 2, .timedRuns = 3});
  REQUIRE(t.samplesNs.size() == 3);
  for (auto s : t.samplesNs) CHECK(s > 0);
  const auto [lo, hi] = std::minmax_element(t.samplesNs.begin(), t.samplesNs.end());
  CHECK(t.medianNs >= static_cast<double>(*lo));
  CHECK(t.medianNs <= static_cast<double>(*hi));
  MESSAGE("vadd of 2^20 floats: median " << t.medianNs / 1e3 << " us");
  CHECK_THROWS_AS(timeKernel(ctx, vadd, n, std::nullopt, {.timedRuns = 0}), std::invalid_argument);
}
