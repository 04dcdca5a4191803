// The copy roofline: every copy candidate really copies (verified on PoCL),
// the roof is the fastest, the host memcpy cross-check and its note, the CUDA
// copy kernels compile with NVRTC, and `liftc bench` lists every candidate.

#include "bench/report.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tuner/copy_roofline.h"
#include "tuner/cuda/cuda_copy_roofline.h"
#include "tuner/cuda/driver_api.h"
#include "tuner/opencl/opencl_backend.h"
#include "tuner/opencl/opencl_bandwidth.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

namespace liftcc {

TEST_SUITE("copy roofline") {
TEST_CASE("copy roofline: every OpenCL copy kernel copies, with every work-group size") {
  const auto device = ocl::test::testDevice();
  if (!device) return;
  ocl::Context ctx(*device);
  for (ocl::CopyKernel kernel :
       {ocl::CopyKernel::Guarded, ocl::CopyKernel::GuardFree, ocl::CopyKernel::Float4, ocl::CopyKernel::Float8})
    for (size_t group : tuner::copyWorkGroups()) {
      CAPTURE(ocl::copyKernelName(kernel));
      CAPTURE(group);
      ocl::BandwidthOptions options;
      options.elements = size_t{1} << 16;
      options.timing = {.warmupRuns = 0, .timedRuns = 1};
      options.kernel = kernel;
      if (group > 0) options.local = group;
      // verify = true: a wrong element throws.
      ocl::BandwidthResult r = ocl::measureCopyBandwidth(ctx, options);
      CHECK(r.elements == options.elements);
      CHECK(r.bytesPerSecond > 0);
    }
  // Only the guarded kernel may round the global size up.
  ocl::BandwidthOptions odd;
  odd.elements = (size_t{1} << 12) + 8;
  odd.timing = {.warmupRuns = 0, .timedRuns = 1};
  odd.local = 64;
  CHECK(ocl::measureCopyBandwidth(ctx, odd).bytesPerSecond > 0);
  odd.kernel = ocl::CopyKernel::GuardFree;
  CHECK_THROWS_AS(ocl::measureCopyBandwidth(ctx, odd), std::invalid_argument);
  odd.kernel = ocl::CopyKernel::Float8;
  odd.local.reset();
  odd.elements = (size_t{1} << 12) + 4; // not a multiple of 8 floats
  CHECK_THROWS_AS(ocl::measureCopyBandwidth(ctx, odd), std::invalid_argument);
}

TEST_CASE("copy roofline: the roof is the fastest verified candidate; the host memcpy is measured on CPU devices") {
  const auto device = ocl::test::testDevice();
  if (!device) return;
  ocl::Context ctx(*device);
  ocl::BandwidthOptions options;
  options.elements = (size_t{1} << 18) + 1000; // rounded down to a multiple of 8192
  options.timing = {.warmupRuns = 0, .timedRuns = 3};
  const bool cpu = device->type == ocl::DeviceType::Cpu;
  tuner::CopyBandwidth bw = ocl::measureCopyRoofline(ctx, options, cpu);
  CHECK(bw.bufferBytes == (size_t{1} << 18) * sizeof(float));
  CHECK(bw.runs == 3);
  size_t groups = 0;
  for (size_t g : tuner::copyWorkGroups()) groups += g <= device->maxWorkGroupSize;
  REQUIRE(bw.candidates.size() == 4 * groups + 1);
  CHECK(bw.candidates.back().name == "device copy");
  for (const tuner::CopyCandidate &c : bw.candidates) {
    CAPTURE(c.label());
    CHECK(c.error.empty());
    CHECK(c.bytesPerSecond > 0);
    CHECK(c.bytesPerSecond <= bw.bytesPerSecond);
  }
  CHECK(bw.bytesPerSecond == bw.candidates.at(bw.roof).bytesPerSecond);
  CHECK(bw.hostMemcpyBytesPerSecond.has_value() == cpu);
  if (bw.hostMemcpyBytesPerSecond) CHECK(*bw.hostMemcpyBytesPerSecond > 0);
  for (const tuner::CopyCandidate &c : bw.candidates) MESSAGE(c.label() << ": " << c.bytesPerSecond / 1e9 << " GB/s");
}

TEST_CASE("copy roofline: a probe of one named candidate times that one alone (the roof of later rounds)") {
  const auto device = ocl::test::testDevice();
  if (!device) return;
  tuner::OpenCLDevice opencl(*device);
  tuner::CopyProbe probe;
  probe.warmups = 0;
  probe.bufferBytes = size_t{1} << 20;
  probe.onlyCandidate = "float4 wg=64";
  tuner::CopyBandwidth one = opencl.measureCopyBandwidth(probe);
  REQUIRE(one.candidates.size() == 1);
  CHECK(one.candidates[0].label() == "float4 wg=64");
  CHECK(one.candidates[0].error.empty());
  CHECK(one.bytesPerSecond == one.candidates[0].bytesPerSecond);
  CHECK_FALSE(one.hostMemcpyBytesPerSecond.has_value()); // the cross-check belongs to the full probe
  probe.onlyCandidate = "device copy";
  CHECK(opencl.measureCopyBandwidth(probe).candidates.size() == 1);
  probe.onlyCandidate = "float16 wg=64"; // no such candidate
  CHECK_THROWS_AS(opencl.measureCopyBandwidth(probe), tuner::BackendError);
}

TEST_CASE("copy roofline: verification, choosing the roof and the memcpy note") {
  std::vector<float> copied(100);
  for (size_t i = 0; i < copied.size(); ++i) copied[i] = tuner::copyPattern(i);
  CHECK_FALSE(tuner::copyMismatch(copied));
  copied[57] = 0;
  auto mismatch = tuner::copyMismatch(copied);
  REQUIRE(mismatch);
  CHECK(mismatch->find("element 57") != std::string::npos);
  // A failed candidate never becomes the roof, whatever its figure.
  std::vector<tuner::CopyCandidate> candidates{
      {"guarded", 64, 1e9, ""}, {"float8", 256, 9e9, "element 3 of 8 is 0"}, {"float4", 0, 3e9, ""}};
  CHECK(tuner::fastestCopy(candidates) == 2);
  CHECK(candidates[2].label() == "float4 wg=runtime");
  CHECK_THROWS_AS(tuner::fastestCopy({{"guarded", 64, 0, "failed"}}), std::runtime_error);
  tuner::CopyBandwidth bw;
  bw.bytesPerSecond = 30e9;
  CHECK_FALSE(tuner::hostMemcpyNote(bw));
  bw.hostMemcpyBytesPerSecond = 20e9;
  CHECK_FALSE(tuner::hostMemcpyNote(bw));
  bw.hostMemcpyBytesPerSecond = 10e9;
  CHECK(tuner::hostMemcpyNote(bw));
  bw.hostMemcpyBytesPerSecond = 70e9;
  CHECK(tuner::hostMemcpyNote(bw));
  CHECK(tuner::measureHostMemcpy(size_t{1} << 20, 3) > 0);
}

TEST_CASE("copy roofline: the CUDA copy kernels compile with NVRTC; timing them needs a GPU") {
  if (auto options = cuda::test::strictSm90()) {
    cuda::PtxResult ptx = cuda::compileToPtx(cuda::copyKernelSource(), *options, "liftcc_copy.cu");
    for (const char *entry : {"liftcc_copy_guarded", "liftcc_copy_guard_free", "liftcc_copy_float4"})
      CHECK_MESSAGE(ptx.ptx.find(std::string(".entry ") + entry) != std::string::npos, entry);
  }
  cuda::DriverLoadResult driver = cuda::DriverApi::load();
  if (!driver) {
    MESSAGE("skipping the CUDA copy roofline, no GPU: " << driver.error);
    return;
  }
  cuda::Context ctx(std::move(*driver.api), 0);
  tuner::CopyBandwidth bw = cuda::measureCopyRoofline(ctx, size_t{16} << 20, {.warmupRuns = 1, .timedRuns = 3});
  CHECK(bw.candidates.size() == 10);
  for (const tuner::CopyCandidate &c : bw.candidates) CHECK_MESSAGE(c.error.empty(), c.label() << ": " << c.error);
  CHECK(bw.bytesPerSecond == bw.candidates.at(bw.roof).bytesPerSecond);
  tuner::CopyBandwidth one =
      cuda::measureCopyRoofline(ctx, size_t{16} << 20, {.warmupRuns = 1, .timedRuns = 3}, "float4 wg=256");
  REQUIRE(one.candidates.size() == 1);
  CHECK(one.candidates[0].label() == "float4 wg=256");
}

TEST_CASE("copy roofline: liftc bench lists every candidate and the roof in text, CSV and JSON") {
  if (!ocl::test::testDevice()) return;
  test::TempDir dir;
  std::filesystem::path csv = dir.path() / "bench.csv", json = dir.path() / "bench.json";
  test::LiftcRun run = test::runLiftc("bench --copy-mib 1 --examples jacobi1d_3pt --sizes default --size-scale 0.02 "
                                      "--runs 1 --warmups 0 --explore 0 --kernel-tuner off --quiet --csv " +
                                      test::shellQuote(csv.string()) + " --json " + test::shellQuote(json.string()));
  REQUIRE_MESSAGE(run.status == 0, run.output);
  nlohmann::json report = nlohmann::json::parse(std::ifstream(json));
  // --copy-mib: one roof for every example.
  REQUIRE(report.at("copyBandwidths").size() == 1);
  const nlohmann::json &bw = report.at("copyBandwidths").at(0);
  CHECK(bw.at("bufferBytes") == size_t{1} << 20);
  CHECK(report.at("examples").at(0).at("roofBufferBytes") == size_t{1} << 20);
  REQUIRE(bw.at("candidates").size() >= 5);
  double best = 0;
  int roofs = 0;
  for (const nlohmann::json &c : bw.at("candidates")) {
    CHECK_MESSAGE(c.contains("bytesPerSecond"), c.dump());
    best = std::max(best, c.value("bytesPerSecond", 0.0));
    if (c.at("roof").get<bool>()) {
      ++roofs;
      CHECK(c.at("label") == bw.at("roof"));
      CHECK(c.at("bytesPerSecond").get<double>() == bw.at("bytesPerSecond").get<double>());
    }
    // Each candidate is in the text table as well.
    CHECK_MESSAGE(run.output.find("copy " + c.at("label").get<std::string>() + ": ") != std::string::npos, run.output);
  }
  CHECK(roofs == 1);
  CHECK(bw.at("bytesPerSecond").get<double>() == best);
  CHECK(run.output.find("copy bandwidth (roof) at 1 MiB per buffer: ") != std::string::npos);
  std::ifstream in(csv);
  size_t copyRows = 0, roofRows = 0;
  for (std::string line; std::getline(in, line);)
    if (line.ends_with(",copy")) {
      ++copyRows;
      roofRows += line.find(",roof,copy") != std::string::npos;
    }
  CHECK(copyRows == bw.at("candidates").size() + (bw.contains("hostMemcpyBytesPerSecond") ? 1 : 0));
  CHECK(roofRows == 1);
}

TEST_CASE("copy roofline: buffer sizes for people tell two roofs of about a MiB apart") {
  CHECK(bench::bufferSizeText(size_t{64} << 20) == "64 MiB");
  CHECK(bench::bufferSizeText(size_t{1} << 20) == "1 MiB");
  CHECK(bench::bufferSizeText(1384992) == "1.3 MiB"); // SRAD2's 504x458 grid of 12 B/element, halved
  CHECK(bench::bufferSizeText(size_t{512} << 10) == "512 KiB");
}

TEST_CASE("copy roofline: liftc bench measures each example's roof at its own traffic, once per buffer size") {
  if (!ocl::test::testDevice()) return;
  test::TempDir dir;
  std::filesystem::path json = dir.path() / "bench.json";
  // Half the compulsory traffic of each: Jacobi 2D and Gaussian at 1024^2
  // move 8 MiB, so 4 MiB buffers; Heat at 64^3 moves 2 MiB, so 1 MiB.
  test::LiftcRun run = test::runLiftc("bench --examples jacobi2d_5pt,heat,gaussian --sizes default --size-scale 0.5 "
                                      "--runs 1 --warmups 0 --explore 0 --kernel-tuner off --tiles 8 --quiet --json " +
                                      test::shellQuote(json.string()));
  REQUIRE_MESSAGE(run.status == 0, run.output);
  nlohmann::json report = nlohmann::json::parse(std::ifstream(json));
  const nlohmann::json &roofs = report.at("copyBandwidths");
  REQUIRE(roofs.size() == 2);
  CHECK(roofs.at(0).at("bufferBytes") == size_t{4} << 20);
  CHECK(roofs.at(1).at("bufferBytes") == size_t{1} << 20);
  std::map<std::string, size_t> roofOf;
  for (const nlohmann::json &e : report.at("examples")) {
    size_t bytes = e.at("roofBufferBytes").get<size_t>();
    roofOf[e.at("example").get<std::string>()] = bytes;
    // The example's bound is its roof's bandwidth over its bytes per element.
    const nlohmann::json &roof = roofs.at(bytes == roofs.at(0).at("bufferBytes") ? 0 : 1);
    CHECK(e.at("rooflineElementsPerSecond").get<double>() ==
          doctest::Approx(roof.at("bytesPerSecond").get<double>() / e.at("bytesPerElement").get<double>()));
  }
  CHECK(roofOf == std::map<std::string, size_t>{
                      {"jacobi2d_5pt", size_t{4} << 20}, {"heat", size_t{1} << 20}, {"gaussian", size_t{4} << 20}});
  CHECK(run.output.find("copy bandwidth (roof) at 4 MiB per buffer: ") != std::string::npos);
  CHECK(run.output.find("copy bandwidth (roof) at 1 MiB per buffer: ") != std::string::npos);
}
} // TEST_SUITE("copy roofline")

} // namespace liftcc
