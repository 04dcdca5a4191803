// liftc bench: generated kernels vs hand-written OpenCL or CUDA kernels and the
// copy-kernel roofline, for a few examples, in one run on one device.

#include "bench/benchmark.h"
#include "bench/peers.h"
#include "bench/report.h"
#include "core/io/safe_file.h"
#include "core/typecheck/typecheck.h"
#include "tools/liftc/device_selection.h"
#include "tools/liftc/program_loading.h"
#include "tools/liftc/resource_limits.h"
#include "tools/liftc/search_option.h"
#include "tools/liftc/strategy_options.h"
#include "tools/liftc/verbs.h"

#include "examples/example.h"
#include "explore/explorer.h"
#include "search/search.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

namespace liftcc::cli {

namespace {

std::vector<std::string> splitList(const std::string &option, const std::string &text) {
  std::vector<std::string> items;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) items.push_back(item);
  if (items.empty()) throw UsageError("--" + option + " needs a comma-separated list");
  return items;
}

void writeFile(const std::string &path, const bench::BenchReport &report,
               void (*render)(std::ostream &, const bench::BenchReport &)) {
  std::ostringstream text;
  render(text, report);
  io::writeFile(path, text.str());
}

#ifndef LIFTCC_PLOT_SCRIPT
#define LIFTCC_PLOT_SCRIPT "bench/plot.py"
#endif

/// A shell word: single-quoted, embedded quotes escaped.
std::string shellQuote(const std::string &text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

/// Renders the CSV at `csv` as the bar chart `png` with bench/plot.py when
/// python3 and matplotlib are there; otherwise says how to do it by hand.
/// Plotting is optional: no outcome of it changes the exit status.
void plotPng(const std::string &csv, const std::string &png) {
  const std::string script = LIFTCC_PLOT_SCRIPT;
  const std::string command = "python3 " + shellQuote(script) + " " + shellQuote(csv) + " " + shellQuote(png);
  bool available =
      std::filesystem::is_regular_file(script) && std::system("python3 -c 'import matplotlib' >/dev/null 2>&1") == 0;
  if (available && std::system(command.c_str()) == 0) {
    std::cerr << "bench: wrote " << png << "\n";
    return;
  }
  std::cerr << "bench: could not draw " << png << " (needs python3 with matplotlib: pip install matplotlib); run\n"
            << "  " << command << "\n";
}

/// The best kernels recorded for the device in its own dialect. The same
/// GPU's OpenCL and CUDA explorations match its name alike.
std::vector<explore::BestKernel> bestKernelsFor(const std::string &results, const tuner::Device &device) {
  std::vector<explore::BestKernel> bests = explore::findBestKernels(results, device.resultsName());
  std::erase_if(bests,
                [&](const explore::BestKernel &k) { return k.kernelFile != explore::kernelFileName(device.target()); });
  return bests;
}

bool hasBestAt(const std::vector<explore::BestKernel> &bests, const std::string &program, const std::string &sizes) {
  return std::any_of(bests.begin(), bests.end(), [&](const explore::BestKernel &k) {
    return k.launch.value("program", "") == program && k.launch.value("sizes", "") == sizes;
  });
}

/// How the bench explores an example that has no best kernel recorded at its
/// benchmark sizes: `--explore N` evaluations, `--explore-budget` time per
/// example, with `--explore-search`.
struct OnTheSpotExploration {
  size_t evaluations = 16; ///< 0: never explore
  std::optional<double> secondsPerExample;
  search::SearchStrategy strategy = search::SearchStrategy::Random;

  bool enabled() const { return evaluations > 0; }
  std::string describe() const {
    std::string what = evaluations == SIZE_MAX ? std::string("variants") : std::to_string(evaluations) + " variants";
    std::string text = "exploring " + what + " (" + search::strategyName(strategy) + ")";
    if (secondsPerExample) text += " for at most " + std::to_string(static_cast<long long>(*secondsPerExample)) + " s";
    return text;
  }
};

OnTheSpotExploration parseExploration(const CommandLine &cl) {
  OnTheSpotExploration exploration;
  if (auto budget = cl.value("explore-budget")) {
    exploration.secondsPerExample = parseDuration("--explore-budget", *budget, kExploreBudgetRange);
    exploration.evaluations = SIZE_MAX; // the time bounds it unless --explore says otherwise
  }
  if (auto n = cl.value("explore")) exploration.evaluations = parseCount("--explore", *n, {0, kEvaluationsRange.max});
  if (auto search = searchMethodOf(cl, "explore-search", "explore-strategy", std::cerr)) exploration.strategy = *search;
  if (!exploration.enabled() &&
      (cl.value("explore-budget") || cl.value("explore-search") || cl.value("explore-strategy")))
    throw UsageError("--explore 0 never explores; --explore-budget and --explore-search need exploring");
  return exploration;
}

/// Explores on the spot every benchmarked example that has no best kernel
/// recorded at its benchmark sizes (the same driver, checks and store as
/// `liftc explore`), so the bench can show an explored row; a later bench
/// reuses what was stored. Returns how many examples were explored.
size_t exploreMissing(bench::BenchOptions &options, tuner::Device &device, const std::string &results,
                      const OnTheSpotExploration &exploration) {
  size_t explored = 0;
  std::vector<explore::BestKernel> known = bestKernelsFor(results, device);
  for (const std::string &name : options.examples) {
    const examples::Example &example = examples::findExample(name);
    Program program = example.build();
    bench::Sizes sizes = bench::benchSizes(example, options.sizes, options.sizeScale);
    if (hasBestAt(known, name, explore::sizesKey(program, sizes))) continue;
    explore::ExploreOptions explore;
    explore.programName = name;
    explore.storeDir = results;
    explore.strategy = exploration.strategy;
    // The space of liftc explore without options, fast-math levels included.
    explore.space.fastMathLevels = parseFastMathLevels(kDefaultFastMathLevels);
    explore.budget.maxEvaluations = exploration.evaluations;
    if (exploration.secondsPerExample)
      explore.budget.maxTime = std::chrono::duration<double>(*exploration.secondsPerExample);
    explore.seed = options.seed;
    if (options.log) options.log(name + ": " + exploration.describe());
    auto start = std::chrono::steady_clock::now();
    explore::ExploreResult result = explore::explore(program, sizes, device, explore);
    options.exploreSeconds[name] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++explored;
    if (options.log)
      // The baselines (explore/baselines.h) come first, on top of --explore.
      options.log(name + ": " + std::to_string(result.evaluations.size() - result.baselinesEvaluated) +
                  " evaluated after " + std::to_string(result.baselinesEvaluated) + " baseline(s)" +
                  (result.best ? ", best " + result.evaluations[*result.best].record.key
                               : std::string(", no explored variant ran")));
  }
  return explored;
}

/// --examples: all, multistage or a list of names (unknown ones fail here).
std::vector<std::string> benchExamplesOf(const CommandLine &cl) {
  std::string list = cl.value("examples").value_or("all");
  std::vector<std::string> names;
  if (list == "all") {
    for (const examples::Example &e : examples::allExamples()) names.push_back(e.name);
  } else if (list == "multistage") {
    for (const examples::Example &e : examples::multiStageExamples()) names.push_back(e.name);
  } else {
    names = splitList("examples", list);
    for (const std::string &name : names) examples::findExample(name);
  }
  return names;
}

/// --tiles and --coarsened: the fixed rows besides the defaults.
void parseContenders(const CommandLine &cl, bench::BenchOptions &options) {
  if (auto tiles = cl.value("tiles")) {
    options.contenders.tiles.clear();
    for (const std::string &t : splitList("tiles", *tiles)) {
      options.contenders.tiles.push_back(static_cast<int64_t>(parseCount("--tiles", t, {1, 1024})));
    }
  }
  if (auto coarsened = cl.value("coarsened")) {
    options.contenders.coarsened.emplace();
    for (const std::string &spec : splitList("coarsened", *coarsened)) {
      auto variant = bench::parseCoarsenedVariant(spec);
      if (!variant)
        throw UsageError("--coarsened takes x8, y4, z2, x8:global, x8:vec4, x8:spec, x8:global:vec4:spec, "
                         "x8:spec:noinline ... (a dimension and a factor from 1 to 64; vector widths 2, 4, 8, 16), "
                         "found '" +
                         io::shown(spec) + "'");
      options.contenders.coarsened->push_back(*variant);
    }
  }
}

/// Every option of bench but the device's and the on-the-spot exploration's,
/// checked before any measuring; the programs' limits at the bench sizes too.
bench::BenchOptions benchOptionsOf(const CommandLine &cl) {
  bench::BenchOptions options;
  options.examples = benchExamplesOf(cl);
  if (auto preset = cl.value("sizes")) {
    auto parsed = bench::parseSizePreset(*preset);
    if (!parsed) throw UsageError("--sizes must be default or paper, found '" + io::shown(*preset) + "'");
    options.sizes = *parsed;
  }
  if (auto scale = cl.value("size-scale")) options.sizeScale = parseFactor("--size-scale", *scale, {0, 64});
  if (auto runs = cl.value("runs")) {
    options.timing.timedRuns = static_cast<unsigned>(parseCount("--runs", *runs, {1, 10000}));
    options.minTimedSeconds = 0; // exactly that many, unless --min-time says more
  }
  if (auto warmups = cl.value("warmups"))
    options.timing.warmupRuns = static_cast<unsigned>(parseCount("--warmups", *warmups, {0, 1000}));
  if (auto rounds = cl.value("rounds"))
    options.rounds = static_cast<unsigned>(parseCount("--rounds", *rounds, {1, 100}));
  if (auto seconds = cl.value("min-time")) {
    // 0: exactly --runs runs; otherwise a duration such as 0.5, 2s or 1m.
    options.minTimedSeconds = *seconds == "0" ? 0 : parseDuration("--min-time", *seconds, {0.001, 3600});
  }
  if (auto seed = cl.value("seed")) options.seed = parseCount("--seed", *seed, kSeedRange);
  if (auto mib = cl.value("copy-mib"))
    options.copyBytes = static_cast<size_t>(parseCount("--copy-mib", *mib, {1, 65536})) << 20;
  parseContenders(cl, options);
  if (!cl.has("quiet")) options.log = [](const std::string &line) { std::cerr << "bench: " << line << "\n"; };
  // The limits of every verb that produces kernels, at the benchmark's sizes.
  for (const std::string &name : options.examples) {
    const examples::Example &example = examples::findExample(name);
    bench::Sizes sizes = bench::benchSizes(example, options.sizes, options.sizeScale);
    checkIterationCount(typeCheck(example.build(), sizes), sizes);
  }
  return options;
}

/// --kernel-tuner full|quick|off: Kernel Tuner runs the hand-written OpenCL
/// kernels (pyopencl), a peer on OpenCL devices only.
void addKernelTunerPeer(const CommandLine &cl, const tuner::Device &device, bench::BenchOptions &options) {
  std::string kernelTuner = cl.value("kernel-tuner").value_or("full");
  if (kernelTuner != "full" && kernelTuner != "quick" && kernelTuner != "off")
    throw UsageError("--kernel-tuner must be full, quick or off, found '" + kernelTuner + "'");
  if (kernelTuner == "off" || device.target() != codegen::Target::OpenCL) return;
  std::string whyNot;
  options.kernelTuner = bench::findKernelTuner(whyNot);
  if (options.kernelTuner) options.kernelTuner->quick = kernelTuner == "quick";
  // Said even with --quiet: a missing peer must not go unnoticed.
  if (!options.kernelTuner)
    std::cerr << "bench: no kernel tuner rows: " << whyNot << "\n";
  else if (options.log)
    options.log("peers: Kernel Tuner on the hand-written kernels (" + options.kernelTuner->script + ")");
}

/// --csv, --png (which plots a CSV: --csv's, else one next to the image),
/// --markdown and --json.
void writeReports(const CommandLine &cl, const bench::BenchReport &report) {
  if (auto csv = cl.value("csv")) writeFile(*csv, report, bench::writeCsv);
  if (auto png = cl.value("png")) {
    std::string csv = cl.value("csv").value_or(*png + ".csv");
    if (!cl.value("csv")) writeFile(csv, report, bench::writeCsv);
    plotPng(csv, *png);
  }
  if (auto markdown = cl.value("markdown")) writeFile(*markdown, report, bench::writeMarkdown);
  if (auto json = cl.value("json")) writeFile(*json, report, bench::writeJson);
}

} // namespace

int runBench(const CommandLine &cl, std::ostream &out) {
  if (!cl.positional().empty()) throw UsageError("bench takes no positional arguments");
  // Checked before the minutes of measuring, not when the table is written.
  std::vector<std::pair<std::string, std::string>> outputs;
  for (const char *option : {"csv", "markdown", "png", "json"})
    if (auto path = cl.value(option)) outputs.emplace_back(std::string("--") + option, *path);
  io::refuseOverwritingInputs(outputs, {});
  bench::BenchOptions options = benchOptionsOf(cl);

  OnTheSpotExploration exploration = parseExploration(cl);
  std::unique_ptr<tuner::Device> device = openDevice(cl, parseTarget(cl));
  // Explored bests are optional: the default directory is used when present,
  // an explicitly named one must exist.
  std::string results = cl.value("results").value_or("results");
  // Exploring creates the directory; only reading needs it to exist.
  if (!exploration.enabled() && cl.value("results") && !std::filesystem::is_directory(results))
    throw std::runtime_error("no results directory '" + results + "'");
  auto exploreStart = std::chrono::steady_clock::now();
  size_t explored = exploration.enabled() ? exploreMissing(options, *device, results, exploration) : 0;
  double exploreSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - exploreStart).count();
  if (std::filesystem::is_directory(results)) options.contenders.explored = bestKernelsFor(results, *device);

  if (options.log)
    options.log("peers: " + (device->target() == codegen::Target::OpenCL ? bench::peersDescription() : "none on CUDA"));
  addKernelTunerPeer(cl, *device, options);
  bench::BenchReport report = bench::runBench(*device, options);
  report.explored = explored;
  report.exploreSeconds = explored > 0 ? exploreSeconds : 0;
  bench::printTable(out, report);
  writeReports(cl, report);
  // A wrong kernel is a finding, not a crash: exit 1 so scripts notice.
  for (const bench::ExampleReport &e : report.examples)
    for (const bench::BenchRow &r : e.rows)
      if (r.status == bench::Status::Wrong) return 1;
  return 0;
}

} // namespace liftcc::cli
