// liftc run: generate the kernel of a low-level program, run it on an OpenCL
// device or a CUDA GPU and (with --check) compare it with the reference
// interpreter.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/magnitudes.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "tools/liftc/device_selection.h"
#include "tools/liftc/program_loading.h"
#include "tools/liftc/resource_limits.h"
#include "tools/liftc/strategy_options.h"
#include "tools/liftc/verbs.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace liftcc::cli {

int runRun(const CommandLine &cl, std::ostream &out) {
  cl.onlyPositional("program file"); // a missing file is the first error
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
  if (std::optional<explore::Variant> variant = strategyVariant(cl, typed, target)) {
    kernel = variant->kernel;
    codegenOptions = driver::codegenOptions(variant->configuration);
    localSize = driver::launchLocalSize(variant->configuration);
  } else {
    Program lowered = lowerWithRecipe(cl, typed);
    codegenOptions = parseCodegenOptions(cl);
    kernel = codegen::generateKernel(lowered, target, codegenOptions);
    localSize = checkLocalOption(cl, kernel, /*forLaunch=*/true);
  }
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
  out << std::fixed << std::setprecision(3) << "kernel time: " << medianNs / 1e6 << " ms (median of "
      << run.timesNs.size() << "), " << std::setprecision(1) << elements / (medianNs * 1e-9) / 1e6 << " M elements/s\n";
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
