// The hand-written reference kernels of `liftc bench` (bench/reference/):
// every example has an OpenCL C and a CUDA C one; each OpenCL one agrees with
// the interpreter on the OpenCL test device through the launch plan, and
// each CUDA one compiles with NVRTC without warnings and defines its entry
// point (running it needs a GPU).

#include "bench/contenders.h"
#include "bench/reference_kernels.h"
#include "bench/reference_stages.h"
#include "bench/sizes.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "tests/liftc_process.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tuner/cuda/driver_api.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <set>

namespace liftcc {

namespace {

/// The kernel's output on `opencl` for `grids` compared with `expected`:
/// nullopt when they agree within the references' tolerance. Every output
/// element is NaN before the run, so an element the kernel skips is never right.
std::optional<std::string> deviceMismatch(tuner::OpenCLDevice &opencl, const codegen::Kernel &kernel,
                                          const Program &typed, const bench::Sizes &sizes,
                                          const std::vector<bench::Grid> &grids, const Value &expected) {
  tuner::InputViews inputs;
  for (const bench::Grid &g : grids) inputs.push_back(std::as_bytes(std::span(g)));
  tuner::LaunchConfig config;
  config.poisonOutput = true;
  tuner::RawRun run = opencl.compile(kernel)->runViews(sizes, inputs, config);
  bench::Grid output(run.output.size() / sizeof(float));
  std::memcpy(output.data(), run.output.data(), output.size() * sizeof(float));
  return compareValues(expected, bench::toValue(typed, sizes, output), {1e-4, 1e-5});
}

} // namespace

TEST_CASE("bench/reference: every example has an OpenCL and a CUDA reference kernel") {
  for (const examples::Example &ex : examples::allExamples()) {
    CAPTURE(ex.name);
    std::optional<bench::ReferenceKernel> cl = bench::findReferenceKernel(ex.name, codegen::Target::OpenCL);
    std::optional<bench::ReferenceKernel> cu = bench::findReferenceKernel(ex.name, codegen::Target::CUDA);
    REQUIRE(cl);
    REQUIRE(cu);
    CHECK(cl->source.find("__kernel void " + ex.name + "(") != std::string::npos);
    CHECK(cu->source.find("extern \"C\" __global__ void " + ex.name + "(") != std::string::npos);
  }
}

TEST_CASE("bench/reference: every OpenCL reference kernel matches the interpreter on the device") {
  std::optional<ocl::DeviceInfo> device = ocl::test::testDevice();
  if (!device) return;
  tuner::OpenCLDevice opencl(*device);
  for (const examples::Example &ex : examples::allExamples()) {
    CAPTURE(ex.name);
    Program program = ex.build();
    // Extents that are no multiple of any work-group size.
    bench::Sizes sizes;
    for (size_t d = 0; d < ex.sizeNames.size(); ++d)
      sizes[ex.sizeNames[d]] = ex.dims == 3 ? int64_t(5 + 2 * d) : int64_t(13 + 8 * d);
    Program typed = typeCheck(program, sizes);
    std::vector<bench::Grid> grids = bench::randomGrids(typed, sizes, 3);
    Value expected = interpret(typed, sizes, bench::toValues(typed, sizes, grids));
    codegen::Kernel kernel =
        bench::referenceKernel(ex, bench::findReferenceKernel(ex.name, codegen::Target::OpenCL)->source,
                               codegen::Target::OpenCL, typed, sizes);
    auto mismatch = deviceMismatch(opencl, kernel, typed, sizes, grids, expected);
    CHECK_MESSAGE(!mismatch, *mismatch);
  }
}

TEST_CASE("bench/reference: every CUDA reference kernel compiles with NVRTC without warnings") {
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  if (!strict) return;
  const cuda::NvrtcOptions &options = *strict;
  int compiled = 0;
  for (const examples::Example &ex : examples::allExamples()) {
    CAPTURE(ex.name);
    std::optional<bench::ReferenceKernel> cu = bench::findReferenceKernel(ex.name, codegen::Target::CUDA);
    REQUIRE(cu);
    cuda::PtxResult ptx = cuda::compileToPtx(std::string(cu->source), options, ex.name + ".cu");
    CHECK(ptx.warnings.empty());
    CHECK(ptx.ptx.find(".entry " + ex.name + "(") != std::string::npos);
    ++compiled;
  }
  CHECK(compiled == 15);
}

TEST_CASE("bench/reference: the expert references (float4 along x) match the interpreter on the device at sizes "
          "that are and are not multiples of 4, and their CUDA twins compile with NVRTC without warnings") {
  std::optional<ocl::DeviceInfo> device = ocl::test::testDevice();
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  std::set<std::string> withExpert;
  for (const bench::EmbeddedSource &s : bench::embeddedReferenceSources()) {
    // Every file is an example's naive reference or its expert one.
    std::string stem(s.name);
    CAPTURE(stem);
    std::string example = stem.ends_with("_expert") ? stem.substr(0, stem.size() - 7) : stem;
    CHECK_NOTHROW(examples::findExample(example));
    if (stem != example) withExpert.insert(example);
  }
  // The bench's default examples at least (bench/benchmark.h).
  CHECK(withExpert.count("jacobi2d_5pt"));
  CHECK(withExpert.count("gaussian"));
  CHECK(withExpert.count("heat"));
  for (const std::string &name : withExpert) {
    CAPTURE(name);
    const examples::Example &ex = examples::findExample(name);
    std::optional<bench::ReferenceKernel> cl = bench::findExpertKernel(name, codegen::Target::OpenCL);
    std::optional<bench::ReferenceKernel> cu = bench::findExpertKernel(name, codegen::Target::CUDA);
    REQUIRE(cl);
    REQUIRE(cu);
    CHECK(cl->source.find("__kernel void " + name + "_expert(") != std::string::npos);
    if (strict) {
      cuda::PtxResult ptx = cuda::compileToPtx(std::string(cu->source), *strict, name + "_expert.cu");
      CHECK(ptx.warnings.empty());
      CHECK(ptx.ptx.find(".entry " + name + "_expert(") != std::string::npos);
    }
    if (!device) continue;
    tuner::OpenCLDevice opencl(*device);
    // Innermost extents: a multiple of 4 with an interior, one that is not,
    // and ones smaller than a block plus its halo.
    for (int64_t innermost : {int64_t(24), int64_t(23), int64_t(6), int64_t(3)}) {
      CAPTURE(innermost);
      bench::Sizes sizes;
      for (size_t d = 0; d < ex.sizeNames.size(); ++d)
        sizes[ex.sizeNames[d]] = d + 1 == ex.sizeNames.size() ? innermost : int64_t(ex.dims == 3 ? 6 + d : 11);
      Program typed = typeCheck(ex.build(), sizes);
      std::vector<bench::Grid> grids = bench::randomGrids(typed, sizes, 5);
      Value expected = interpret(typed, sizes, bench::toValues(typed, sizes, grids));
      codegen::Kernel kernel = bench::expertKernel(ex, cl->source, codegen::Target::OpenCL, typed, sizes);
      auto mismatch = deviceMismatch(opencl, kernel, typed, sizes, grids, expected);
      CHECK_MESSAGE(!mismatch, *mismatch);
    }
  }
}

TEST_CASE("bench/reference: every multi-stage reference (kernels in order, temporaries, host loop) matches the "
          "interpreter on the device, and its CUDA C compiles with NVRTC") {
  std::optional<ocl::DeviceInfo> device = ocl::test::testDevice();
  std::optional<cuda::NvrtcOptions> strict = cuda::test::strictSm90();
  size_t ran = 0;
  for (const examples::Example &ex : examples::multiStageExamples()) {
    CAPTURE(ex.name);
    std::optional<bench::ReferenceSchedule> schedule = bench::referenceSchedule(ex.name);
    REQUIRE(schedule);
    bench::Sizes sizes;
    for (size_t d = 0; d < ex.sizeNames.size(); ++d)
      sizes[ex.sizeNames[d]] = ex.dims == 3 ? int64_t(5 + 2 * d) : int64_t(13 + 8 * d);
    Program typed = typeCheck(ex.build(), sizes);
    codegen::Kernel kernel = bench::scheduledReferenceKernel(ex, *schedule, codegen::Target::OpenCL, typed, sizes);
    CHECK(kernel.stages.size() == (schedule->stages.size() > 1 ? schedule->stages.size() : 0));
    CHECK(kernel.iteration.has_value() == ex.name.starts_with("jacobi2d_5pt_iter"));
    if (strict) {
      codegen::Kernel cu = bench::scheduledReferenceKernel(ex, *schedule, codegen::Target::CUDA, typed, sizes);
      cuda::PtxResult ptx = cuda::compileToPtx(cu.source, *strict, ex.name + ".cu");
      CHECK(ptx.warnings.empty());
      for (const bench::ReferenceStage &stage : schedule->stages)
        CHECK(ptx.ptx.find(".entry " + stage.kernel + "(") != std::string::npos);
    }
    if (!device) continue;
    tuner::OpenCLDevice opencl(*device);
    std::vector<bench::Grid> grids = bench::randomGrids(typed, sizes, 3);
    // SRAD divides by the image intensity, which Rodinia keeps in [1, e].
    if (ex.name == "srad_two_stage")
      for (float &x : grids[0]) x = 1.5f + 0.5f * x;
    Value expected = interpret(typed, sizes, bench::toValues(typed, sizes, grids));
    auto mismatch = deviceMismatch(opencl, kernel, typed, sizes, grids, expected);
    CHECK_MESSAGE(!mismatch, *mismatch);
    ++ran;
  }
  if (device) CHECK(ran == 5);
}

TEST_CASE("bench: the multi-stage rows: fused where fusing changes the program, time tiles for iterate") {
  auto variants = [](const std::string &name) {
    std::set<std::string> out;
    for (const bench::Contender &c : bench::contendersFor(examples::findExample(name), {}, codegen::Target::OpenCL))
      out.insert(c.variant);
    return out;
  };
  std::set<std::string> srad = variants("srad_two_stage");
  CHECK(srad.count("plain fused") == 1);
  CHECK(srad.count("coarsened x8 fused") == 1);
  CHECK(srad.count("hand-written") == 1);
  // The chain's intermediate is also a result: fusing it changes nothing.
  CHECK(variants("chain3d_radius2").count("plain fused") == 0);
  std::set<std::string> iterated = variants("jacobi2d_5pt_iter64");
  CHECK(iterated.count("plain time=2") == 1);
  CHECK(iterated.count("coarsened x8 time=4") == 1);
  CHECK(iterated.count("plain fused") == 0);
  CHECK(variants("jacobi2d_5pt").count("plain time=2") == 0);
  // Local memory rows on the GPU only (PoCL runs them 5x slower than plain).
  auto cudaVariants = [](const std::string &name) {
    std::set<std::string> out;
    for (const bench::Contender &c : bench::contendersFor(examples::findExample(name), {}, codegen::Target::CUDA))
      out.insert(c.variant);
    return out;
  };
  CHECK(iterated.count("timeTiledLocal time=4 tile=32x8") == 0);
  CHECK(cudaVariants("jacobi2d_5pt_iter64").count("timeTiledLocal time=4 tile=32x8") == 1);
  CHECK(iterated.count("timeTiledStream time=4 256 chunk=32 wg=256") == 0);
  CHECK(cudaVariants("jacobi2d_5pt_iter64").count("timeTiledStream time=4 256 chunk=32 wg=256") == 1);
  CHECK(variants("heat").count("streamLocal 32x4 chunk=32 wg=32x4") == 0);
  CHECK(cudaVariants("heat").count("streamLocal 32x4 chunk=32 wg=32x4") == 1);
  CHECK(cudaVariants("heat").count("streamLocal 128x4 vec4 chunk=32 wg=32x4 spec") == 1);
  CHECK(cudaVariants("hotspot3d").count("streamLocal 32x4 chunk=32 wg=32x4") == 1);
  CHECK(cudaVariants("jacobi2d_5pt").count("streamLocal 1024 vec4 chunk=32 wg=256 spec") == 1);
  CHECK(cudaVariants("gaussian").count("streamLocal 256 chunk=32 wg=256") == 1);
}

TEST_CASE("liftc bench --target cuda: runs on a GPU, or fails with one line saying why there is none") {
  cuda::DriverLoadResult driver = cuda::DriverApi::load();
  if (driver) {
    MESSAGE("a CUDA driver is loadable: liftc bench --target cuda is left to a run on the GPU");
    return;
  }
  test::LiftcRun run = test::runLiftc("bench --target cuda --examples jacobi2d_5pt --explore 0 --quiet");
  CHECK(run.status == 1);
  CHECK_MESSAGE(run.output.find("liftc: error: " + driver.error) != std::string::npos, run.output);
  CHECK(std::count(run.output.begin(), run.output.end(), '\n') == 1);
}

} // namespace liftcc
