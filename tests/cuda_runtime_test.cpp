// The RAII runtime and event timing. Host-only pieces are always tested; the
// rest needs a GPU with a driver that cuInit accepts and skips (with a
// MESSAGE saying why) elsewhere.
//
// Under AddressSanitizer cuInit fails unless ASAN_OPTIONS=protect_shadow_gap=0
// (the driver maps memory in ASan's shadow gap); the skip message says so.

#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tests/cuda_test_kernels.h"
#include "tuner/cuda/cuda_runtime.h"
#include "tuner/cuda/cuda_timing.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/median.h"

using namespace liftcc::cuda;

namespace {

// A context on device 0, or nullopt after a MESSAGE saying why there is none.
std::optional<Context> gpuContextOrSkip() {
  DriverLoadResult driver = DriverApi::load();
  if (!driver) {
    MESSAGE("skipping, no GPU: " << driver.error);
    return std::nullopt;
  }
  Context ctx(std::move(*driver.api), 0);
  MESSAGE("GPU: " << ctx.device().name << " (" << ctx.device().arch() << ")");
  return ctx;
}

// The kernel compiled for the context's device. Skips (nullopt) without NVRTC
// and when the driver is too old for the toolkit's PTX, which is a property
// of the machine, not of liftcc.
std::optional<Module> blurModuleOrSkip(const Context &ctx) {
  if (!nvrtcAvailable()) {
    MESSAGE("skipping: liftcc was built without NVRTC");
    return std::nullopt;
  }
  const PtxResult ptx = compileToPtx(test::kBlurSource, "blur3.cu", ctx.device().arch());
  try {
    return ctx.loadModule(ptx.ptx);
  } catch (const CudaError &e) {
    if (e.code() != drv::CUDA_ERROR_UNSUPPORTED_PTX_VERSION) throw;
    MESSAGE("skipping: " << e.what());
    return std::nullopt;
  }
}

std::vector<float> blurReference(const std::vector<float> &in) {
  const std::size_t n = in.size();
  std::vector<float> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float left = i > 0 ? in[i - 1] : 0.0f;
    const float right = i + 1 < n ? in[i + 1] : 0.0f;
    out[i] = (left + in[i] + right) / 3.0f;
  }
  return out;
}

LaunchConfig blurConfig(int n) {
  LaunchConfig config;
  config.block.x = test::kBlurBlock;
  config.grid.x = (static_cast<unsigned>(n) + test::kBlurBlock - 1) / test::kBlurBlock;
  return config;
}

} // namespace

