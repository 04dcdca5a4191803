// Results you can trust (issue #15): records reused only for the program and
// kernel they measured, candidates that throw recorded without ending the
// run, verification sizes the program accepts, the timed kernel's own
// full-size output checked, and the point interpreter that checks it.

#include "core/interp/interpreter.h"
#include "core/interp/point_interpreter.h"
#include "core/interp/value_io.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/explorer.h"
#include "explore/record_identity.h"
#include "primitives/api.h"
#include "tests/explore_test_support.h"
#include "tests/opencl_test_support.h"
#include "tests/point_check_support.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <set>

namespace liftcc {
namespace {

using explore::ExploreOptions;
using explore::ExploreResult;
using test::TempDir;
using Sizes = std::map<std::string, int64_t>;

/// A device that forwards to a real one, with a hook on every compile and
/// one on every run's result: failures and wrong outputs on demand.
class FaultyDevice final : public tuner::Device {
public:
  using CompileHook = std::function<void(const codegen::Kernel &)>;
  using RunHook = std::function<void(const Sizes &, tuner::RawRun &)>;
  FaultyDevice(tuner::Device &inner, CompileHook onCompile, RunHook onRun)
      : inner_(inner), onCompile_(std::move(onCompile)), onRun_(std::move(onRun)) {}

  codegen::Target target() const override { return inner_.target(); }
  std::string name() const override { return inner_.name(); }
  std::string resultsName() const override { return inner_.resultsName(); }
  tuner::DeviceLimits limits() const override { return inner_.limits(); }
  std::unique_ptr<tuner::CompiledKernel> compile(const codegen::Kernel &kernel) override {
    if (onCompile_) onCompile_(kernel);
    return std::make_unique<Kernel>(inner_.compile(kernel), onRun_);
  }
  void rebuild() override { inner_.rebuild(); }
  bool abandonedKernelRunning() const override { return inner_.abandonedKernelRunning(); }
  // The hooks count compiles: on a CPU device nothing compiles ahead, so the order is the measurements'.
  bool runsOnHostCores() const override { return inner_.runsOnHostCores(); }
  tuner::CopyBandwidth measureCopyBandwidth(const tuner::CopyProbe &probe) override {
    return inner_.measureCopyBandwidth(probe);
  }

private:
  class Kernel final : public tuner::CompiledKernel {
  public:
    Kernel(std::unique_ptr<tuner::CompiledKernel> inner, RunHook onRun)
        : inner_(std::move(inner)), onRun_(std::move(onRun)) {}
    tuner::RawRun runViews(const Sizes &sizes, const tuner::InputViews &inputs,
                           const tuner::LaunchConfig &config) override {
      tuner::RawRun run = inner_->runViews(sizes, inputs, config);
      if (onRun_) onRun_(sizes, run);
      return run;
    }

  private:
    std::unique_ptr<tuner::CompiledKernel> inner_;
    RunHook onRun_;
  };
  tuner::Device &inner_;
  CompileHook onCompile_;
  RunHook onRun_;
};

std::vector<std::string> storeLines(const std::string &path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void writeLines(const std::string &path, const std::vector<std::string> &lines) {
  std::ofstream out(path, std::ios::trunc);
  for (const std::string &line : lines) out << line << "\n";
}

/// jacobi1d with another coefficient: another program, which a careless
/// user saves under the same name.
Program otherJacobi1d() {
  std::string text = test::readFile(test::sourceDir() / "examples/json/jacobi1d_3pt.json");
  size_t at = text.find("0.33333f");
  REQUIRE(at != std::string::npos);
  text.replace(at, 8, "0.25f");
  return readProgram(text);
}

} // namespace

TEST_CASE("explore/trust: a record is reused only for its program and kernel; stale records stay in the store") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  tuner::OpenCLDevice backend(*device);
  TempDir dir;
  Program program = examples::findExample("jacobi1d_3pt").build();
  Sizes sizes{{"N", 64}};
  ExploreOptions options = test::tinyExploreOptions("p", dir.path());
  options.budget.maxEvaluations = 3;
  options.finalists = 0; // this test counts store lines; re-timed finalists append lines of their own

