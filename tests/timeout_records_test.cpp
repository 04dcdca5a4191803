// Issue #34, class 4: a `timeout` record is tied to the timeout it was
// measured with. Records written as `timeout` under a tiny --timeout had
// been replayed by later runs with a longer one, so good variants stayed
// failed in that store; now such a record is replayed only under a timeout no
// longer than its own, and the re-measurement supersedes it.

#include "examples/example.h"
#include "explore/explorer.h"
#include "tests/explore_test_support.h"
#include "tests/opencl_test_support.h"
#include "tuner/opencl/opencl_backend.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <thread>

namespace liftcc {
namespace {

using Clock = std::chrono::steady_clock;

/// The OpenCL test device, except that a launch at sizes of 64 or more takes
/// `delay` longer: past a shorter timeout it is a timeout, under a longer
/// one it runs (a kernel that is merely slow).
class DelayedAtLargeSizes final : public tuner::Device {
public:
  DelayedAtLargeSizes(const ocl::DeviceInfo &device, std::chrono::milliseconds delay) : inner_(device), delay_(delay) {}

  codegen::Target target() const override { return inner_.target(); }
  std::string name() const override { return "delayed at large sizes"; }
  std::string resultsName() const override { return name(); }
  tuner::DeviceLimits limits() const override { return inner_.limits(); }
  std::unique_ptr<tuner::CompiledKernel> compile(const codegen::Kernel &kernel) override {
    return std::make_unique<Kernel>(inner_.compile(kernel), delay_);
  }
  void rebuild() override { inner_.rebuild(); }
  tuner::CopyBandwidth measureCopyBandwidth(const tuner::CopyProbe &probe) override {
    return inner_.measureCopyBandwidth(probe);
  }

private:
  struct Kernel final : tuner::CompiledKernel {
    Kernel(std::unique_ptr<tuner::CompiledKernel> inner, std::chrono::milliseconds delay)
        : inner(std::move(inner)), delay(delay) {}
    tuner::RawRun runViews(const std::map<std::string, int64_t> &sizes, const tuner::InputViews &inputs,
                           const tuner::LaunchConfig &config) override {
      bool large = false;
      for (const auto &[name, value] : sizes) large = large || value >= 64;
      if (!large) return inner->runViews(sizes, inputs, config);
      const Clock::time_point done = Clock::now() + delay;
      std::optional<tuner::Deadline> deadline = config.deadline;
      if (config.launchTimeout) {
        auto own = Clock::now() + std::chrono::duration_cast<Clock::duration>(*config.launchTimeout);
        deadline = deadline ? std::min(*deadline, own) : own;
      }
      if (deadline && *deadline < done) {
        std::this_thread::sleep_until(*deadline);
        throw tuner::KernelTimeoutError("kernel did not complete in time");
      }
      std::this_thread::sleep_until(done);
      return inner->runViews(sizes, inputs, config);
    }
    std::unique_ptr<tuner::CompiledKernel> inner;
    std::chrono::milliseconds delay;
  };
  tuner::OpenCLDevice inner_;
  std::chrono::milliseconds delay_;
};

TEST_CASE("timeout records: a timeout is measured again under a longer timeout, then replayed under any") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  DelayedAtLargeSizes delayed(*device, std::chrono::milliseconds(300));
  test::TempDir dir;
  const Program program = examples::findExample("jacobi2d_5pt").build();
  const std::map<std::string, int64_t> sizes{{"N", 64}, {"M", 64}};
  explore::ExploreOptions options = test::tinyExploreOptions("jacobi2d_5pt", dir.path());
  options.space.fastMathLevels = {codegen::FastMath::None};
  options.timedRuns = 1;
  // The plain family only: its default (the one baseline, uncharged) and one more variant.
  options.space.includeStream = options.space.includeTiled = options.space.includeLocal = false;
  options.space.includeCoarsened = options.space.includeVector = false;
  options.budget.maxEvaluations = 1;
  options.finalists = 0; // the store's lines are counted below; re-timed finalists would add theirs

  options.kernelTimeout = std::chrono::milliseconds(100);
  explore::ExploreResult tiny = explore::explore(program, sizes, delayed, options);
  REQUIRE(tiny.evaluations.size() == 2);
  for (const explore::Evaluation &e : tiny.evaluations) {
    CAPTURE(e.record.key);
    CHECK(e.record.outcome == search::Outcome::Timeout);
    REQUIRE(e.record.timeoutSeconds);
    CHECK(*e.record.timeoutSeconds == doctest::Approx(0.1));
  }

  // A longer timeout: the same two variants are measured again, and run.
  options.kernelTimeout = std::chrono::seconds(30);
  explore::ExploreResult longer = explore::explore(program, sizes, delayed, options);
  REQUIRE(longer.evaluations.size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    CAPTURE(longer.evaluations[i].record.key);
    CHECK(longer.evaluations[i].record.key == tiny.evaluations[i].record.key);
    CHECK(!longer.evaluations[i].fromStore);
    CHECK(longer.evaluations[i].record.outcome == search::Outcome::Ok);
  }

  // Read again, the store has the new records in place of the timeouts
  // (four lines, two records), and replays them under the tiny timeout.
  search::ResultStore store(longer.storePath, search::ResultStore::Access::Read);
  CHECK(store.records().size() == 2);
  for (const search::Record &r : store.records()) CHECK(r.outcome == search::Outcome::Ok);
  std::string text = test::readFile(longer.storePath);
  CHECK(std::count(text.begin(), text.end(), '\n') == 4);
  options.kernelTimeout = std::chrono::milliseconds(100);
  explore::ExploreResult replayed = explore::explore(program, sizes, delayed, options);
  for (const explore::Evaluation &e : replayed.evaluations)
    if (e.record.key == tiny.evaluations[0].record.key || e.record.key == tiny.evaluations[1].record.key) {
      CHECK(e.fromStore);
      CHECK(e.record.outcome == search::Outcome::Ok);
    }
}

TEST_CASE("timeout records: records without a timeout count as measured with the default; the field is checked") {
  nlohmann::json old{{"key", "plain"},
                     {"configuration", nlohmann::json::object()},
                     {"outcome", "timeout"},
                     {"error", "kernel did not complete in time"}};
  search::Record record = search::Record::fromJson(old);
  CHECK(!record.timeoutSeconds);
  CHECK(record.answersTimeout(search::kDefaultKernelTimeoutSeconds));
  CHECK(record.answersTimeout(1));
  CHECK(!record.answersTimeout(search::kDefaultKernelTimeoutSeconds + 1));

  record.timeoutSeconds = 0.5;
  CHECK(search::Record::fromJson(record.toJson()).timeoutSeconds == 0.5);
  CHECK(record.answersTimeout(0.5));
  CHECK(!record.answersTimeout(0.6));

  for (nlohmann::json bad : {nlohmann::json(-1), nlohmann::json(0), nlohmann::json("60"), nlohmann::json(nullptr)}) {
    nlohmann::json doctored = old;
    doctored["timeoutSeconds"] = bad;
    CHECK_THROWS_WITH_AS(search::Record::fromJson(doctored), doctest::Contains("timeoutSeconds"),
                         std::invalid_argument);
  }
  // Every other outcome answers for any timeout.
  nlohmann::json ok{{"key", "plain"},
                    {"configuration", nlohmann::json::object()},
                    {"outcome", "ok"},
                    {"medianNs", 1000},
                    {"samplesNs", nlohmann::json::array({uint64_t(1000)})}};
  CHECK(search::Record::fromJson(ok).answersTimeout(1e6));
}

} // namespace
} // namespace liftcc
