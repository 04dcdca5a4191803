// The launch plan and runPlan without a device: a recording backend shows
// what every backend is asked to do (buffers, bindings, launches, deadlines),
// so the iteration schedule, input restoring, warm-ups and the median are
// checked once for OpenCL and CUDA alike.

#include "tuner/device.h"
#include "tuner/launch_plan.h"
#include "tuner/median.h"
#include "tuner/run_plan.h"

#include <doctest/doctest.h>

#include <cstring>
#include <thread>

namespace liftcc {
namespace {

using tuner::BufferParam;
using tuner::IntParam;
using tuner::LaunchPlan;

/// A kernel `out = f(A)` over N floats, iterated `count` times when given.
codegen::Kernel kernelOver(std::optional<int64_t> count) {
  codegen::Kernel k;
  k.target = codegen::Target::OpenCL;
  k.name = std::string("k"); // not from a literal: GCC 12 warns wrongly (-Wrestrict) on that
  k.args = {{"A", codegen::KernelArg::Role::Input, ScalarKind::Float, arith::Expr::var("N")},
            {"B", codegen::KernelArg::Role::Input, ScalarKind::Float, arith::Expr::var("N")},
            {"out", codegen::KernelArg::Role::Output, ScalarKind::Float, arith::Expr::var("N")},
            {"N", codegen::KernelArg::Role::Size, ScalarKind::Int, arith::Expr(1)}};
  k.dims = 1;
  k.globalSize = {arith::Expr::var("N"), arith::Expr(1), arith::Expr(1)};
  if (count) k.iteration = codegen::Kernel::Iteration{arith::Expr(*count), {0}, {}, {}};
  return k;
}

/// Records every call; a launch "computes" out = in + 1 on the first float
/// of the buffers bound to parameters 0 (in) and 2 (out), and takes the next
/// of `times`.
class RecordingBackend final : public tuner::PlanBackend {
public:
  std::vector<std::vector<std::byte>> buffers;
  std::vector<std::optional<size_t>> bound = std::vector<std::optional<size_t>>(4);
  std::vector<uint64_t> times;
  size_t launches = 0, uploads = 0, releases = 0;
  std::vector<std::optional<tuner::Deadline>> deadlines;
  std::chrono::milliseconds launchTakes{0};

  void allocate(const std::vector<tuner::PlanBuffer> &plan) override {
    buffers.clear();
    for (const tuner::PlanBuffer &b : plan) buffers.emplace_back(std::max<size_t>(b.bytes, 1));
  }
  void release() override { ++releases; }
  void upload(size_t buffer, std::span<const std::byte> bytes) override {
    ++uploads;
    std::memcpy(buffers.at(buffer).data(), bytes.data(), bytes.size());
  }
  void download(size_t buffer, std::span<std::byte> bytes) override {
    std::memcpy(bytes.data(), buffers.at(buffer).data(), bytes.size());
  }
  void bind(size_t index, const tuner::PlanParam &param) override {
    if (const auto *b = std::get_if<BufferParam>(&param))
      bound.at(index) = b->buffer;
    else
      bound.at(index) = std::nullopt;
  }
  uint64_t launch(const LaunchPlan &, std::optional<tuner::Deadline> deadline) override {
    deadlines.push_back(deadline);
    if (launchTakes.count() > 0) {
      auto end = std::chrono::steady_clock::now() + launchTakes;
      if (deadline && *deadline < end) {
        std::this_thread::sleep_until(*deadline);
        throw tuner::KernelTimeoutError("recording backend: past the deadline");
      }
      std::this_thread::sleep_until(end);
    }
    float in = 0;
    std::memcpy(&in, buffers.at(*bound.at(0)).data(), sizeof in);
    float out = in + 1;
    std::memcpy(buffers.at(*bound.at(2)).data(), &out, sizeof out);
    return times.at(launches++ % times.size());
  }
};

std::vector<std::byte> floats(std::initializer_list<float> values) {
  std::vector<std::byte> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.begin(), bytes.size());
  return bytes;
}

float firstFloat(const std::vector<std::byte> &bytes) {
  float f = 0;
  std::memcpy(&f, bytes.data(), sizeof f);
  return f;
}

} // namespace