  ExploreResult first = explore::explore(program, sizes, backend, options);
  test::checkNoBugs(first);
  // The baselines come first (the store's first lines), uncharged.
  const size_t baselines = first.baselinesEvaluated;
  REQUIRE(baselines >= 2);
  REQUIRE(first.evaluations.size() == baselines + 3);
  for (const auto &e : first.evaluations) {
    CHECK(e.record.programHash.size() == 16);
    CHECK(e.record.kernelHash.size() == 16);
  }
  CHECK(first.evaluations[0].record.kernelHash != first.evaluations[1].record.kernelHash);

  // Nothing changed: everything is reused (and three more measured).
  ExploreResult same = explore::explore(program, sizes, backend, options);
  CHECK(test::fromStoreCount(same) == baselines + 3);
  REQUIRE(storeLines(first.storePath).size() == baselines + 6);

  // The kernel of the first record changed (as after a code-generator
  // change): its record is stale and re-measured; the stale line stays.
  std::vector<std::string> lines = storeLines(first.storePath);
  auto doctored = nlohmann::json::parse(lines[0]);
  const std::string staleKey = doctored.at("key");
  doctored["kernelHash"] = "0123456789abcdef";
  doctored["medianNs"] = 1.0; // a stale time that must not win
  lines[0] = doctored.dump();
  // Records written before the hashes existed are never reused either.
  auto legacy = nlohmann::json::parse(lines[1]);
  const std::string legacyKey = legacy.at("key");
  legacy.erase("programHash");
  legacy.erase("kernelHash");
  lines[1] = legacy.dump();
  writeLines(first.storePath, lines);

  options.budget.maxEvaluations = 2;
  ExploreResult resumed = explore::explore(program, sizes, backend, options);
  test::checkNoBugs(resumed);
  std::set<std::string> remeasured;
  for (const auto &e : resumed.evaluations)
    if (!e.fromStore) remeasured.insert(e.record.key);
  // The two doctored records are baselines (the first lines), re-measured
  // uncharged; the budget of two measures two new variants.
  CHECK(remeasured.count(staleKey) == 1);
  CHECK(remeasured.count(legacyKey) == 1);
  CHECK(remeasured.size() == 4);
  CHECK(test::fromStoreCount(resumed) == baselines + 6 - 2);
  std::vector<std::string> after = storeLines(first.storePath);
  REQUIRE(after.size() == baselines + 6 + 4);
  CHECK(after[0] == lines[0]); // append-only: the stale records are still there, unchanged
  CHECK(after[1] == lines[1]);
  REQUIRE(resumed.best);
  CHECK(resumed.evaluations[*resumed.best].record.medianNs > 1.0);
  // The best-kernel entry is the kernel its record timed: this run's best,
  // unless an earlier run of the same program recorded a faster kernel there
  // (an entry is replaced only by a faster one; e.g. the first run's best was
  // the record made stale above, re-measured slower now).
  auto launch = nlohmann::json::parse(test::readFile(std::filesystem::path(resumed.bestKernelDir) / "launch.json"));
  const search::Record &best = resumed.evaluations[*resumed.best].record;
  CHECK(launch.at("medianNs").get<double>() <= best.medianNs);
  bool timedByARun = false;
  for (const ExploreResult *run : {&first, &same, &resumed})
    for (const auto &e : run->evaluations)
      timedByARun = timedByARun || (!e.fromStore && launch.at("kernelHash") == e.record.kernelHash &&
                                    launch.at("medianNs").get<double>() == e.record.medianNs);
  CHECK(timedByARun);
  CHECK(launch.at("kernelSourceHash") ==
        explore::stableHash(test::readFile(std::filesystem::path(resumed.bestKernelDir) / "kernel.cl")));

