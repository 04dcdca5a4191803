// Iterated programs launched in phases: a chain of iterates, each over the
// last, iterate(m, g, iterate(n, f, A)). A time tile of depth t fuses t steps
// into one launch; when t does not divide the iteration count n, the lowered
// program is iterate(1, f^r, iterate(q, f^t, A)) with n = q t + r
// (rewrite::lowerIterate): q launches of the tile, then one of the r steps
// left. A stage before or after a loop is a level of one launch
// (rewrite/iterate_chain.h). Each phase is generated as the iterate over A it
// would be alone, and the host launches each phase's kernels its count of
// times in turn, the buffers of A and the output exchanging after every
// launch as in one loop (Kernel::Iteration::phases).

#include "codegen/generator.h"
#include "core/error.h"
#include "core/ir/iterated_state.h"
#include "core/ir/operands.h"
#include "core/typecheck/typecheck.h"

#include <algorithm>
#include <string>
#include <vector>

namespace liftcc::codegen {

namespace {

bool sameInterface(const std::vector<KernelArg> &a, const std::vector<KernelArg> &b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const KernelArg &x, const KernelArg &y) {
    return x.name == y.name && x.role == y.role && x.kind == y.kind && x.count == y.count;
  });
}

} // namespace

bool iteratesInPhases(const Program &typedProgram) {
  const Expr &body = typedProgram.body();
  if (!body.isPrim(Op::Iterate) || !inputOf(body).isPrim(Op::Iterate)) return false;
  // The innermost loop iterates over an input, or a tuple of distinct inputs.
  return chainedInputs(typedProgram).has_value();
}

std::vector<Kernel> launchedKernels(const Kernel &kernel) {
  std::vector<Kernel> stages = kernel.stages;
  if (stages.empty()) stages.push_back(kernel);
  for (Kernel &stage : stages) {
    stage.source.clear();
    stage.iteration.reset();
  }
  return stages;
}

void assembleProgram(Kernel &program, Target target, const std::vector<SourceParts> &parts,
                     std::vector<SourceParts> *sourceParts) {
  launchOfLastStage(program);
  program.source = assembleSource(Dialect(target), parts);
  if (sourceParts) sourceParts->insert(sourceParts->end(), parts.begin(), parts.end());
}

Kernel generateCollectingParts(const Program &typedProgram, Target target, const CodegenOptions &options,
                               std::vector<SourceParts> &parts, const std::string &temporaryBase) {
  if (std::optional<AfterLoop> split = splitAfterLoop(typedProgram))
    return generateAfterLoop(*split, target, options, &parts);
  if (loopsOverComputedState(typedProgram))
    if (std::optional<BeforeLoop> split = splitBeforeLoop(typedProgram))
      return generateBeforeLoop(*split, target, options, &parts);
  if (iteratesTuple(typedProgram)) return generateIteratedTuple(typedProgram, target, options, &parts, temporaryBase);
  if (iteratesInPhases(typedProgram)) return generatePhases(typedProgram, target, options, &parts, temporaryBase + "_");
  if (hasStages(typedProgram)) return generateStages(typedProgram, target, options, &parts, temporaryBase);
  if (iteratesStages(typedProgram)) return generateIteratedStages(typedProgram, target, options, &parts, temporaryBase);
  parts.emplace_back();
  return generateOneKernel(typedProgram, target, options, &parts.back());
}

Kernel generatePhases(const Program &typedProgram, Target target, const CodegenOptions &options,
                      std::vector<SourceParts> *sourceParts, const std::string &temporaryPrefix) {
  // Each level of the chain alone, innermost first: its iterate over the
  // state's inputs instead of over the levels before it.
  const std::vector<Expr> levels = chainLevels(typedProgram.body());
  const Expr &start = inputOf(levels.front());
  std::vector<Expr> loops{levels.front()};
  for (size_t p = 1; p < levels.size(); ++p) {
    std::vector<Expr> children;
    for (const Child &c : levels[p].children()) children.push_back(c.expr->sameNode(levels[p - 1]) ? start : *c.expr);
    loops.push_back(levels[p].withChildren(std::move(children)));
  }

  Kernel result;
  result.target = target;
  result.name = options.kernelName;
  result.buildOptions = buildOptionsFor(options.fastMath, target);
  std::vector<SourceParts> parts;
  Kernel::Iteration iteration;
  arith::Expr total(0);
  for (size_t p = 0; p < loops.size(); ++p) {
    // The last phase's last kernel has the program's name (the entry point a
    // runner looks up first), as a program of one phase would.
    const bool last = p + 1 == loops.size();
    CodegenOptions phaseOptions = options;
    if (!last) phaseOptions.kernelName = options.kernelName + "_phase" + std::to_string(p);
    Program phase = typeCheck(Program{typedProgram.sizes, Expr::lambda(typedProgram.inputs(), loops[p])});
    Kernel kernel = generateCollectingParts(phase, target, phaseOptions, parts,
                                            temporaryPrefix + (last ? "tmp" : "phase" + std::to_string(p) + "_tmp"));
    if (!kernel.iteration || kernel.iteration->inputArgs.empty())
      throw InternalError("phase " + std::to_string(p) + " of " + options.kernelName +
                          " is not an iterate over inputs");
    if (p == 0) {
      result.args = kernel.args;
      iteration.inputArgs = kernel.iteration->inputArgs;
    } else if (!sameInterface(result.args, kernel.args) || iteration.inputArgs != kernel.iteration->inputArgs) {
      throw InternalError("the phases of " + options.kernelName + " have different parameters");
    }
    std::vector<Kernel> stages = launchedKernels(kernel);
    for (const Kernel &stage : stages) {
      result.localMemoryBytes = std::max(result.localMemoryBytes, stage.localMemoryBytes);
      result.indexBits = std::max(result.indexBits, stage.indexBits);
    }
    iteration.phases.push_back({kernel.iteration->count, stages.size(), kernel.iteration->carriedFrom});
    total = total + kernel.iteration->count;
    result.stages.insert(result.stages.end(), stages.begin(), stages.end());
    result.temporaries.insert(result.temporaries.end(), kernel.temporaries.begin(), kernel.temporaries.end());
  }
  iteration.count = total;
  result.iteration = iteration;
  assembleProgram(result, target, parts, sourceParts);
  return result;
}

} // namespace liftcc::codegen