TEST_SUITE("cuda.runtime") {
TEST_CASE("median of timings") {
  // The one median of the project (tuner/median.h) on CUDA's float times.
  CHECK(liftcc::tuner::median(std::vector<double>{3.0}) == 3.0);
  CHECK(liftcc::tuner::median(std::vector<double>{5.0, 1.0, 3.0}) == 3.0);
  CHECK(liftcc::tuner::median(std::vector<double>{4.0, 1.0, 3.0, 2.0}) == 2.5);
  CHECK_THROWS_AS(liftcc::tuner::median(std::vector<double>{}), std::invalid_argument);
}

TEST_CASE("launch geometry and kernel arguments") {
  CHECK(Dim3{}.count() == 1);
  CHECK(Dim3{65535, 65535, 64}.count() == std::uint64_t{65535} * 65535 * 64); // no overflow
  DeviceInfo info;
  info.computeMajor = 9;
  info.computeMinor = 0;
  CHECK(info.arch() == "sm_90");

  // Each argument is stored with the exact size of its kernel parameter,
  // and address() points at the value.
  const KernelArg i = 7, u = 7u, f = 0.5f, d = 0.25;
  const KernelArg l = std::int64_t{-3};
  const KernelArg p = KernelArg::pointer(0x1234);
  CHECK(i.size() == sizeof(int));
  CHECK(*static_cast<const int *>(i.address()) == 7);
  CHECK(u.size() == sizeof(unsigned));
  CHECK(f.size() == sizeof(float));
  CHECK(*static_cast<const float *>(f.address()) == 0.5f);
  CHECK(d.size() == sizeof(double));
  CHECK(l.size() == sizeof(std::int64_t));
  CHECK(p.size() == sizeof(drv::CUdeviceptr));
  CHECK(*static_cast<const drv::CUdeviceptr *>(p.address()) == 0x1234);
}

TEST_CASE("device query") {
  std::optional<Context> ctx = gpuContextOrSkip();
  if (!ctx) return;
  const DriverApi &api = ctx->api();
  REQUIRE(deviceCount(api) >= 1);
  const DeviceInfo &dev = ctx->device();
  CHECK(dev.index == 0);
  CHECK_FALSE(dev.name.empty());
  CHECK(dev.computeMajor >= 5);
  CHECK(dev.multiprocessorCount > 0);
  CHECK(dev.maxThreadsPerBlock >= 256);
  CHECK(dev.warpSize == 32);
  CHECK(dev.sharedMemPerBlock >= 16 * 1024);
  CHECK(dev.sharedMemPerBlockOptin >= dev.sharedMemPerBlock);
  CHECK(dev.totalMemoryBytes > 0);
  CHECK_THROWS_AS(queryDevice(api, deviceCount(api)), CudaError);
}

TEST_CASE("buffers: upload, download, device copy and bounds") {
  std::optional<Context> ctx = gpuContextOrSkip();
  if (!ctx) return;
  const std::vector<int> values = {1, 2, 3, 4, 5, 6, 7, 8};
  Buffer a = ctx->allocate(values.size() * sizeof(int));
  CHECK(a.size() == 32);
  CHECK(a.handle() != 0);
  a.upload(values);
  CHECK(a.download<int>() == values);

  Buffer b = ctx->allocate(a.size());
  b.copyFrom(a);
  CHECK(b.download<int>() == values);

  const int nine = 9;
  b.upload(&nine, sizeof nine, 7 * sizeof(int)); // last element only
  CHECK(b.download<int>().back() == 9);
  CHECK(a.download<int>().back() == 8);

  CHECK_THROWS_AS(b.upload(&nine, sizeof nine, 8 * sizeof(int)), std::out_of_range);
  int sink = 0;
  CHECK_THROWS_AS(b.download(&sink, 33), std::out_of_range);
  Buffer small = ctx->allocate(4);
  CHECK_THROWS_AS(small.copyFrom(a), std::invalid_argument);

  Buffer empty = ctx->allocate(0); // cuMemAlloc rejects 0 bytes; we do not
  CHECK(empty.size() == 0);
  CHECK(empty.download<int>().empty());

  // Moves transfer ownership; the moved-from buffer is empty.
  Buffer moved = std::move(a);
  CHECK(moved.size() == 32);
  CHECK(a.size() == 0); // NOLINT(bugprone-use-after-move): documented state
  CHECK(moved.download<int>() == values);
}

TEST_CASE("a generated-style stencil kernel runs and matches the reference") {
  std::optional<Context> ctx = gpuContextOrSkip();
  if (!ctx) return;
  std::optional<Module> module = blurModuleOrSkip(*ctx);
  if (!module) return;
  const Function blur = module->function("blur3");
  CHECK(blur.name() == "blur3");
  CHECK(blur.staticSharedBytes() == (test::kBlurBlock + 2) * sizeof(float));
  CHECK(blur.maxThreadsPerBlock() >= static_cast<int>(test::kBlurBlock));
  CHECK(blur.numRegisters() > 0);

  const int n = 1000; // not a multiple of the block: exercises the guards
  std::vector<float> input(n);
  for (int i = 0; i < n; ++i) input[i] = static_cast<float>((i * 37) % 101) - 50.0f;
  Buffer in = ctx->allocate(n * sizeof(float));
  Buffer out = ctx->allocate(n * sizeof(float));
  in.upload(input);
  launch(blur, blurConfig(n), {in, out, n});
  ctx->synchronize();
  const std::vector<float> result = out.download<float>();
  const std::vector<float> expected = blurReference(input);
  REQUIRE(result.size() == expected.size());
  for (int i = 0; i < n; ++i) CHECK_MESSAGE(result[i] == doctest::Approx(expected[i]), "i=" << i);

  // Handles outlive the Context object they came from.
  const Context same = blur.context();
  CHECK(same.device().index == ctx->device().index);
}

TEST_CASE("launch and module errors are reported, not crashed on") {
  std::optional<Context> ctx = gpuContextOrSkip();
  if (!ctx) return;
  CHECK_THROWS_WITH_AS(ctx->loadModule("this is not PTX"), doctest::Contains("cuModuleLoadDataEx"), CudaError);
  std::optional<Module> module = blurModuleOrSkip(*ctx);
  if (!module) return;
  CHECK_THROWS_WITH_AS(module->function("no_such_kernel"), doctest::Contains("cuModuleGetFunction(\"no_such_kernel\")"),
                       CudaError);
  const Function blur = module->function("blur3");
  Buffer buf = ctx->allocate(sizeof(float));
  LaunchConfig tooBig;
  tooBig.block.x = static_cast<unsigned>(blur.maxThreadsPerBlock()) + 1;
  CHECK_THROWS_AS(launch(blur, tooBig, {buf, buf, 1}), std::invalid_argument);
  LaunchConfig empty;
  empty.grid.x = 0;
  CHECK_THROWS_AS(launch(blur, empty, {buf, buf, 1}), std::invalid_argument);
}

TEST_CASE("kernel timing with events") {
  std::optional<Context> ctx = gpuContextOrSkip();
  if (!ctx) return;
  std::optional<Module> module = blurModuleOrSkip(*ctx);
  if (!module) return;
  const Function blur = module->function("blur3");
  const int n = 1 << 22;
  Buffer in = ctx->allocate(n * sizeof(float));
  Buffer out = ctx->allocate(n * sizeof(float));
  in.upload(std::vector<float>(n, 3.0f));
  TimingOptions options;
  options.warmupRuns = 1;
  options.timedRuns = 5;
  const TimingResult t = timeKernel(blur, blurConfig(n), {in, out, n}, options);
  REQUIRE(t.runsMs.size() == 5);
  CHECK(t.minMs > 0);
  CHECK(t.minMs <= t.medianMs);
  CHECK(t.medianMs <= t.maxMs);
  CHECK(t.medianNs() == doctest::Approx(t.medianMs * 1e6));
  CHECK(t.maxMs < 1000); // 16 MiB through a 3-point stencil: far below a second
  MESSAGE("blur3 over " << n << " floats: " << t.medianMs << " ms");
  CHECK(out.download<float>()[n / 2] == doctest::Approx(3.0f));

  options.timedRuns = 0;
  CHECK_THROWS_AS(timeKernel(blur, blurConfig(n), {in, out, n}, options), std::invalid_argument);
}

TEST_CASE("device-to-device copy bandwidth") {
  std::optional<Context> ctx = gpuContextOrSkip();
  if (!ctx) return;
  TimingOptions options;
  options.timedRuns = 5;
  const CopyBandwidth bw = measureCopyBandwidth(*ctx, std::size_t{64} << 20, options);
  CHECK(bw.bytes == std::size_t{64} << 20);
  CHECK(bw.medianMs > 0);
  // Any CUDA GPU copies faster than 1 GB/s and no GPU faster than 100 TB/s.
  CHECK(bw.bytesPerSecond > 1e9);
  CHECK(bw.bytesPerSecond < 1e14);
  MESSAGE("cuMemcpyDtoD: " << bw.bytesPerSecond / 1e9 << " GB/s (read + write)");
  CHECK_THROWS_AS(measureCopyBandwidth(*ctx, 0), std::invalid_argument);
}
} // TEST_SUITE("cuda.runtime")
