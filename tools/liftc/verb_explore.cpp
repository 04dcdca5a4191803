// liftc explore and liftc tune: search the low-level variants of a program on
// an OpenCL device or a CUDA GPU, storing every measurement.

#include "core/io/safe_file.h"
#include "core/typecheck/typecheck.h"
#include "driver/input_checks.h"
#include "explore/best_kernels.h"
#include "explore/explorer.h"
#include "explore/record_identity.h"
#include "explore/strategy_text.h"
#include "tools/liftc/device_selection.h"
#include "tools/liftc/explore_prepare_only.h"
#include "tools/liftc/program_loading.h"
#include "tools/liftc/resource_limits.h"
#include "tools/liftc/search_option.h"
#include "tools/liftc/standard_output.h"
#include "tools/liftc/strategy_options.h"
#include "tools/liftc/verbs.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

namespace liftcc::cli {

namespace {

/// --prune F: a factor above 1 (pruning a program only when its best is
/// slower than the best so far); "off" or absent: no pruning.
double parsePruneFactor(const std::string &text) {
  if (text == "off") return 0;
  return parseFactor("--prune", text, {1, 1e6});
}

std::string clock(double seconds) {
  int s = static_cast<int>(seconds + 0.5);
  std::ostringstream out;
  out << s / 60 << ":" << std::setw(2) << std::setfill('0') << s % 60;
  return out.str();
}

/// The name results are filed under: --name (checked: it becomes a
/// directory name, never a path), or the program file's stem made safe.
std::string programNameOf(const CommandLine &cl) {
  if (auto name = cl.value("name")) {
    if (auto why = explore::invalidProgramName(*name)) throw UsageError("--name '" + io::shown(*name) + "' " + *why);
    return *name;
  }
  return explore::programNameFromStem(std::filesystem::path(cl.onlyPositional("program file")).stem().string());
}

void printTable(const explore::ExploreResult &result, std::ostream &out, size_t rows, bool timed) {
  std::vector<const explore::Evaluation *> ok;
  std::map<search::Outcome, size_t> notOk; // by outcome: a variant dropped for its spills did not fail
  const search::Record *firstNotOk = nullptr;
  for (const auto &e : result.evaluations) {
    if (e.record.outcome == search::Outcome::Ok) {
      ok.push_back(&e);
    } else {
      ++notOk[e.record.outcome];
      if (!firstNotOk) firstNotOk = &e.record;
    }
  }
  // The finalists (timed again in rounds) first, by their median of rounds:
  // the winner is decided among them, so a single timing that came out
  // faster (unconfirmed, maybe one lucky sample) ranks below them, as the
  // result store's best() ranks it; then every other variant by its time.
  std::sort(ok.begin(), ok.end(), [](auto *a, auto *b) {
    bool aFinalist = !a->record.roundsNs.empty(), bFinalist = !b->record.roundsNs.empty();
    if (aFinalist != bFinalist) return aFinalist;
    return a->record.medianNs < b->record.medianNs;
  });
  // The baseline: the plain mapGlb variant with the runtime's work-group size.
  const explore::Evaluation *plain = nullptr;
  for (auto *e : ok)
    if (e->configuration == explore::Configuration{}) plain = e;
  out << std::left << std::setw(5) << "rank" << std::setw(30) << "variant" << std::right << std::setw(12) << "median ms"
      << std::setw(14) << "M elements/s" << std::setw(12) << "vs plain" << std::setw(9) << "rounds"
      << "\n";
  if (!plain) out << "(the plain variant with the default work-group size was not evaluated: no ratios)\n";
  for (size_t i = 0; i < ok.size() && i < rows; ++i) {
    const auto &r = ok[i]->record;
    out << std::left << std::setw(5) << i + 1 << std::setw(30) << r.key << std::right << std::fixed;
    if (!timed) {
      // Nothing launched: no time to show, no ratio.
      out << std::setw(12) << "-" << std::setw(14) << "-" << std::setw(12) << "-" << std::setw(9) << "-\n";
      continue;
    }
    out << std::setprecision(3) << std::setw(12) << r.medianNs / 1e6 << std::setprecision(1) << std::setw(14)
        << result.outputElements / (r.medianNs * 1e-9) / 1e6;
    if (plain)
      out << std::setprecision(2) << std::setw(11) << plain->record.medianNs / r.medianNs << "x";
    else
      out << std::setw(12) << "";
    // A finalist's median is of its rounds; any other variant was timed in one go.
    out << std::setw(9) << (r.roundsNs.empty() ? size_t{1} : r.roundsNs.size()) << "\n";
  }
  if (firstNotOk) {
    size_t count = 0;
    std::string outcomes;
    for (const auto &[outcome, n] : notOk) {
      count += n;
      outcomes += (outcomes.empty() ? "" : ", ") + std::to_string(n) + " " + search::outcomeName(outcome);
    }
    out << count << " variant(s) not timed (" << outcomes << "; the first: " << firstNotOk->key << ": "
        << firstNotOk->error << "; the result store says why for each)\n";
  }
}

/// Returns `status`, or, while a timed-out kernel still runs on `device`,
/// ends the process with it: OpenCL cannot cancel a kernel, and waiting for
/// it would overrun the budget. Everything is written by then; the teardown
/// skipped would wait for (or race) the kernel.
int exitNowIfAbandoned(const tuner::Device &device, int status, std::ostream &out) {
  if (!device.abandonedKernelRunning()) return status;
  std::cerr << "liftc: note: a timed-out kernel is still running; exiting without waiting for it\n";
  out.flush();
  try {
    finishStandardOutput(); // main's check, which _Exit skips
  } catch (const std::exception &e) {
    std::cerr << "liftc: error: " << e.what() << "\n";
    status = 1;
  }
  std::cerr.flush();
  std::_Exit(status);
}

} // namespace

namespace {

/// Every option of explore (and its --target), checked in this order before
/// the program is read, let alone explored; --prepare-only, --space and the
/// outputs are read later.
explore::ExploreOptions exploreOptionsOf(const CommandLine &cl, codegen::Target &target) {
  explore::ExploreOptions options;
  options.programName = programNameOf(cl);
  options.storeDir = cl.value("out").value_or("results");
  if (options.storeDir.empty()) throw UsageError("--out must name a directory");
  if (auto search = searchMethodOf(cl, "search", "strategy", std::cerr)) options.strategy = *search;
  if (auto b = cl.value("budget"))
    options.budget.maxTime = std::chrono::duration<double>(parseDuration("--budget", *b, kExploreBudgetRange));
  if (auto t = cl.value("timeout"))
    options.kernelTimeout = std::chrono::duration<double>(parseDuration("--timeout", *t, kKernelTimeoutRange));
  if (auto n = cl.value("evals")) options.budget.maxEvaluations = parseCount("--evals", *n, kEvaluationsRange);
  if (auto seed = cl.value("seed")) options.seed = parseCount("--seed", *seed, kSeedRange);
  if (auto k = cl.value("finalists")) options.finalists = parseCount("--finalists", *k, {0, 100});
  if (auto r = cl.value("finalist-rounds"))
    options.finalistRounds = static_cast<unsigned>(parseCount("--finalist-rounds", *r, {1, 100}));
  if (auto prune = cl.value("prune")) options.budget.pruning.slowerThan = parsePruneFactor(*prune);
  if (auto threads = cl.value("prepare-threads"); threads && *threads != "auto")
    options.prepareThreads = parseCount("--prepare-threads", *threads, {0, 64});
  if (auto groups = cl.value("min-groups-per-sm"))
    options.sass.minGroupsPerSm = static_cast<int64_t>(parseCount("--min-groups-per-sm", *groups, {0, 32}));
  options.space.fastMathLevels = fastMathLevelsOf(cl);
  // streamLocal is built for GPUs (on PoCL it ran at 0.01 of the copy roof,
  // docs/rewriting.md): in the default space of --target cuda; --families and
  // --exclude-families select it for any target.
  target = parseTarget(cl);
  options.space.includeStreamLocal = target == codegen::Target::CUDA;
  options.space.includeTimeTiledLocal = target == codegen::Target::CUDA;
  options.space.includeTimeTiledStream = target == codegen::Target::CUDA;
  applySpaceSelection(cl, options.space);
  if (auto runs = cl.value("runs")) options.timedRuns = static_cast<int>(parseCount("--runs", *runs, kTimedRunsRange));
  if (auto shard = cl.value("shard")) {
    size_t slash = shard->find('/');
    if (slash == std::string::npos) throw UsageError("--shard expects i/n, e.g. 0/4");
    options.shardIndex = parseCount("--shard", shard->substr(0, slash), {0, 65535});
    options.shardCount = parseCount("--shard", shard->substr(slash + 1), {1, 65536});
    if (options.shardCount == 0 || options.shardIndex >= options.shardCount)
      throw UsageError("--shard i/n needs 0 <= i < n, found '" + io::shown(*shard) + "'");
  }
  options.measureRoof = !cl.has("no-roofline");
  options.useKnowledge = !cl.has("no-knowledge");
  return options;
}

/// The progress line on stderr, rewritten in place; nothing with --quiet.
std::function<void(const explore::Progress &)> progressLine(bool quiet) {
  return [quiet](const explore::Progress &p) {
    if (quiet) return;
    double eta = p.done ? p.elapsedSeconds / double(p.done) * double(p.total - std::min(p.done, p.total)) : 0;
    std::ostringstream line;
    line << "\r[" << std::setw(4) << p.done << "/" << p.total << "] ";
    if (p.bestNs)
      line << "best " << std::fixed << std::setprecision(3) << *p.bestNs / 1e6 << " ms (" << p.bestKey << ")";
    line << "  elapsed " << clock(p.elapsedSeconds) << "  ETA " << clock(eta) << "   ";
    std::cerr << line.str() << std::flush;
  };
}

/// --space: the space only, nothing compiled or timed: described (one kernel
/// per low-level program), or with --build every variant's kernel generated
/// and deduplicated (seconds to minutes: docs/exploration.md).
int printSpaceOnly(const CommandLine &cl, const LoadedProgram &loaded, const explore::ExploreOptions &options,
                   const tuner::Device &device, std::ostream &out) {
  auto start = std::chrono::steady_clock::now();
  explore::SpaceOptions spaceOptions = options.space;
  spaceOptions.target = device.target();
  out << "space of " << options.programName << " at " << explore::sizesKey(loaded.program, loaded.sizes) << " on "
      << device.name() << " (" << codegen::targetName(device.target()) << "):\n";
  if (cl.has("build"))
    printSpace(explore::enumerateSpace(loaded.typed, device.limits(), spaceOptions), out);
  else
    printSpaceDescription(explore::describeSpace(loaded.typed, device.limits(), spaceOptions), out);
  out << (cl.has("build") ? "enumerated" : "described") << " in " << std::fixed << std::setprecision(2)
      << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s\n";
  return 0;
}

/// What the run did: the space, the kernels built, the time to the first
/// measurement, the measuring thread, baselines, finalists and knowledge.
void printRunSummary(const explore::ExploreResult &result, const explore::ExploreOptions &options,
                     const tuner::Device &device, std::ostream &out) {
  out << "device: " << device.name() << " (" << codegen::targetName(device.target()) << ")\n";
  out << "space: " << result.spaceSize << " candidates (" << result.distinctPrograms << " low-level programs, "
      << result.dropped - result.refused << " dropped as not fitting the device";
  if (result.refused) out << ", " << result.refused << " refused by the code generator";
  out << "); this shard: " << result.candidates << "\n";
  out << "kernels generated: " << result.kernelsBuilt << " of the " << result.candidates << " candidates; skipped "
      << result.duplicates << " duplicate kernel(s) and " << result.skipped
      << " candidate(s) without a kernel of their own\n";
  out << std::fixed << std::setprecision(2) << "space described in " << result.describeSeconds << " s";
  if (result.firstCandidateSeconds) out << ", first candidate built from " << *result.firstCandidateSeconds << " s";
  if (result.firstMeasurementSeconds)
    out << ", first measurement (compiled, verifying) began at " << *result.firstMeasurementSeconds << " s";
  out << "\n" << std::defaultfloat;
  size_t reused = 0;
  for (const auto &e : result.evaluations) reused += e.fromStore;
  out << "evaluated: " << result.evaluations.size() << " (" << reused << " from the result store " << result.storePath
      << ")\n";
  size_t measured = result.evaluations.size() - reused;
  if (measured > 0) {
    out << "measuring thread: " << std::fixed << std::setprecision(1) << result.preparationWaitSeconds
        << " s preparing or waiting for prepared variants, " << result.measureSeconds << " s verifying and timing";
    if (result.preparationThreads > 0)
      out << "; prepared ahead: " << result.preparedAhead << " of " << measured << ", on " << result.preparationThreads
          << " worker thread" << (result.preparationThreads == 1 ? "" : "s");
    out << "\n" << std::defaultfloat;
  }
  out << "baselines: " << result.baselinesEvaluated << " of " << result.baselines
      << " evaluated before the search (the plain default and one default per family; " << result.baselinesFromStore
      << " from the result store)\n";
  if (options.finalists > 0) {
    out << "finalists: ";
    if (result.finalistsRetimed > 0)
      out << result.finalistsRetimed << " timed again in " << result.finalistRounds
          << " interleaved round(s); the best median of rounds won";
    else
      out << "not timed again";
    if (!result.retimingSkipped.empty()) out << " (" << result.retimingSkipped << ")";
    out << "\n";
  }
  if (!result.knowledgeStores.empty()) {
    out << "knowledge: " << result.knowledgeStores.size() << " other store(s) of this results directory, "
        << result.knownStrategies.size() << " known winning strateg"
        << (result.knownStrategies.size() == 1 ? "y" : "ies");
    if (result.priorObservationsUsed > 0)
      out << ", " << result.priorObservationsUsed << " prior observations for the model search";
    out << "\n";
  }
  for (const std::string &note : result.knowledgeNotes) out << "knowledge: " << note << "\n";
  if (options.budget.pruning.slowerThan > 0)
    out << "pruned: " << result.pruned << " variants of programs more than " << options.budget.pruning.slowerThan
        << "x slower than the best\n";
}

/// The winner: its time, rounds, strategy, why it won and where its kernel is.
void printBest(const explore::ExploreResult &result, const tuner::Device &device, std::ostream &out, bool timed) {
  if (!result.best) {
    out << "no variant ran successfully\n";
    return;
  }
  const auto &best = result.evaluations[*result.best];
  if (!timed) {
    out << "best: " << best.record.key
        << " (iterate runs 0 times: no variant launches a kernel, each returns its input; verified, not timed)\n";
    out << "strategy: " << best.record.strategy << "\n";
    out << "best kernel: " << result.bestKernelDir << "/" << explore::kernelFileName(device.target()) << "\n";
    return;
  }
  out << "best: " << best.record.key << ", " << std::fixed << std::setprecision(3) << best.record.medianNs / 1e6
      << " ms, " << std::setprecision(1) << result.outputElements / (best.record.medianNs * 1e-9) / 1e6
      << " M elements/s";
  if (!best.record.roundsNs.empty()) {
    auto [low, high] = std::minmax_element(best.record.roundsNs.begin(), best.record.roundsNs.end());
    out << std::setprecision(3) << " (median of " << best.record.roundsNs.size() << " rounds, spread " << *low / 1e6
        << "-" << *high / 1e6 << " ms)";
  }
  out << "\n";
  out << "strategy: " << best.record.strategy << "\n";
  if (result.why) out << "why it won: " << result.why->summary() << "\n";
  // Said when the timed run itself went unchecked (a heavy program's
  // full-size reference past its share of the budget).
  if (best.record.verified.find("not the timed run") != std::string::npos)
    out << "verified: " << best.record.verified << "\n";
  out << "best kernel: " << result.bestKernelDir << "/" << explore::kernelFileName(device.target()) << "\n";
}

} // namespace

int runExplore(const CommandLine &cl, std::ostream &out) {
  const std::string &path = cl.onlyPositional("program file");
  codegen::Target target = codegen::Target::OpenCL;
  explore::ExploreOptions options = exploreOptionsOf(cl, target);
  const LoadedProgram loaded = loadTypedProgram(cl, {});
  checkHostMemory(loaded.typed, loaded.sizes);
  if (auto t4 = cl.value("t4")) io::refuseOverwritingInputs({{"--t4", *t4}}, {path});
  if (cl.has("prepare-only")) return runPrepareOnly(cl, loaded.program, loaded.typed, loaded.sizes, options, out);
  const bool quiet = cl.has("quiet");
  options.onProgress = progressLine(quiet);

  std::unique_ptr<tuner::Device> device = openDevice(cl, target);
  if (cl.has("build") && !cl.has("space"))
    throw UsageError("--build goes with --space (it builds every kernel of the space)");
  if (cl.has("space")) return printSpaceOnly(cl, loaded, options, *device, out);
  explore::ExploreResult result = explore::explore(loaded.program, loaded.sizes, *device, options);
  if (!quiet && !result.evaluations.empty()) std::cerr << "\n"; // ends the progress line
  // A budget too small for one measurement is an error of its own: a table
  // of nothing would look like a space without working variants.
  if (result.evaluations.empty() && !result.budgetEndedWhile.empty()) {
    std::string message = "the --budget of " + describeSeconds(options.budget.maxTime.count()) +
                          " ended before one variant was measured, while " + result.budgetEndedWhile +
                          "; give a larger --budget";
    if (!device->abandonedKernelRunning()) throw std::runtime_error(message);
    std::cerr << "liftc: error: " << message << "\n";
    return exitNowIfAbandoned(*device, 1, out);
  }
  printRunSummary(result, options, *device, out);
  const bool timed = !driver::launchesNoKernel(loaded.typed, loaded.sizes);
  printTable(result, out, 10, timed);
  printBest(result, *device, out, timed);
  if (auto t4 = cl.value("t4")) {
    search::ResultStore store(result.storePath, search::ResultStore::Access::Read);
    io::writeFile(*t4, search::exportT4(store.records()).dump(2) + "\n");
  }
  return exitNowIfAbandoned(*device, result.best ? 0 : 1, out);
}

int runTune(const CommandLine &cl, std::ostream &out) {
  cl.onlyPositional("program file"); // a missing file is the first error
  // The numeric options are checked before the program is read.
  explore::ExploreOptions options;
  if (auto runs = cl.value("runs")) options.timedRuns = static_cast<int>(parseCount("--runs", *runs, kTimedRunsRange));
  if (auto t = cl.value("timeout"))
    options.kernelTimeout = std::chrono::duration<double>(parseDuration("--timeout", *t, kKernelTimeoutRange));
  const auto [program, sizes, typed] = loadTypedProgram(cl, {});

  std::optional<explore::Variant> fromStrategy = strategyVariant(cl, typed, parseTarget(cl));
  explore::Configuration config = fromStrategy ? fromStrategy->configuration : strategyOfOptions(cl);

  options.programName = programNameOf(cl);
  options.storeDir = cl.value("out").value_or("results");
  if (options.storeDir.empty()) throw UsageError("--out must name a directory");
  std::unique_ptr<tuner::Device> device = openDevice(cl, parseTarget(cl));
  explore::Variant variant = fromStrategy ? *fromStrategy : explore::makeVariant(typed, config, device->target());
  checkLocalOption(cl, variant.kernel, /*forLaunch=*/true);
  checkDeviceLimits(variant.kernel, device->limits(), sizes);
  search::ResultStore store(
      explore::storePathFor(options.storeDir, device->resultsName(), options.programName, program, sizes),
      search::ResultStore::Access::Append, options.storeDir);
  search::Record record;
  // Reused only when it measured this program and this very kernel (and a
  // timeout, with at least this run's timeout).
  const search::Record *known =
      store.findMeasuredOn(config.key(), explore::programHash(program, sizes),
                           explore::kernelHash(variant.kernel, variant.configuration), device->resultsName());
  if (known && known->answersTimeout(options.kernelTimeout.count())) {
    record = *known;
    out << "(from the result store)\n";
  } else {
    record = explore::evaluateVariant(program, variant, sizes, *device, options);
    store.append(record);
  }
  out << "device: " << device->name() << "\nvariant: " << record.key << "\nstrategy: " << explore::strategyText(variant)
      << "\noutcome: " << search::outcomeName(record.outcome) << "\n";
  if (record.outcome != search::Outcome::Ok) {
    out << "error: " << record.error << "\n";
    return exitNowIfAbandoned(*device, 1, out);
  }
  int64_t elements = scalarCount(typed.body().typeOrThrow(), sizes);
  out << std::fixed << std::setprecision(3) << "median: " << record.medianNs / 1e6 << " ms, " << std::setprecision(1)
      << elements / (record.medianNs * 1e-9) / 1e6 << " M elements/s\n";
  // The explanation of a single measurement: traffic and bandwidth, no roof, no runners-up.
  explore::WinExplanation why = explore::explainWin({{variant.configuration, record, false}}, 0,
                                                    explore::compulsoryBytesPerOutput(typed, sizes), elements);
  explore::writeBestKernel(options.storeDir, device->resultsName(), options.programName,
                           explore::sizesKey(program, sizes), variant, record, elements, &why);
  return exitNowIfAbandoned(*device, 0, out);
}

} // namespace liftcc::cli
