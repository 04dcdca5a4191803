#include "tuner/global_load_count.h"

#include "core/arith/expr.h"

#include <cstring>
#include <span>
#include <stdexcept>

namespace liftcc::tuner {

GlobalLoadCount countGlobalLoads(CompiledKernel &compiled, const codegen::Kernel &kernel,
                                 const std::map<std::string, int64_t> &sizes, const InputViews &inputs,
                                 const std::optional<std::array<size_t, 3>> &localSize) {
  if (!kernel.countsGlobalLoads)
    throw std::invalid_argument("kernel " + kernel.name +
                                " does not count its global loads (generate it with countGlobalLoads)");
  // The counter starts at zero: it is the input after the kernel's own (planLaunch).
  const uint32_t zero = 0;
  InputViews withCounter = inputs;
  withCounter.push_back(std::as_bytes(std::span<const uint32_t>(&zero, 1)));
  LaunchConfig config;
  config.localSize = localSize;
  config.warmups = 0;
  config.repetitions = 1;
  config.poisonOutput = false; // the counter is downloaded as an output
  RawRun run = compiled.runViews(sizes, withCounter, config);
  if (run.output.size() < sizeof(uint32_t))
    throw std::invalid_argument("kernel " + kernel.name + ": no counter read back");
  uint32_t loads = 0;
  std::memcpy(&loads, run.output.data() + run.output.size() - sizeof(uint32_t), sizeof(uint32_t));

  GlobalLoadCount count;
  count.loads = loads;
  for (const codegen::KernelArg &arg : kernel.args)
    if (arg.role == codegen::KernelArg::Role::Output) {
      count.outputs = static_cast<uint64_t>(arith::evaluate(arg.count, sizes));
      break;
    }
  if (kernel.iteration) count.launches = arith::evaluate(kernel.iteration->count, sizes);
  return count;
}

} // namespace liftcc::tuner