TEST_CASE("launch plan: buffers, parameters and NDRange of a generated kernel") {
  LaunchPlan plan = tuner::planLaunch(kernelOver(std::nullopt), {{"N", 10}}, std::nullopt, std::nullopt);
  REQUIRE(plan.buffers.size() == 3);
  CHECK(plan.buffers[0].bytes == 40);
  CHECK(plan.buffers[0].input == 0u);
  CHECK(plan.buffers[1].input == 1u);
  CHECK(plan.buffers[0].readOnly);
  CHECK(plan.buffers[2].writeOnly);
  CHECK(plan.outputBuffer == 2);
  REQUIRE(plan.params.size() == 4);
  CHECK(std::get<IntParam>(plan.params[3]).value == 10);
  CHECK(plan.global == std::array<size_t, 3>{10, 1, 1});
  CHECK(!plan.local);
  CHECK(plan.launches() == 1);
  CHECK(plan.resultBuffer() == 2);

  // A requested work-group rounds the NDRange up; CUDA's default block too.
  LaunchPlan grouped =
      tuner::planLaunch(kernelOver(std::nullopt), {{"N", 10}}, std::array<size_t, 3>{4, 1, 1}, std::nullopt);
  CHECK(grouped.global == std::array<size_t, 3>{12, 1, 1});
  LaunchPlan cuda = tuner::planLaunch(kernelOver(std::nullopt), {{"N", 10}}, std::nullopt, tuner::defaultCudaBlock(1));
  CHECK(cuda.global == std::array<size_t, 3>{256, 1, 1});
  CHECK_THROWS_AS(tuner::planLaunch(kernelOver(std::nullopt), {{"N", int64_t(1) << 40}}, std::nullopt, std::nullopt),
                  std::invalid_argument);
}

TEST_CASE("launch plan: a mapWrg kernel runs with its own work-group size, one work-group per element") {
  // The kernel of a mapWrg over N/4 tiles with 4 work-items each: N/4 * 4 work-items.
  codegen::Kernel k = kernelOver(std::nullopt);
  k.globalSize = {arith::Expr::var("N") / 4 * 4, arith::Expr(1), arith::Expr(1)};
  k.localSize = std::array<int64_t, 3>{4, 1, 1};
  LaunchPlan own = tuner::planLaunch(k, {{"N", 12}}, std::nullopt, std::nullopt);
  CHECK(own.global == std::array<size_t, 3>{12, 1, 1});
  CHECK(own.local == std::array<size_t, 3>{4, 1, 1});
  CHECK(tuner::planLaunch(k, {{"N", 12}}, std::array<size_t, 3>{4, 1, 1}, std::nullopt).global == own.global);
  // Another size would launch more (or fewer) work-groups than there are
  // tiles, and the kernel has no guard on its group ids: refused.
  CHECK_THROWS_WITH_AS(
      tuner::planLaunch(k, {{"N", 12}}, std::array<size_t, 3>{2, 1, 1}, std::nullopt),
      "kernel k was generated for work-groups of 4 (one per element of its mapWrg), not 2: generate it "
      "with that work-group size instead",
      std::invalid_argument);
}

TEST_CASE("launch plan: iterate swaps the iterated input and the output between launches") {
  LaunchPlan plan = tuner::planLaunch(kernelOver(3), {{"N", 4}}, std::nullopt, std::nullopt);
  REQUIRE(plan.iteration);
  CHECK(plan.launches() == 3);
  CHECK(!plan.buffers[0].readOnly); // overwritten by the odd launches
  CHECK(plan.buffersOfLaunch(0)[0] == 0u);
  CHECK(plan.buffersOfLaunch(0)[2] == 2u);
  CHECK(plan.buffersOfLaunch(1)[0] == 2u);
  CHECK(plan.buffersOfLaunch(1)[2] == 0u);
  CHECK(plan.buffersOfLaunch(1)[1] == 1u); // the other input stays
  CHECK(!plan.buffersOfLaunch(1)[3]);
  CHECK(plan.resultBuffer() == 2);
  CHECK(tuner::planLaunch(kernelOver(2), {{"N", 4}}, std::nullopt, std::nullopt).resultBuffer() == 0);
  CHECK(tuner::planLaunch(kernelOver(0), {{"N", 4}}, std::nullopt, std::nullopt).resultBuffer() == 0);
}

TEST_CASE("runPlan: warm-ups, repetitions from the original input, the sum of launch times and their median") {
  LaunchPlan plan = tuner::planLaunch(kernelOver(3), {{"N", 1}}, std::nullopt, std::nullopt);
  RecordingBackend backend;
  backend.times = {10, 20, 30, 1, 2, 3, 100, 200, 300, 5, 5, 5};
  tuner::InputBytes inputs{floats({7}), floats({0})};
  tuner::LaunchConfig config;
  config.warmups = 1;
  config.repetitions = 3;
  tuner::RawRun run = tuner::runPlan(backend, plan, tuner::inputViews(inputs), config);
  CHECK(backend.launches == 12); // (1 + 3) repetitions of 3 launches
  // Warm-up 60 is not timed; the repetitions are 6, 600 and 15.
  CHECK(run.timesNs == std::vector<uint64_t>{6, 600, 15});
  CHECK(run.medianNs == 15);
  // Every repetition started from 7: three launches give 10, not 7 + 12.
  CHECK(firstFloat(run.output) == 10);
  CHECK(backend.releases == 1);
  // Two inputs once, then the iterated one before each of 3 later repetitions.
  CHECK(backend.uploads == 2 + 3);
  CHECK(tuner::median(run.timesNs) == run.medianNs);

  // Wrong inputs are refused before anything is allocated.
  inputs.pop_back();
  CHECK_THROWS_AS(tuner::runPlan(backend, plan, tuner::inputViews(inputs), config), std::invalid_argument);
  inputs.push_back(floats({1, 2}));
  CHECK_THROWS_WITH_AS(tuner::runPlan(backend, plan, tuner::inputViews(inputs), config),
                       doctest::Contains("input B has 8 bytes, expected 4"), std::invalid_argument);
}

