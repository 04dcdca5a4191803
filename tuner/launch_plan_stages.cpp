// The launch plan of a multi-kernel program (codegen::Kernel::stages): the
// program's buffers plus its global temporaries, and one launch per stage.

#include "core/error.h"
#include "tuner/launch.h"
#include "tuner/launch_plan.h"

#include <map>
#include <set>
#include <stdexcept>

namespace liftcc::tuner {

namespace {

/// The host loop of an iterated multi-kernel program: its state's buffers
/// and phases, by the names of the program's buffers.
LaunchPlan::Iteration planIteration(const codegen::Kernel &kernel, const std::map<std::string, int64_t> &sizes,
                                    const std::map<std::string, size_t> &bufferOf) {
  LaunchPlan::Iteration iteration{{}, arith::evaluate(kernel.iteration->count, sizes), {}, {}};
  auto buffer = [&](const std::string &name, const std::string &what) {
    auto found = bufferOf.find(name);
    if (found == bufferOf.end())
      throw InternalError("kernel " + kernel.name + " " + what + " an unknown buffer " + name);
    return found->second;
  };
  for (size_t arg : kernel.iteration->inputArgs)
    iteration.inputBuffers.push_back(buffer(kernel.args.at(arg).name, "iterates"));
  for (const std::string &name : kernel.iteration->stateInputs)
    iteration.inputBuffers.push_back(buffer(name, "starts its state from"));
  iteration.prologueStages = kernel.iteration->prologueStages;
  size_t first = iteration.prologueStages;
  for (const codegen::Kernel::Iteration::Phase &phase : kernel.iteration->phases) {
    iteration.phases.push_back({arith::evaluate(phase.count, sizes), first, first + phase.stages, phase.carriedFrom});
    first += phase.stages;
  }
  const size_t looped = kernel.stages.size() - std::min(kernel.stages.size(), kernel.iteration->epilogueStages);
  if (first != iteration.prologueStages && first != looped)
    throw InternalError("the phases of kernel " + kernel.name + " have " + std::to_string(first) + " stages, not " +
                        std::to_string(looped));
  iteration.carriedFrom = kernel.iteration->carriedFrom;
  iteration.epilogueStages = kernel.iteration->epilogueStages;
  for (const std::string &name : kernel.iteration->stateBuffers)
    iteration.stateOutputs.push_back(buffer(name, "writes its state to"));
  return iteration;
}

} // namespace

LaunchPlan planStages(const codegen::Kernel &kernel, const std::map<std::string, int64_t> &sizes,
                      const std::optional<std::array<size_t, 3>> &requestedLocal,
                      const std::optional<std::array<size_t, 3>> &defaultLocal) {
  // An iterated program's input is written too: every other step's kernels
  // read the output buffer and write the input's (LaunchPlan::buffersOfStageLaunch).
  std::set<std::string> iterated;
  if (kernel.iteration)
    for (size_t arg : kernel.iteration->inputArgs) iterated.insert(kernel.args.at(arg).name);
  LaunchPlan plan;
  plan.kernelName = kernel.name;
  std::map<std::string, size_t> bufferOf;
  std::optional<size_t> output;
  size_t inputs = 0;
  for (const codegen::KernelArg &arg : kernel.args) {
    if (arg.role == codegen::KernelArg::Role::Size) continue;
    bool input = arg.role == codegen::KernelArg::Role::Input;
    // An output may be read by a later stage too (never write-only).
    plan.buffers.push_back({arg.name, bufferBytes(arg, sizes), input ? std::optional<size_t>(inputs++) : std::nullopt,
                            input && !iterated.count(arg.name), false});
    bufferOf[arg.name] = plan.buffers.size() - 1;
    if (input) continue;
    if (!output) output = plan.buffers.size() - 1;
    plan.outputBuffers.push_back(plan.buffers.size() - 1);
  }
  if (!output) throw InternalError("kernel " + kernel.name + " has no output");
  plan.outputBuffer = *output;
  // Written by one stage, read by later ones.
  for (const codegen::KernelArg &t : kernel.temporaries) {
    plan.buffers.push_back({t.name, bufferBytes(t, sizes), std::nullopt, false, false});
    bufferOf[t.name] = plan.buffers.size() - 1;
  }

  for (const codegen::Kernel &stage : kernel.stages) {
    // Each stage's NDRange, work-group size and int parameters as for a
    // kernel of its own; its buffers are the program's, found by name. A
    // stage generated for its own work-group size (mapWrg: one group per
    // element) keeps it; the requested size is for the others (a recipe's
    // fallback can leave a mapWrg stage before a mapGlb last one).
    bool ownSize = stage.localSize && !stage.requiresLocalSize;
    LaunchPlan own = planLaunch(stage, sizes, ownSize ? std::nullopt : requestedLocal, defaultLocal);
    LaunchPlan::Stage launch{stage.name, own.dims, {}, own.global, own.local};
    for (const PlanParam &p : own.params) {
      const auto *b = std::get_if<BufferParam>(&p);
      if (!b) {
        launch.params.push_back(p);
        continue;
      }
      auto it = bufferOf.find(own.buffers[b->buffer].name);
      if (it == bufferOf.end())
        throw InternalError("stage " + stage.name + " of kernel " + kernel.name + " reads an unknown buffer " +
                            own.buffers[b->buffer].name);
      launch.params.push_back(BufferParam{it->second});
    }
    plan.stages.push_back(std::move(launch));
  }
  if (kernel.iteration) plan.iteration = planIteration(kernel, sizes, bufferOf);
  const LaunchPlan::Stage &last = plan.stages.back();
  plan.dims = last.dims;
  plan.params = last.params;
  plan.global = last.global;
  plan.local = last.local;
  return plan;
}

} // namespace liftcc::tuner
