// Preparing variants on worker threads while one thread measures (issue #15
// item 2): the prefetch pool, the search strategies' hints, and explorations
// that give the same records with and without workers, never run two kernels
// at once, and record whatever a worker's preparation throws.

#include "examples/example.h"
#include "explore/explorer.h"
#include "explore/prefetch_pool.h"
#include "search/search.h"
#include "tests/explore_test_support.h"
#include "tests/opencl_test_support.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

namespace liftcc {
namespace {

using Sizes = std::map<std::string, int64_t>;
using explore::PrefetchPool;

/// A device that forwards to a real one and watches the threads: which
/// threads compile, which run kernels, and whether two runs ever overlap.
/// It computes on the host's cores or not, as the test says.
class WatchedDevice final : public tuner::Device {
public:
  using CompileHook = std::function<void(const codegen::Kernel &)>;
  WatchedDevice(tuner::Device &inner, CompileHook onCompile = nullptr)
      : inner_(inner), onCompile_(std::move(onCompile)) {}

  codegen::Target target() const override { return inner_.target(); }
  std::string name() const override { return inner_.name(); }
  std::string resultsName() const override { return inner_.resultsName(); }
  tuner::DeviceLimits limits() const override { return inner_.limits(); }
  std::unique_ptr<tuner::CompiledKernel> compile(const codegen::Kernel &kernel) override {
    {
      std::lock_guard lock(mutex_);
      compileThreads_.insert(std::this_thread::get_id());
    }
    if (onCompile_) onCompile_(kernel);
    return std::make_unique<Kernel>(*this, inner_.compile(kernel));
  }
  void rebuild() override { inner_.rebuild(); }
  tuner::CopyBandwidth measureCopyBandwidth(const tuner::CopyProbe &probe) override {
    return inner_.measureCopyBandwidth(probe);
  }

  std::set<std::thread::id> compileThreads() const {
    std::lock_guard lock(mutex_);
    return compileThreads_;
  }
  std::set<std::thread::id> runThreads() const {
    std::lock_guard lock(mutex_);
    return runThreads_;
  }
  int mostRunsAtOnce() const { return mostRunsAtOnce_; }

private:
  class Kernel final : public tuner::CompiledKernel {
  public:
    Kernel(WatchedDevice &device, std::unique_ptr<tuner::CompiledKernel> inner)
        : device_(device), inner_(std::move(inner)) {}
    tuner::RawRun runViews(const Sizes &sizes, const tuner::InputViews &inputs,
                           const tuner::LaunchConfig &config) override {
      int running = ++device_.runsNow_;
      device_.mostRunsAtOnce_ = std::max(device_.mostRunsAtOnce_.load(), running);
      {
        std::lock_guard lock(device_.mutex_);
        device_.runThreads_.insert(std::this_thread::get_id());
      }
      struct Leave {
        std::atomic<int> &now;
        ~Leave() { --now; }
      } leave{device_.runsNow_};
      return inner_->runViews(sizes, inputs, config);
    }

  private:
    WatchedDevice &device_;
    std::unique_ptr<tuner::CompiledKernel> inner_;
  };