TEST_CASE("runPlan: a minimum of timed seconds adds repetitions until their times add up to it, at most 1000") {
  LaunchPlan plan = tuner::planLaunch(kernelOver(std::nullopt), {{"N", 1}}, std::nullopt, std::nullopt);
  RecordingBackend backend;
  backend.times = {100};
  tuner::InputBytes inputs{floats({7}), floats({0})};
  tuner::LaunchConfig config;
  config.warmups = 2;
  config.repetitions = 3;
  // 100 ns a launch: 1.05 us needs 11 timed repetitions (the 3 asked for, then 8 more).
  config.minTimedSeconds = 1.05e-6;
  tuner::RawRun run = tuner::runPlan(backend, plan, tuner::inputViews(inputs), config);
  CHECK(run.timesNs.size() == 11);
  CHECK(backend.launches == 2 + 11);
  // Already reached by the repetitions asked for: no more.
  config.minTimedSeconds = 2e-7;
  CHECK(tuner::runPlan(backend, plan, tuner::inputViews(inputs), config).timesNs.size() == 3);
  // Never reached: kMaxRepetitions in all.
  config.minTimedSeconds = 1;
  CHECK(tuner::runPlan(backend, plan, tuner::inputViews(inputs), config).timesNs.size() ==
        size_t(tuner::LaunchConfig::kMaxRepetitions));
}

TEST_CASE("runPlan: a first timed repetition slower than stopAboveNs is the only one") {
  LaunchPlan plan = tuner::planLaunch(kernelOver(std::nullopt), {{"N", 1}}, std::nullopt, std::nullopt);
  RecordingBackend backend;
  backend.times = {500};
  tuner::InputBytes inputs{floats({7}), floats({0})};
  tuner::LaunchConfig config;
  config.warmups = 1;
  config.repetitions = 5;
  config.stopAboveNs = 400;
  tuner::RawRun run = tuner::runPlan(backend, plan, tuner::inputViews(inputs), config);
  CHECK(run.timesNs == std::vector<uint64_t>{500});
  CHECK(run.medianNs == 500);
  CHECK(backend.launches == 2);
  CHECK(firstFloat(run.output) == 8); // the output of the last run is downloaded
  config.stopAboveNs = 600;
  CHECK(tuner::runPlan(backend, plan, tuner::inputViews(inputs), config).timesNs.size() == 5);
}

TEST_CASE("runPlan: every launch gets the earlier of its own timeout and the overall deadline") {
  LaunchPlan plan = tuner::planLaunch(kernelOver(std::nullopt), {{"N", 1}}, std::nullopt, std::nullopt);
  RecordingBackend backend;
  backend.times = {1};
  tuner::InputBytes inputs{floats({0}), floats({0})};
  tuner::LaunchConfig config;
  config.repetitions = 2;
  tuner::runPlan(backend, plan, tuner::inputViews(inputs), config);
  REQUIRE(backend.deadlines.size() == 2);
  CHECK(!backend.deadlines[0]); // none asked for: wait for ever

  backend.deadlines.clear();
  auto before = std::chrono::steady_clock::now();
  config.launchTimeout = std::chrono::seconds(5);
  tuner::runPlan(backend, plan, tuner::inputViews(inputs), config);
  REQUIRE(backend.deadlines[0]);
  CHECK(*backend.deadlines[0] >= before + std::chrono::seconds(5));
  CHECK(*backend.deadlines[0] <= std::chrono::steady_clock::now() + std::chrono::seconds(5));

  backend.deadlines.clear();
  config.deadline = before + std::chrono::seconds(1);
  tuner::runPlan(backend, plan, tuner::inputViews(inputs), config);
  CHECK(backend.deadlines[0] == config.deadline);

  // A launch past its timeout ends the run within the timeout.
  backend.launchTakes = std::chrono::milliseconds(2000);
  config.deadline.reset();
  config.launchTimeout = std::chrono::milliseconds(100);
  auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_AS(tuner::runPlan(backend, plan, tuner::inputViews(inputs), config), tuner::KernelTimeoutError);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::milliseconds(1000));
  CHECK(backend.releases == 4); // the buffers are freed on the way out too
}

} // namespace liftcc
