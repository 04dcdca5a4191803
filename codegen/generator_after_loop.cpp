// A stage after the loop (core/ir/after_loop.h): the loop's kernels and the
// stage's, generated each as a program of its own, as one multi-kernel
// program. The loop's outputs become temporaries named as the stage reads
// the loop's result, and the stage's kernels come last, launched once after
// the loop (Kernel::Iteration::epilogueStages).

#include "codegen/generator.h"
#include "core/error.h"
#include "core/typecheck/typecheck.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace liftcc::codegen {

namespace {

/// The kernels a program launches in order (itself for a single kernel),
/// without source: the program's source holds them all.
std::vector<Kernel> launchedKernels(const Kernel &kernel) {
  std::vector<Kernel> stages = kernel.stages;
  if (stages.empty()) stages.push_back(kernel);
  for (Kernel &stage : stages) {
    stage.source.clear();
    stage.iteration.reset();
  }
  return stages;
}

/// `args` with every buffer named in `renamed` renamed.
void rename(std::vector<KernelArg> &args, const std::map<std::string, std::string> &renamed) {
  for (KernelArg &arg : args)
    if (auto to = renamed.find(arg.name); to != renamed.end() && arg.role != KernelArg::Role::Size)
      arg.name = to->second;
}

size_t argumentNamed(const std::vector<KernelArg> &args, const std::string &name, const std::string &kernel) {
  auto found = std::find_if(args.begin(), args.end(), [&](const KernelArg &a) { return a.name == name; });
  if (found == args.end()) throw InternalError("kernel " + kernel + " has no argument " + name);
  return static_cast<size_t>(found - args.begin());
}

} // namespace

Kernel generateAfterLoop(const AfterLoop &split, Target target, const CodegenOptions &options) {
  if (std::optional<std::string> read = stateInputReadAfterLoop(split.loop, split.after))
    throw CodegenError("/body", stateInputReadAfterLoopMessage(*read));
  std::vector<SourceParts> parts;
  CodegenOptions loopOptions = options;
  loopOptions.kernelName = options.kernelName + "_loop";
  const Kernel loop = generateCollectingParts(typeCheck(split.loop), target, loopOptions, parts, "loop_tmp");
  const Kernel after = generateCollectingParts(typeCheck(split.after), target, options, parts, "tmp");
  if (!loop.iteration || loop.iteration->epilogueStages > 0 || after.iteration)
    throw InternalError("kernel " + options.kernelName + ": the loop before the stage after it is not one loop");

  // The loop's outputs, one per component of its result, are the buffers
  // the stage reads the state from.
  std::map<std::string, std::string> renamed;
  Kernel result;
  result.target = target;
  result.name = options.kernelName;
  result.buildOptions = after.buildOptions;
  result.temporaries = loop.temporaries;
  for (const KernelArg &arg : loop.args) {
    if (arg.role != KernelArg::Role::Output) continue;
    const size_t c = renamed.size();
    if (c >= split.state.size()) throw InternalError("kernel " + loop.name + " has more outputs than its state");
    renamed[arg.name] = split.state[c].name();
    result.temporaries.push_back({split.state[c].name(), KernelArg::Role::Output, arg.kind, arg.count});
  }
  if (renamed.size() != split.state.size())
    throw InternalError("kernel " + loop.name + " has fewer outputs than its state");
  result.temporaries.insert(result.temporaries.end(), after.temporaries.begin(), after.temporaries.end());

  std::vector<Kernel> loopStages = launchedKernels(loop), afterStages = launchedKernels(after);
  for (Kernel &stage : loopStages) rename(stage.args, renamed);
  result.stages = loopStages;
  result.stages.insert(result.stages.end(), afterStages.begin(), afterStages.end());
  for (const Kernel &stage : result.stages) {
    result.localMemoryBytes = std::max(result.localMemoryBytes, stage.localMemoryBytes);
    result.indexBits = std::max(result.indexBits, stage.indexBits);
  }

  // The program's interface: the stage's, but for the state it reads.
  for (const KernelArg &arg : after.args)
    if (arg.role != KernelArg::Role::Input ||
        std::none_of(split.state.begin(), split.state.end(), [&](const Expr &s) { return s.name() == arg.name; }))
      result.args.push_back(arg);

  Kernel::Iteration iteration = *loop.iteration;
  for (size_t &arg : iteration.inputArgs) arg = argumentNamed(result.args, loop.args.at(arg).name, result.name);
  // The loop's launches cover its own stages only.
  if (iteration.phases.empty()) iteration.phases.push_back({iteration.count, loopStages.size(), iteration.carriedFrom});
  iteration.epilogueStages = afterStages.size();
  for (const Expr &s : split.state) iteration.stateBuffers.push_back(s.name());
  result.iteration = iteration;
  launchOfLastStage(result);
  result.source = assembleSource(Dialect(target), parts);
  return result;
}

} // namespace liftcc::codegen
