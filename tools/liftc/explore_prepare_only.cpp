#include "tools/liftc/explore_prepare_only.h"

#include "core/io/safe_file.h"
#include "explore/prepare_only.h"
#include "tools/liftc/option_values.h"
#include "tools/liftc/program_loading.h"
#include "tuner/cuda/compile_only_device.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace liftcc::cli {

namespace {

/// The GPU run the report projects to: issue #33's 8 minutes on 16 host
/// cores, one of which measures while the others prepare.
constexpr double kGpuRunSeconds = 480;
constexpr size_t kGpuHostCores = 16;

void printSass(const explore::PrepareOnlyResult &r, const explore::SassRequirements &requirements,
               std::ostream &out) {
  if (r.sass.empty()) return;
  std::vector<int64_t> registers;
  size_t spilling = 0, shared = 0, barriers = 0;
  int64_t maxShared = 0, maxStack = 0;
  for (const tuner::SassSummary &s : r.sass) {
    registers.push_back(s.registers);
    spilling += s.spills();
    shared += s.sharedBytes > 0;
    barriers += s.barriers > 0;
    maxShared = std::max(maxShared, s.sharedBytes);
    maxStack = std::max(maxStack, s.stackBytes);
  }
  std::sort(registers.begin(), registers.end());
  out << "SASS (" << r.sass.front().arch << ") of " << r.sass.size() << " variants: registers min "
      << registers.front() << ", median " << registers[registers.size() / 2] << ", max " << registers.back() << "; "
      << spilling << " spill; " << shared << " use shared memory (max " << maxShared << " B); " << barriers
      << " use barriers; largest stack frame " << maxStack << " B\n";
  out << "dropped by their SASS figures: " << r.droppedSpills << " spilling, " << r.droppedOccupancy
      << " with fewer than " << requirements.minGroupsPerSm << " work-groups per SM\n";
  for (const std::string &rejection : r.rejections) out << "  " << rejection << "\n";
}

} // namespace

int runPrepareOnly(const CommandLine &cl, const Program &program, const Program &typed,
                   const std::map<std::string, int64_t> &sizes, const explore::ExploreOptions &options,
                   std::ostream &out) {
  if (parseTarget(cl) != codegen::Target::CUDA)
    throw UsageError("--prepare-only needs --target cuda (it prepares for a compile-only CUDA device)");
  for (const char *option : {"space", "t4", "shard"})
    if (cl.has(option))
      throw UsageError(std::string("--prepare-only measures and writes nothing: --") + option + " does not apply");
  explore::PrepareOnlyOptions prepare;
  if (auto threads = cl.value("prepare-threads"); threads && *threads != "auto")
    prepare.threads = parseCount("--prepare-threads", *threads, {1, 64});
  if (cl.value("budget")) prepare.budget = options.budget.maxTime;
  prepare.maxVariants = options.budget.maxEvaluations;
  prepare.seed = options.seed;
  prepare.space = options.space;
  prepare.sass = options.sass;
  tuner::CompileOnlyCudaDevice device;
  out << "prepare-only: " << options.programName << " at " << explore::sizesKey(program, sizes) << " on "
      << device.name() << "; nothing is run or written\n";
  explore::PrepareOnlyResult r = explore::prepareOnly(program, typed, sizes, device, prepare);
  out << std::fixed << std::setprecision(2);
  out << "space: " << r.spaceSize << " candidates, described in " << r.describeSeconds << " s\n";
  out << "prepared: " << r.prepared << " variants in " << r.prepareSeconds << " s on " << r.threads
      << " worker thread" << (r.threads == 1 ? "" : "s") << " (" << r.visited << " candidates visited in a random order: "
      << r.duplicates << " duplicate kernels, " << r.skipped << " without a kernel of their own)"
      << (r.cutByBudget ? "; stopped by --budget or --evals" : "; the whole space") << "\n";
  out << "  to time on a GPU: " << r.toTime << "; failed:";
  if (r.failed.empty()) out << " none";
  for (const auto &[outcome, count] : r.failed) out << " " << outcome << " " << count;
  out << "\n";
  printSass(r, options.sass, out);
  out << std::setprecision(3) << "rate: " << r.preparedPerSecond() << " variants/s, "
      << r.preparedPerSecondPerThread() << " per second per worker thread, " << r.preparedPerCpuSecond()
      << " per CPU second\n";
  // The projection assumes preparation bounds a GPU host (a verified,
  // timed evaluation takes the GPU tens of milliseconds, not measured here),
  // so an 8-minute run on 16 cores evaluates about what its workers prepare
  // in 8 minutes: 15 with --prepare-threads 15, 8 with auto
  // (kMaxPreparationThreads). The exploration's one-off costs (describing
  // the space, the full-size inputs and reference) come on top.
  const double all = double(kGpuHostCores - 1), capped = double(explore::kMaxPreparationThreads);
  const double perCpuSecond = r.preparedPerCpuSecond();
  out << std::setprecision(0) << "an 8-minute GPU run on " << kGpuHostCores << " cores would evaluate about "
      << perCpuSecond * kGpuRunSeconds * all << " variants with " << all << " preparing (--prepare-threads "
      << all << "), " << perCpuSecond * kGpuRunSeconds * capped << " with auto's " << capped
      << ", at this rate per CPU second (" << r.preparedPerSecondPerThread() * kGpuRunSeconds * all
      << " with " << all << " at the rate per worker thread measured here)\n";
  return 0;
}

} // namespace liftcc::cli
