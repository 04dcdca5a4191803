// Programs split where they meet their loop (core/ir/loop_split.h): the
// loop's kernels and those of the stage after it, or of the computation of
// its initial state before it, generated each as a program of its own, as one
// multi-kernel program. The buffers between the two pieces (the loop's
// result, its initial state) become temporaries named as the reading piece
// reads them, and Kernel::Iteration says which kernels the host launches
// once after (epilogueStages) or before (prologueStages) the loop.

#include "codegen/generator.h"
#include "core/error.h"
#include "core/ir/iterated_state.h"
#include "core/typecheck/typecheck.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace liftcc::codegen {

namespace {

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

bool namedIn(const std::vector<Expr> &state, const std::string &name) {
  return std::any_of(state.begin(), state.end(), [&](const Expr &s) { return s.name() == name; });
}

/// The writer's outputs, one per component of `state`, renamed to the state's
/// names (as the reader reads them) in its launched kernels, and those
/// temporaries.
std::vector<KernelArg> passOutputs(const Kernel &writer, std::vector<Kernel> &stages, const std::vector<Expr> &state) {
  std::map<std::string, std::string> renamed;
  std::vector<KernelArg> temporaries;
  for (const KernelArg &arg : writer.args) {
    if (arg.role != KernelArg::Role::Output) continue;
    const size_t c = renamed.size();
    if (c >= state.size()) throw InternalError("kernel " + writer.name + " has more outputs than the loop's state");
    renamed[arg.name] = state[c].name();
    temporaries.push_back({state[c].name(), KernelArg::Role::Output, arg.kind, arg.count});
  }
  if (renamed.size() != state.size())
    throw InternalError("kernel " + writer.name + " has fewer outputs than the loop's state");
  for (Kernel &stage : stages) rename(stage.args, renamed);
  return temporaries;
}

/// The kernel of `first`'s and `second`'s launched kernels in order, with
/// their temporaries and `passed` between them, the interface `args`.
Kernel joined(const Kernel &first, const Kernel &second, const std::vector<Kernel> &firstStages,
              const std::vector<Kernel> &secondStages, const std::vector<KernelArg> &passed, const std::string &name) {
  Kernel result;
  result.target = second.target;
  result.name = name;
  result.buildOptions = second.buildOptions;
  result.temporaries = first.temporaries;
  result.temporaries.insert(result.temporaries.end(), passed.begin(), passed.end());
  result.temporaries.insert(result.temporaries.end(), second.temporaries.begin(), second.temporaries.end());
  result.stages = firstStages;
  result.stages.insert(result.stages.end(), secondStages.begin(), secondStages.end());
  for (const Kernel &stage : result.stages) {
    result.localMemoryBytes = std::max(result.localMemoryBytes, stage.localMemoryBytes);
    result.indexBits = std::max(result.indexBits, stage.indexBits);
  }
  return result;
}

/// `piece`'s interface without the inputs that stand for the state between
/// the two pieces (the other piece writes them to temporaries).
std::vector<KernelArg> interfaceBeside(const Kernel &piece, const std::vector<Expr> &state) {
  std::vector<KernelArg> args;
  for (const KernelArg &arg : piece.args)
    if (arg.role != KernelArg::Role::Input || !namedIn(state, arg.name)) args.push_back(arg);
  return args;
}

/// The loop's phases made explicit: they cover its own `looped` kernels only.
void explicitPhases(Kernel::Iteration &iteration, size_t looped) {
  if (iteration.phases.empty()) iteration.phases.push_back({iteration.count, looped, iteration.carriedFrom});
}

} // namespace

bool loopsOverComputedState(const Program &typedProgram) {
  return !chainLevels(typedProgram.body()).empty() && !chainedInputs(typedProgram);
}

Kernel generateAfterLoop(const AfterLoop &split, Target target, const CodegenOptions &options,
                         std::vector<SourceParts> *sourceParts) {
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
  std::vector<Kernel> loopStages = launchedKernels(loop), afterStages = launchedKernels(after);
  const std::vector<KernelArg> passed = passOutputs(loop, loopStages, split.state);
  Kernel result = joined(loop, after, loopStages, afterStages, passed, options.kernelName);
  result.args = interfaceBeside(after, split.state); // the stage's, but for the state it reads

  Kernel::Iteration iteration = *loop.iteration;
  for (size_t &arg : iteration.inputArgs) arg = argumentNamed(result.args, loop.args.at(arg).name, result.name);
  explicitPhases(iteration, loopStages.size() - iteration.prologueStages);
  iteration.epilogueStages = afterStages.size();
  for (const KernelArg &t : passed) iteration.stateBuffers.push_back(t.name);
  result.iteration = iteration;
  assembleProgram(result, target, parts, sourceParts);
  return result;
}

Kernel generateBeforeLoop(const BeforeLoop &split, Target target, const CodegenOptions &options,
                          std::vector<SourceParts> *sourceParts) {
  std::vector<SourceParts> parts;
  CodegenOptions startOptions = options;
  startOptions.kernelName = options.kernelName + "_start";
  const Kernel start = generateCollectingParts(typeCheck(split.before), target, startOptions, parts, "start_tmp");
  const Kernel loop = generateCollectingParts(typeCheck(split.loop), target, options, parts, "tmp");
  if (start.iteration || !loop.iteration || loop.iteration->prologueStages > 0 || loop.iteration->epilogueStages > 0)
    throw InternalError("kernel " + options.kernelName + ": the loop after its initial state is not one loop");

  // The outputs of the state's computation are the buffers the loop starts from.
  std::vector<Kernel> startStages = launchedKernels(start), loopStages = launchedKernels(loop);
  const std::vector<KernelArg> passed = passOutputs(start, startStages, split.state);
  Kernel result = joined(start, loop, startStages, loopStages, passed, options.kernelName);
  result.args = interfaceBeside(loop, split.state); // the loop's, but for the state it starts from

  Kernel::Iteration iteration = *loop.iteration;
  for (size_t arg : iteration.inputArgs) iteration.stateInputs.push_back(loop.args.at(arg).name);
  iteration.inputArgs.clear();
  explicitPhases(iteration, loopStages.size());
  iteration.prologueStages = startStages.size();
  result.iteration = iteration;
  assembleProgram(result, target, parts, sourceParts);
  return result;
}

} // namespace liftcc::codegen