  // Another program saved under the same name: nothing is reused, and its
  // best kernel replaces the other program's, however fast that was.
  ExploreResult other = explore::explore(otherJacobi1d(), sizes, backend, options);
  CHECK(test::fromStoreCount(other) == 0);
  CHECK(other.evaluations.size() == other.baselinesEvaluated + 2);
  REQUIRE(other.best);
  launch = nlohmann::json::parse(test::readFile(std::filesystem::path(other.bestKernelDir) / "launch.json"));
  CHECK(launch.at("programHash") == other.evaluations[*other.best].record.programHash);
  CHECK(launch.at("programHash") != best.programHash);
}

TEST_CASE("explore/trust: a candidate that throws anything is recorded as a bug and the run goes on") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  tuner::OpenCLDevice backend(*device);
  TempDir dir;
  Program program = examples::findExample("jacobi1d_3pt").build();
  Sizes sizes{{"N", 64}};
  int compiles = 0;
  FaultyDevice faulty(
      backend,
      [&](const codegen::Kernel &) {
        ++compiles;
        if (compiles == 3) throw 42;                                       // not even a std::exception
        if (compiles == 5) throw std::logic_error("injected logic error"); // an unexpected std::exception
      },
      nullptr);
  ExploreOptions options = test::tinyExploreOptions("p", dir.path());
  options.budget.maxEvaluations = 5;
  ExploreResult result = explore::explore(program, sizes, faulty, options);
  // Baselines first: the 3rd and 5th compiles are the checkers of the second and third evaluation.
  REQUIRE(result.evaluations.size() == result.baselinesEvaluated + 5);
  size_t bugs = 0, ok = 0;
  for (const auto &e : result.evaluations) {
    bugs += e.record.outcome == search::Outcome::Bug;
    ok += e.record.outcome == search::Outcome::Ok;
  }
  CHECK(bugs == 2);
  CHECK(ok == result.evaluations.size() - 2);
  CHECK(result.best);
  std::string store = test::readFile(result.storePath);
  CHECK(store.find("unexpected exception of unknown type") != std::string::npos);
  CHECK(store.find("injected logic error") != std::string::npos);
}

TEST_CASE("explore/trust: verification sizes are those the program accepts (split(4) at N=1024)") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  tuner::OpenCLDevice backend(*device);
  TempDir dir;
  Program program = readProgram(R"({
    "liftcc": 1, "sizes": ["N"],
    "userFuns": {"twice": {"params": [{"name": "x", "type": "float"}], "returns": "float", "body": "return 2.0f * x;"}},
    "inputs": [{"name": "A", "type": "[float]N"}],
    "body": {"op": "join", "in": {"op": "map", "f": {"lambda": ["c"], "body": {"op": "map", "f": {"userFun": "twice"},
             "in": {"param": "c"}}}, "in": {"op": "split", "n": 4, "in": {"param": "A"}}}}
  })");
  ExploreOptions options = test::tinyExploreOptions("split4", dir.path());
  options.budget.maxEvaluations = 4;
  ExploreResult result = explore::explore(program, {{"N", 1024}}, backend, options);
  REQUIRE(!result.evaluations.empty());
  for (const auto &e : result.evaluations) {
    CAPTURE(e.record.key);
    CHECK_MESSAGE(e.record.outcome == search::Outcome::Ok, e.record.error);
    CHECK(e.record.verified.find("all of N=") == 0);
  }
}

