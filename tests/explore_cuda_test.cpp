// The exploration driver is backend-neutral: it sees a tuner::Device, so the
// CUDA backend gets the same space, verification, store and best-kernel
// directory as OpenCL. Without a GPU this is tested with a device that
// compiles every kernel for real with NVRTC and reports that it cannot run
// it; with a GPU (and a driver cuInit accepts), `explore --target cuda` runs
// for real and must produce a verified best kernel.

#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/best_kernels.h"
#include "explore/explorer.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"
#include "tuner/cuda/cuda_backend.h"
#include "tuner/cuda/nvrtc_compiler.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <set>

namespace liftcc {
namespace {

using test::TempDir;
using Sizes = std::map<std::string, int64_t>;

/// A CUDA device without a GPU: compile() runs NVRTC on the generated
/// source (warnings are failures), runBytes() reports a launch failure.
class CompileOnlyCudaDevice final : public tuner::Device {
public:
  codegen::Target target() const override { return codegen::Target::CUDA; }
  std::string name() const override { return "compile-only CUDA device"; }
  std::string resultsName() const override { return "cuda " + name(); }
  tuner::DeviceLimits limits() const override { return {}; }
  tuner::CopyBandwidth measureCopyBandwidth(int, int, size_t) override {
    throw tuner::KernelLaunchError("no GPU in this test");
  }

  std::unique_ptr<tuner::CompiledKernel> compile(const codegen::Kernel &kernel) override {
    ++compiled;
    if (kernel.target != codegen::Target::CUDA) throw tuner::KernelBuildError("an OpenCL kernel reached a CUDA device");
    if (cuda::nvrtcAvailable()) {
      cuda::NvrtcOptions options;
      options.warningsAsErrors = true;
      try {
        cuda::compileToPtx(kernel.source, options, kernel.name + ".cu");
      } catch (const cuda::NvrtcError &e) {
        throw tuner::KernelBuildError(e.what());
      }
    }
    return std::make_unique<NoGpuKernel>();
  }

  std::atomic<int> compiled = 0; ///< compile() may run on the explorer's worker threads

private:
  struct NoGpuKernel final : tuner::CompiledKernel {
    tuner::RawRun runViews(const Sizes &, const tuner::InputViews &, const tuner::LaunchConfig &) override {
      throw tuner::KernelLaunchError("no GPU in this test");
    }
  };
};

explore::ExploreOptions smallRun(const std::filesystem::path &dir, size_t evaluations) {
  explore::ExploreOptions options = test::tinyExploreOptions("jacobi2d_5pt", dir);
  options.budget.maxEvaluations = evaluations;
  return options;
}

} // namespace

TEST_CASE("explore: a CUDA device gets CUDA kernels, every one compiles with NVRTC, failures are recorded") {
  TempDir dir;
  CompileOnlyCudaDevice device;
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
    CHECK(e.record.outcome == tuner::Outcome::Runtime);
    CHECK(e.record.error == "no GPU in this test");
    recipes.insert(e.configuration.recipe);
  }
  // The round-robin over programs (and their specialised twins) reaches
  // several recipes within the first evaluations, the plain one first.
  CHECK(recipes.count(rewrite::Recipe::Plain) == 1);
  CHECK(recipes.size() >= 3);
  // Both kernels of each variant (the small check kernel and the timed one)
  // are compiled before either runs (explore/variant_evaluation.h).
  CHECK(device.compiled == int(2 * result.evaluations.size()));
  CHECK(!result.best);
  CHECK(result.bestKernelDir.empty());
  // Filed apart from an OpenCL view of the same GPU.
  CHECK(result.storePath.find("cuda-compile-only-cuda-device") != std::string::npos);
  CHECK(tuner::ResultStore(result.storePath).records().size() == result.evaluations.size());
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
}

} // namespace liftcc
