// liftc run: generate the kernel of a low-level program, run it on an OpenCL
// device or a CUDA GPU and (with --check) compare it with the reference
// interpreter.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "tools/liftc/program_loading.h"
#include "tools/liftc/verbs.h"
#include "tools/liftc/device_selection.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace liftcc::cli {

int runRun(const CommandLine &cl, std::ostream &out) {
  Program program = loadProgram(cl.onlyPositional("program file"));
  std::map<std::string, int64_t> sizes = sizeBindings(cl);
  checkSizeBindings(program, sizes);
  Program typed = typeCheck(program, sizes);
  Program lowered = lowerWithRecipe(cl, typed);
  codegen::Target target = parseTarget(cl);
  codegen::Kernel kernel = codegen::generateKernel(lowered, target, parseCodegenOptions(cl));
  uint64_t seed = cl.value("seed") ? parseUnsigned("seed", *cl.value("seed")) : 1;
  std::vector<Value> inputs = randomInputs(typed, sizes, seed);
  tuner::LaunchConfig config;
  config.warmups = 1;
  config.repetitions = static_cast<int>(std::clamp<uint64_t>(cl.value("repeat") ? parseUnsigned("repeat", *cl.value("repeat")) : 5, 1, 1000));

  std::unique_ptr<tuner::Device> device = openDevice(cl, target);
  std::string deviceName = device->name();
  tuner::KernelRun run = device->compile(kernel)->run(sizes, inputs, typed.body().typeOrThrow(), config);

  double medianNs = run.medianNs;
  int64_t elements = scalarCount(typed.body().typeOrThrow(), sizes);
  out << "device: " << deviceName << "\n";
  out << std::fixed << std::setprecision(3) << "kernel time: " << medianNs / 1e6 << " ms (median of " << run.timesNs.size()
      << "), " << std::setprecision(1) << elements / (medianNs * 1e-9) / 1e6 << " M elements/s\n";
  if (cl.has("check")) {
    // The oracle is the program as given, before any recipe rewrote it.
    Value expected = interpret(typed, sizes, inputs);
    if (auto mismatch = compareValues(expected, run.output)) throw std::runtime_error("check failed: " + *mismatch);
    out << "check: the kernel agrees with the interpreter\n";
  }
  return 0;
}

} // namespace liftcc::cli
