// liftc run: generate the kernel of a low-level program, run it on an OpenCL
// device or a CUDA GPU and (with --check) compare it with the reference
// interpreter.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/magnitudes.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "driver/input_checks.h"
#include "tools/liftc/device_selection.h"
#include "tools/liftc/program_loading.h"
#include "tools/liftc/resource_limits.h"
#include "tools/liftc/strategy_options.h"
#include "tools/liftc/verbs.h"
#include "tuner/global_load_count.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace liftcc::cli {

namespace {

/// --count-global-loads: the kernel generated again with a counter of its
/// global loads (codegen/global_load_counter.h), run once.
int printGlobalLoads(const CommandLine &cl, const Program &typed, const Program &lowered, codegen::Target target,
                     codegen::CodegenOptions options, const std::optional<std::array<size_t, 3>> &localSize,
                     const std::map<std::string, int64_t> &sizes, uint64_t seed, std::ostream &out) {
  options.countGlobalLoads = true;
  codegen::Kernel kernel = codegen::generateKernel(lowered, target, options);
  std::unique_ptr<tuner::Device> device = openDevice(cl, target);
  checkDeviceLimits(kernel, device->limits(), sizes);
  tuner::InputBytes inputs = randomInputBytes(typed, sizes, seed);
  std::unique_ptr<tuner::CompiledKernel> compiled = device->compile(kernel);
  tuner::GlobalLoadCount count =
      tuner::countGlobalLoads(*compiled, kernel, sizes, tuner::inputViews(inputs), localSize);
  out << "device: " << device->name() << "\n";
  out << std::fixed << std::setprecision(3) << "global loads: " << count.perOutput() << " per output (" << count.loads
      << " elements read for " << count.outputs << " outputs";
  if (count.launches != 1) out << ", " << count.launches << " launches";
  out << ")\n";
  return 0;
}

} // namespace

int runRun(const CommandLine &cl, std::ostream &out) {
  cl.onlyPositional("program file"); // a missing file is the first error
  if (cl.has("count-global-loads") && cl.has("check"))
    throw UsageError("--count-global-loads runs an instrumented kernel; it cannot take --check");
  // The numeric options are checked before the program is read.
  uint64_t seed = cl.value("seed") ? parseCount("--seed", *cl.value("seed"), kSeedRange) : 1;
  const int repetitions =
      static_cast<int>(cl.value("repeat") ? parseCount("--repeat", *cl.value("repeat"), kTimedRunsRange) : 5);
  const auto [program, sizes, typed] = loadTypedProgram(cl, {});
  if (cl.has("check")) checkInterpretable(typed, sizes);
  codegen::Target target = parseTarget(cl);
  codegen::CodegenOptions codegenOptions; // its fast-math choices: the tolerance of --check
  codegen::Kernel kernel;
  std::optional<std::array<size_t, 3>> localSize;
  std::optional<Program> lowered;
  if (std::optional<explore::Variant> variant = strategyVariant(cl, typed, target)) {
    kernel = variant->kernel;
    lowered = variant->lowered;
    codegenOptions = driver::codegenOptions(variant->configuration);
    localSize = driver::launchLocalSize(variant->configuration);
  } else {
    lowered = lowerWithRecipe(cl, typed);
    codegenOptions = parseCodegenOptions(cl);
    kernel = codegen::generateKernel(*lowered, target, codegenOptions);
    localSize = checkLocalOption(cl, kernel, /*forLaunch=*/true);
  }
  if (cl.has("count-global-loads"))
    return printGlobalLoads(cl, typed, *lowered, target, codegenOptions, localSize, sizes, seed, out);
  tuner::LaunchConfig config;
  config.localSize = localSize;
  config.downloadOutput = cl.has("check");
  config.warmups = 1;
  config.repetitions = repetitions;

  std::unique_ptr<tuner::Device> device = openDevice(cl, target);
  std::string deviceName = device->name();
  // Checked before launching: PoCL aborts the process on too much local memory.
  checkDeviceLimits(kernel, device->limits(), sizes);
  // Raw bytes, not interpreter values: those cost far more memory than the
  // buffers (at 50000^2 the process was OOM-killed building them).
  tuner::RawRun run = device->compile(kernel)->runBytes(sizes, randomInputBytes(typed, sizes, seed), config);

  double medianNs = run.medianNs;
  int64_t elements = scalarCount(typed.body().typeOrThrow(), sizes);
  out << "device: " << deviceName << "\n";
  if (driver::launchesNoKernel(typed, sizes))
    out << "kernel time: none (iterate runs 0 times: no kernel is launched and the result is the input)\n";
  else
    out << std::fixed << std::setprecision(3) << "kernel time: " << medianNs / 1e6 << " ms (median of "
        << run.timesNs.size() << "), " << std::setprecision(1) << elements / (medianNs * 1e-9) / 1e6
        << " M elements/s\n";
  if (cl.has("check")) {
    // The oracle is the program as given, before any recipe rewrote it.
    Reference expected = interpretReference(typed, sizes, randomInputs(typed, sizes, seed));
    Value actual = tuner::toKernelRun(std::move(run), typed.body().typeOrThrow(), sizes).output;
    // The comparison of explore and bench (relative to the magnitudes of the
    // terms), relaxed as far as the fast-math choice permits.
    if (auto mismatch = compareWithReference(
            expected, actual, codegen::fastMathTolerance(codegenOptions.fastMath, codegenOptions.divToMul)))
      throw std::runtime_error("check failed: " + *mismatch);
    out << "check: the kernel agrees with the interpreter\n";
  }
  return 0;
}

} // namespace liftcc::cli
