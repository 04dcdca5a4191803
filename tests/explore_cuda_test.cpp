// The exploration driver is backend-neutral: it sees a tuner::Device, so the
// CUDA backend gets the same space, verification, store and best-kernel
// directory as OpenCL. Without a GPU this is tested with the compile-only CUDA
// device, which compiles every kernel for real with NVRTC (ptxas's figures
// included) and refuses to run it; with a GPU (and a driver cuInit accepts),
// `explore --target cuda` runs for real and must produce a verified best kernel.

#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/best_kernels.h"
#include "explore/explorer.h"
#include "explore/strategy_text.h"
#include "explore/variant_evaluation.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"
#include "tuner/cuda/compile_only_device.h"
#include "tuner/cuda/cuda_backend.h"
#include "tuner/cuda/nvrtc_compiler.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>

namespace liftcc {
namespace {

using test::TempDir;
using Sizes = std::map<std::string, int64_t>;

/// The library's compile-only CUDA device (tuner/cuda/compile_only_device.h)
/// with the tests' strictness: NVRTC warnings are failures, and the default
/// DeviceLimits (work-groups of at most 256) keep the spaces small.
tuner::CompileOnlyCudaDevice::Options strictOptions() {
  tuner::CompileOnlyCudaDevice::Options options;
  options.warningsAsErrors = true;
  options.limits = tuner::DeviceLimits{};
  return options;
}

explore::ExploreOptions smallRun(const std::filesystem::path &dir, size_t evaluations) {
  explore::ExploreOptions options = test::tinyExploreOptions("jacobi2d_5pt", dir);
  options.budget.maxEvaluations = evaluations;
  return options;
}

} // namespace

TEST_CASE("explore: a CUDA device gets CUDA kernels, every one compiles with NVRTC, failures are recorded") {
  if (!cuda::nvrtcAvailable()) return; // the compile-only device needs NVRTC
  TempDir dir;
  tuner::CompileOnlyCudaDevice device(strictOptions());
  Program program = examples::findExample("jacobi2d_5pt").build();
  Sizes sizes{{"N", 16}, {"M", 16}};
  explore::ExploreOptions options = smallRun(dir.path(), 6);
  options.prepareThreads = 0; // nothing compiled ahead: the compile count below is exact
  explore::ExploreResult result = explore::explore(program, sizes, device, options);
  test::checkNoBugs(result);
  // The baselines (uncharged) and six more.
  REQUIRE(result.evaluations.size() == result.baselinesEvaluated + 6);
  std::set<rewrite::Recipe> recipes;
  for (const auto &e : result.evaluations) {
    CAPTURE(e.record.key);
    // Compiled (the check kernel) and then refused to run: a runtime
    // failure, never a compile failure (NVRTC accepted the kernel).
    CHECK(e.record.outcome == search::Outcome::Runtime);
    CHECK(e.record.error == tuner::KernelNotRunError::kMessage);
    // The timed kernel's SASS figures, from its own compilation: a small
    // Jacobi neither spills nor uses shared memory outside local tiles.
    REQUIRE(e.record.sass);
    CHECK(e.record.sass->arch == "sm_90");
    CHECK(e.record.sass->registers > 0);
    CHECK(!e.record.sass->spills());
    if (e.configuration.recipe != rewrite::Recipe::Local) CHECK(e.record.sass->sharedBytes == 0);
    recipes.insert(e.configuration.recipe);
  }
  // The round-robin over programs (and their specialised twins) reaches
  // several recipes within the first evaluations, the plain one first.
  CHECK(recipes.count(rewrite::Recipe::Plain) == 1);
  CHECK(recipes.size() >= 3);
  // Both kernels of each variant (the small check kernel and the timed one)
  // are compiled before either runs (explore/variant_evaluation.h).
  CHECK(device.compiled() == 2 * result.evaluations.size());
  CHECK(!result.best);
  CHECK(result.bestKernelDir.empty());
  // Filed apart from an OpenCL view of the same GPU.
  CHECK(result.storePath.find("cuda-compile-only-cuda-device-sm-90") != std::string::npos);
  // The figures are in the store, as measured.
  search::ResultStore store(result.storePath, search::ResultStore::Access::Read);
  REQUIRE(store.records().size() == result.evaluations.size());
  for (size_t i = 0; i < store.records().size(); ++i)
    CHECK(store.records()[i].sass == result.evaluations[i].record.sass);
}

TEST_CASE("explore: a CUDA variant that spills is recorded as constraints with its figures, never run") {
  if (!cuda::nvrtcAvailable()) return;
  // The test hook: ptxas limited to 24 registers, which the coarsened
  // Jacobi (8 outputs along y, a private 3x10 window) spills under, and the
  // plain one does not need.
  tuner::CompileOnlyCudaDevice::Options spilling = strictOptions();
  spilling.extraOptions = {"--maxrregcount=24"};
  tuner::CompileOnlyCudaDevice device(spilling);
  Program program = examples::findExample("jacobi2d_5pt").build();
  Sizes sizes{{"N", 64}, {"M", 64}};
  Program typed = typeCheck(program, sizes);
  TempDir dir;
  explore::ExploreOptions options = smallRun(dir.path(), 1);

  explore::Configuration coarsened;
  coarsened.recipe = rewrite::Recipe::Coarsened;
  coarsened.coarsen = {1, 8, 1};
  search::Record spilled = explore::evaluateVariant(
      program, explore::makeVariant(typed, coarsened, codegen::Target::CUDA), sizes, device, options);
  CHECK(spilled.outcome == search::Outcome::Constraints);
  CHECK(spilled.error.rfind("spills ", 0) == 0);
  CHECK(spilled.error.find(" bytes (sm_90: ") != std::string::npos);
  REQUIRE(spilled.sass);
  CHECK(spilled.sass->spills());
  CHECK(spilled.sass->registers <= 24);

  search::Record plain = explore::evaluateVariant(
      program, explore::makeVariant(typed, explore::Configuration{}, codegen::Target::CUDA), sizes, device, options);
  CHECK(plain.outcome == search::Outcome::Runtime); // passed the check, then refused to run
  REQUIRE(plain.sass);
  CHECK(!plain.sass->spills());

  // With the spill check off, the spilling variant goes on to the device.
  options.sass.dropSpills = false;
  CHECK(explore::evaluateVariant(program, explore::makeVariant(typed, coarsened, codegen::Target::CUDA), sizes, device,
                                 options)
            .outcome == search::Outcome::Runtime);
}

TEST_CASE("explore: a CUDA variant with too few work-groups per SM is recorded as constraints") {
  if (!cuda::nvrtcAvailable()) return;
  tuner::CompileOnlyCudaDevice::Options large = strictOptions();
  large.limits.maxWorkGroupSize = 1024;
  tuner::CompileOnlyCudaDevice device(large);
  Program program = examples::findExample("jacobi2d_5pt").build();
  Sizes sizes{{"N", 64}, {"M", 64}};
  TempDir dir;
  explore::ExploreOptions options = smallRun(dir.path(), 1);
  explore::Configuration wide;
  wide.local = {32, 32, 1}; // 1024 threads: at most 2 per SM by the thread limit alone
  explore::Variant variant = explore::makeVariant(typeCheck(program, sizes), wide, codegen::Target::CUDA);
  options.sass.minGroupsPerSm = 3;
  search::Record record = explore::evaluateVariant(program, variant, sizes, device, options);
  CHECK(record.outcome == search::Outcome::Constraints);
  CHECK(record.error.rfind("2 work-groups of 1024 threads fit per SM, fewer than 3 (sm_90: ", 0) == 0);
  options.sass.minGroupsPerSm = 2;
  CHECK(explore::evaluateVariant(program, variant, sizes, device, options).outcome == search::Outcome::Runtime);
}

TEST_CASE("explore: a CUDA kernel beyond 256 KiB of source is recorded as constraints, never compiled") {
  // A 3D iterate's time tile of 2 steps coarsened 16x8x8 at 128^3 was 353 KB of
  // CUDA C that NVRTC compiled for 98 s, past a 10 s --prepare-only budget
  // (3 steps here: 487 KB).
  Program iterated = typeCheck(readProgram(R"({"liftcc": 1,
    "sizes": [{"name": "O", "min": 3}, {"name": "N", "min": 3}, {"name": "M", "min": 3}],
    "inputs": [{"name": "U", "type": "[[[float]M]N]O"}],
    "body": {"op": "iterate", "n": 4, "f": {"lambda": ["g"], "body": {"op": "stencil", "name": "h7", "grids": {"g": "clamp"},
      "body": "return g[0][0][0] + 0.1f*(g[-1][0][0] + g[1][0][0] + g[0][-1][0] + g[0][1][0] + g[0][0][-1] + g[0][0][1] - 6.0f*g[0][0][0]);"}},
      "in": {"param": "U"}}})"),
                               {{"O", 128}, {"N", 128}, {"M", 128}});
  explore::Variant big = explore::variantFromStrategy(
      iterated, "timeTile(3) ; coarsen(x=16,y=8,z=8) ; privateWindow ; mapGlb(x,y,z)", codegen::Target::CUDA);
  REQUIRE(big.kernel.source.size() > explore::kMaxCudaKernelSourceBytes);
  REQUIRE(explore::oversizedCudaKernel(big.kernel));
  CHECK(explore::oversizedCudaKernel(big.kernel)->find(" KiB, more than the 256 KiB liftc compiles with NVRTC") !=
        std::string::npos);
  // The same kernel for OpenCL is compiled (PoCL's compile is not the GPU host's bottleneck).
  explore::Variant openclBig = explore::variantFromStrategy(
      iterated, "timeTile(3) ; coarsen(x=16,y=8,z=8) ; privateWindow ; mapGlb(x,y,z)", codegen::Target::OpenCL);
  CHECK_FALSE(explore::oversizedCudaKernel(openclBig.kernel));
  if (!cuda::nvrtcAvailable()) return;
  tuner::CompileOnlyCudaDevice device(strictOptions());
  TempDir dir;
  const auto start = std::chrono::steady_clock::now();
  search::Record record =
      explore::evaluateVariant(iterated, big, {{"O", 128}, {"N", 128}, {"M", 128}}, device, smallRun(dir.path(), 1));
  CHECK(record.outcome == search::Outcome::Constraints);
  CHECK(record.error == *explore::oversizedCudaKernel(big.kernel));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5)); // not compiled
}