TEST_CASE("explore/trust: a specialised 3D tile is verified at a bounded size, where it still has an interior") {
  // 4 tiles of 32 per dimension would be 128^3 points for the interpreter (a
  // minute per variant on a slow host core); the cap is 2^19 points, 80^3.
  auto device = ocl::test::testDevice();
  if (!device) return;
  tuner::OpenCLDevice backend(*device);
  TempDir dir;
  ExploreOptions options = test::tinyExploreOptions("heat", dir.path());
  options.space.tileSizes = {32};
  options.space.tileShapes = {};
  options.space.includePlain = options.space.includeStream = options.space.includeLocal = false;
  options.space.includeCoarsened = options.space.includeVector = false;
  options.budget.maxEvaluations = 1; // the tiled variant (the tiled baseline), then its specialised twin
  ExploreResult result =
      explore::explore(examples::findExample("heat").build(), {{"O", 96}, {"N", 96}, {"M", 96}}, backend, options);
  bool sawSpecialised = false;
  for (const auto &e : result.evaluations) {
    CAPTURE(e.record.key);
    CHECK_MESSAGE(e.record.outcome == search::Outcome::Ok, e.record.error);
    if (!e.configuration.specialise) continue;
    sawSpecialised = true;
    // 80 = 2.5 tiles of 32: the middle tile is interior, so the exhaustive
    // check runs the specialised interior code as well as the borders.
    CHECK(e.record.verified.find("all of O=80,N=80,M=80;") == 0);
  }
  CHECK(sawSpecialised);
}

TEST_CASE("explore/trust: the timed kernel's own full-size output is checked") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  tuner::OpenCLDevice backend(*device);
  TempDir dir;
  Program program = examples::findExample("jacobi2d_5pt").build();
  Sizes sizes{{"N", 96}, {"M", 80}};
  ExploreOptions options = test::tinyExploreOptions("jacobi", dir.path());
  options.budget.maxEvaluations = 3;

  SUBCASE("a correct kernel passes, and its record says what was compared") {
    ExploreResult result = explore::explore(program, sizes, backend, options);
    test::checkNoBugs(result);
    for (const auto &e : result.evaluations) {
      CHECK(e.record.outcome == search::Outcome::Ok);
      CHECK(e.record.verified.find("points of the timed run") != std::string::npos);
    }
  }
  SUBCASE("a kernel right at the verification sizes and wrong at the full size is rejected, never the best") {
    // The last row of a full-size result is off by a little: invisible at
    // the small verification sizes, where nothing is changed.
    FaultyDevice faulty(backend, nullptr, [&](const Sizes &runSizes, tuner::RawRun &run) {
      if (runSizes != sizes || run.output.empty()) return;
      for (int64_t j = 0; j < sizes.at("M"); ++j) {
        float value;
        size_t offset = size_t((sizes.at("N") - 1) * sizes.at("M") + j) * sizeof(float);
        std::memcpy(&value, run.output.data() + offset, sizeof value);
        value += 0.01f;
        std::memcpy(run.output.data() + offset, &value, sizeof value);
      }
    });
    ExploreResult result = explore::explore(program, sizes, faulty, options);
    REQUIRE(result.evaluations.size() == result.baselinesEvaluated + 3);
    for (const auto &e : result.evaluations) {
      CAPTURE(e.record.key);
      CHECK(e.record.outcome == search::Outcome::Correctness);
      CHECK(e.record.error.find("at full size, element [95,") != std::string::npos);
    }
    CHECK(!result.best);
    CHECK(result.bestKernelDir.empty());
  }
}