  tuner::Device &inner_;
  CompileHook onCompile_;
  mutable std::mutex mutex_;
  std::set<std::thread::id> compileThreads_, runThreads_;
  std::atomic<int> runsNow_ = 0, mostRunsAtOnce_ = 0;
};

/// The key and outcome of every evaluation, in order.
std::vector<std::string> outcomes(const explore::ExploreResult &result) {
  std::vector<std::string> lines;
  for (const explore::Evaluation &e : result.evaluations)
    lines.push_back(e.record.key + ": " + search::outcomeName(e.record.outcome));
  return lines;
}

} // namespace

TEST_CASE("prefetch pool: results are the computed ones, prepared ahead when wished for, inline otherwise") {
  std::atomic<int> computations = 0;
  PrefetchPool<size_t> pool(2, 4, [&](size_t i) {
    ++computations;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return i * i;
  });
  CHECK(pool.threads() == 2);
  for (size_t k = 0; k < 12; ++k) {
    pool.upcoming({k, k + 1, k + 2, k + 3});
    CHECK(pool.take(k) == k * k);
  }
  // Only the first can have been taken before a worker started on it.
  CHECK(pool.takenFromWorkers() >= 11);
  CHECK(pool.takenFromWorkers() + pool.computedByTake() == 12);
  // Never asked for: computed by take itself.
  CHECK(pool.take(100) == 10000);
  CHECK(pool.computedByTake() >= 1);
  // Work queued for indices taken since or no longer wished for is dropped:
  // at most the 12 taken, the 3 wished beyond the last and the one above.
  CHECK(computations.load() <= 16);
}

TEST_CASE("prefetch pool: at most `capacity` results are kept, queued work nobody wishes for is dropped") {
  std::atomic<int> computations = 0;
  std::atomic<bool> release = false;
  PrefetchPool<int> pool(1, 3, [&](size_t i) {
    ++computations;
    while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return int(i);
  });
  pool.upcoming({1, 2, 3, 4, 5, 6}); // capacity 3: 1, 2 and 3 only
  pool.upcoming({7, 8});             // 2 and 3 dropped (queued); 1 may already run
  release = true;
  CHECK(pool.take(8) == 8);
  CHECK(pool.take(7) == 7);
  CHECK(pool.take(2) == 2); // dropped before: computed here
  CHECK(computations.load() <= 4);
}

TEST_CASE("prefetch pool: an exception thrown on a worker is rethrown by take; discardAll forgets everything") {
  PrefetchPool<int> pool(2, 4, [](size_t i) -> int {
    if (i == 3) throw 3; // not even a std::exception
    if (i == 4) throw std::runtime_error("four");
    return int(i);
  });
  pool.upcoming({3, 4, 5});
  CHECK_THROWS_AS(pool.take(3), int);
  CHECK_THROWS_WITH_AS(pool.take(4), "four", std::runtime_error);
  CHECK(pool.take(5) == 5);
  pool.upcoming({6, 7});
  pool.discardAll();
  size_t before = pool.computedByTake();
  CHECK(pool.take(6) == 6);
  CHECK(pool.computedByTake() == before + 1);
}

TEST_CASE("prefetch pool: without workers every result is computed by take; queued work never blocks destruction") {
  {
    PrefetchPool<int> pool(0, 4, [](size_t i) { return int(i) + 1; });
    pool.upcoming({1, 2, 3});
    CHECK(pool.take(2) == 3);
    CHECK(pool.computedByTake() == 1);
    CHECK(pool.takenFromWorkers() == 0);
  }
  {
    PrefetchPool<int> pool(1, 8, [](size_t i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      return int(i);
    });
    pool.upcoming({1, 2, 3, 4, 5, 6, 7, 8});
  } // the running one finishes, the queued ones are dropped
}

TEST_CASE("search: each strategy hints the configuration it evaluates next and those it expects after it") {
  for (search::SearchStrategy strategy : {search::SearchStrategy::Exhaustive, search::SearchStrategy::Random,
                                          search::SearchStrategy::Annealing, search::SearchStrategy::Model}) {
    CAPTURE(search::strategyName(strategy));
    const size_t n = 60;
    search::SearchSpace space;
    space.size = n;
    space.neighbours = [n](size_t i) { return std::vector<size_t>{(i + 1) % n, (i + n - 1) % n, (i + 7) % n}; };
    space.features = [](size_t i) {
      return std::vector<std::string>{"a=" + std::to_string(i % 5), "b=" + std::to_string(i % 3)};
    };
    space.lookahead = 3;
    std::vector<std::vector<size_t>> hints;
    space.upcoming = [&](const std::vector<size_t> &next) { hints.push_back(next); };
    std::vector<size_t> evaluated;
    search::SearchBudget budget;
    budget.maxEvaluations = 40;
    search::runSearch(
        strategy, space,
        [&](size_t i) -> std::optional<double> {
          evaluated.push_back(i);
          return 1.0 + double(i % 5) + 0.1 * double(i % 3);
        },
        budget, 7);
    REQUIRE(hints.size() == evaluated.size());
    size_t foreseen = 0; ///< evaluations the hint before the previous one named
    for (size_t k = 0; k < evaluated.size(); ++k) {
      CHECK(hints[k].front() == evaluated[k]); // the pick comes first
      CHECK(hints[k].size() <= 1 + space.lookahead);
      if (k > 0) {
        const std::vector<size_t> &before = hints[k - 1];
        foreseen += std::find(before.begin() + 1, before.end(), evaluated[k]) != before.end();
      }
    }
    // Fixed orders are foreseen exactly; the others guess.
    if (strategy == search::SearchStrategy::Exhaustive || strategy == search::SearchStrategy::Random)
      CHECK(foreseen == evaluated.size() - 1);
    else
      CHECK(foreseen > 0);
  }
}

TEST_CASE("explore/prepare: with worker threads the records are the same, kernels run on one thread, never two "
          "at once") {
  auto info = ocl::test::testDevice();
  if (!info) return;
  tuner::OpenCLDevice backend(*info);
  Program program = examples::findExample("jacobi2d_5pt").build();
  Sizes sizes{{"N", 48}, {"M", 40}};
  for (search::SearchStrategy strategy : {search::SearchStrategy::Random, search::SearchStrategy::Model}) {
    CAPTURE(search::strategyName(strategy));
    std::vector<std::vector<std::string>> runs;
    for (size_t threads : {0, 2}) {
      CAPTURE(threads);
      test::TempDir dir;
      WatchedDevice device(backend);
      explore::ExploreOptions options = test::tinyExploreOptions("p", dir.path());
      options.strategy = strategy;
      options.budget.maxEvaluations = 14;
      options.prepareThreads = threads;
      explore::ExploreResult result = explore::explore(program, sizes, device, options);
      test::checkNoBugs(result);
      REQUIRE(result.evaluations.size() == result.baselinesEvaluated + 14); // the baselines come uncharged
      CHECK(result.preparationThreads == threads);
      CHECK(device.mostRunsAtOnce() == 1);
      CHECK(device.runThreads() == std::set<std::thread::id>{std::this_thread::get_id()});
      if (threads > 0) {
        CHECK(result.preparedAhead > 0);
        CHECK(device.compileThreads().size() > 1); // the workers compiled
      } else {
        CHECK(result.preparedAhead == 0);
        CHECK(device.compileThreads() == std::set<std::thread::id>{std::this_thread::get_id()});
      }
      runs.push_back(outcomes(result));
    }
    if (strategy == search::SearchStrategy::Random) {
      // The same variants in the same order, with the same outcomes.
      CHECK(runs[0] == runs[1]);
    } else {
      // The model's picks follow the measured times, which vary from run to
      // run: the variants both runs measured have the same outcomes.
      std::set<std::string> first(runs[0].begin(), runs[0].end());
      std::set<std::string> keys;
      for (const std::string &line : runs[0]) keys.insert(line.substr(0, line.rfind(": ")));
      for (const std::string &line : runs[1])
        if (keys.count(line.substr(0, line.rfind(": ")))) CHECK(first.count(line) == 1);
    }
  }
}

TEST_CASE("explore/prepare: whatever a worker's preparation throws is recorded and the run goes on") {
  auto info = ocl::test::testDevice();
  if (!info) return;
  tuner::OpenCLDevice backend(*info);
  Program program = examples::findExample("jacobi1d_3pt").build();
  // Every kernel built with relaxed fast math fails to "compile": half of them
  // with something that is not even a std::exception.
  std::atomic<int> thrown = 0;
  WatchedDevice device(backend, [&](const codegen::Kernel &kernel) {
    if (kernel.buildOptions.find("fast-relaxed-math") == std::string::npos) return;
    if (++thrown % 2) throw 42;
    throw tuner::KernelBuildError("injected build failure\nwith a log");
  });
  test::TempDir dir;
  explore::ExploreOptions options = test::tinyExploreOptions("p", dir.path());
  options.strategy = search::SearchStrategy::Random;
  options.space.fastMathLevels = {codegen::FastMath::None, codegen::FastMath::Relaxed};
  options.budget.maxEvaluations = 12;
  options.prepareThreads = 2;
  explore::ExploreResult result = explore::explore(program, {{"N", 64}}, device, options);
  REQUIRE(result.evaluations.size() == result.baselinesEvaluated + 12); // the baselines come uncharged
  size_t relaxed = 0;
  for (const explore::Evaluation &e : result.evaluations) {
    CAPTURE(e.record.key);
    if (e.record.key.find("fast-math=relaxed") == std::string::npos) {
      CHECK(e.record.outcome == search::Outcome::Ok);
      continue;
    }
    ++relaxed;
    const bool bug = e.record.outcome == search::Outcome::Bug;
    const bool build = e.record.outcome == search::Outcome::Compile;
    CHECK((bug || build));
    if (bug) CHECK(e.record.error == "unexpected exception of unknown type");
    if (build) CHECK(e.record.buildLog == "injected build failure\nwith a log");
  }
  CHECK(relaxed > 0);
  CHECK(relaxed < 12);
  CHECK(result.best);
}

} // namespace liftcc