TEST_CASE("explore: best kernels are written as kernel.cu for CUDA and kernel.cl for OpenCL") {
  CHECK(explore::kernelFileName(codegen::Target::CUDA) == "kernel.cu");
  CHECK(explore::kernelFileName(codegen::Target::OpenCL) == "kernel.cl");
  CHECK(explore::kernelFileOf(nlohmann::json::object()) == "kernel.cl");
  CHECK(explore::kernelFileOf(nlohmann::json{{"kernelFile", "kernel.cu"}}) == "kernel.cu");
  CHECK_THROWS_WITH(explore::kernelFileOf(nlohmann::json{{"kernelFile", "../../secret"}}),
                    doctest::Contains("unexpected kernel file"));
}

TEST_CASE("liftc explore --target cuda: runs on a GPU, or fails with one line saying why there is none") {
  TempDir dir;
  std::string examplesDir = LIFTCC_SOURCE_DIR "/examples/json/";
  test::LiftcRun run = test::runLiftc("explore " + test::shellQuote(examplesDir + "jacobi2d_5pt.json") +
                                      " --size N=64,M=64 --target cuda --evals 4 --runs 3 --quiet --out " +
                                      test::shellQuote(dir.path().string()));
  cuda::DriverLoadResult driver = cuda::DriverApi::load();
  if (!driver) {
    MESSAGE("no GPU (" << driver.error << "): checking the error path only");
    CHECK(run.status == 1);
    CHECK(run.output.find("liftc: error: " + driver.error) != std::string::npos);
    CHECK(std::count(run.output.begin(), run.output.end(), '\n') == 1);
    return;
  }
  CAPTURE(run.output);
  REQUIRE(run.status == 0);
  CHECK(run.output.find("(cuda)") != std::string::npos);
  CHECK(run.output.find("kernel.cu") != std::string::npos);
  auto best = explore::findBestKernels(dir.path().string(), "cuda");
  REQUIRE(best.size() == 1);
  CHECK(best[0].kernelFile == "kernel.cu");
  CHECK(best[0].source.find("__global__") != std::string::npos);
  // The GPU's own compilation gave the kernel's SASS figures (its architecture, not sm_90 necessarily).
  REQUIRE(best[0].launch.contains("sass"));
  CHECK(tuner::SassSummary::fromJson(best[0].launch["sass"]).registers > 0);
}

} // namespace liftcc