TEST_CASE("explore/trust: a result of several grids is checked component by component at full size") {
  auto device = ocl::test::testDevice();
  if (!device) return;
  tuner::OpenCLDevice backend(*device);
  TempDir dir;
  ExploreOptions options = test::tinyExploreOptions("several", dir.path());
  options.budget.maxEvaluations = 3;
  // Two grids per point (the wave step's two time levels) and a pair of
  // grids (the 3D chain's smoothed grid and its Laplacian).
  for (const auto &[name, sizes] :
       {std::pair<std::string, Sizes>{"wave2d", {{"N", 40}, {"M", 48}}},
        std::pair<std::string, Sizes>{"chain3d_radius2", {{"O", 8}, {"N", 9}, {"M", 10}}}}) {
    CAPTURE(name);
    options.programName = name;
    ExploreResult result = explore::explore(examples::findExample(name).build(), sizes, backend, options);
    test::checkNoBugs(result);
    REQUIRE(result.evaluations.size() == result.baselinesEvaluated + 3);
    for (const auto &e : result.evaluations) {
      CAPTURE(e.record.key);
      CHECK_MESSAGE(e.record.outcome == search::Outcome::Ok, e.record.error);
    }
  }
  // The second component's last element off by a little: caught, and named.
  Sizes sizes{{"N", 40}, {"M", 48}};
  FaultyDevice faulty(backend, nullptr, [&](const Sizes &runSizes, tuner::RawRun &run) {
    if (runSizes != sizes || run.output.empty()) return;
    float value;
    size_t offset = run.output.size() - sizeof(float);
    std::memcpy(&value, run.output.data() + offset, sizeof value);
    value += 0.01f;
    std::memcpy(run.output.data() + offset, &value, sizeof value);
  });
  options.programName = "wave2d_faulty";
  ExploreResult result = explore::explore(examples::findExample("wave2d").build(), sizes, faulty, options);
  REQUIRE(result.evaluations.size() == result.baselinesEvaluated + 3);
  for (const auto &e : result.evaluations) {
    CAPTURE(e.record.key);
    CHECK(e.record.outcome == search::Outcome::Correctness);
    CHECK_MESSAGE(e.record.error.find("at full size, component 1 element [39,47]") != std::string::npos,
                  e.record.error);
  }
}

TEST_CASE("interpreter/points: every point of every example equals the full interpretation") {
  for (const examples::Example &example : examples::allExamples()) {
    CAPTURE(example.name);
    Sizes sizes;
    for (const std::string &name : example.sizeNames) sizes[name] = example.dims == 3 ? 6 : 11;
    Program typed = typeCheck(example.build(), sizes);
    std::vector<Value> inputs = randomInputs(typed, sizes, 3);
    Value whole = interpret(typed, sizes, inputs);
    // Every point: the sample of a small result is all of it.
    const Type &type = typed.body().typeOrThrow();
    std::vector<ResultPoint> points = samplePoints(type, sizes, 5000, 1);
    CHECK(int64_t(points.size()) * scalarCount(locatePoint(type, sizes, points[0]).type, sizes) ==
          scalarCount(type, sizes));
    std::vector<Value> values = test::interpretPointsOfInputs(typed, sizes, inputs, points);
    if (auto i = test::firstPointDifferingFromWhole(type, sizes, points, values, whole))
      FAIL_CHECK("point " << *i << " differs");
  }
}

TEST_CASE("interpreter/points: an element of generate is f at its index, never the whole generated array") {
  // 2^30 generated elements: building them (as the acoustic example's room
  // grid was built again for every sampled point) would not finish.
  Expr a = api::input("A", api::array(api::f32(), api::size("N")));
  Expr twice = api::userFun("twice", {{"i", ScalarKind::Int}}, ScalarKind::Int, "return 2 * i;");
  Expr inner = api::generate(api::size("M"), api::fn([twice](Expr i) { return api::apply(twice, {i}); }, "i"));
  Program typed = typeCheck(api::program({a}, api::map(api::fn([](Expr x) { return x; }, "x"), inner)),
                            Sizes{{"N", 1}, {"M", int64_t(1) << 30}});
  std::vector<std::byte> bytes(4);
  std::vector<std::span<const std::byte>> views{bytes};
  std::vector<Value> values =
      interpretPoints(typed, Sizes{{"N", 1}, {"M", int64_t(1) << 30}}, views, {{0}, {12345}, {(int64_t(1) << 30) - 1}});
  REQUIRE(values.size() == 3);
  CHECK(values[0].scalar().asInt() == 0);
  CHECK(values[1].scalar().asInt() == 24690);
  CHECK(values[2].scalar().asInt() == int32_t((int64_t(1) << 31) - 2));
}

} // namespace liftcc
