// Multi-kernel programs: every closed toGlobal (one that reads only program
// inputs, as rewrite/stages.cpp builds them) is a kernel of its own writing a
// global temporary; the rest of the program is the last kernel, reading the
// temporaries as inputs. A global barrier between the producer and its readers
// cannot be had inside one kernel, so the host launches them in order
// (Kernel::stages, tuner/launch_plan.h).

#include "codegen/generator.h"
#include "codegen/kernel_signature.h"
#include "core/ir/iterated_state.h"
#include "core/ir/nd_forms.h"
#include "core/ir/operands.h"
#include "core/ir/transform.h"
#include "core/typecheck/typecheck.h"

#include "core/interp/components.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace liftcc::codegen {

namespace {

[[noreturn]] void fail(const std::string &where, const std::string &message) { throw CodegenError(where, message); }

void collectFree(const Expr &e, std::vector<const void *> &bound, std::set<const void *> &free) {
  switch (e.kind()) {
  case ExprKind::Param:
    if (std::find(bound.begin(), bound.end(), e.id()) == bound.end()) free.insert(e.id());
    return;
  case ExprKind::Lambda: {
    for (const Expr &p : e.params()) bound.push_back(p.id());
    collectFree(e.body(), bound, free);
    bound.resize(bound.size() - e.params().size());
    return;
  }
  default:
    for (const Child &c : e.children()) collectFree(*c.expr, bound, free);
  }
}

/// Whether `e` reads no parameter but the program's inputs.
bool closed(const Expr &e, const Program &program) {
  std::vector<const void *> bound;
  std::set<const void *> free;
  collectFree(e, bound, free);
  for (const Expr &in : program.inputs()) free.erase(in.id());
  return free.empty();
}

/// The closed toGlobal nodes of `e`, each once, every one after those it reads.
void collectStages(const Expr &e, const Program &program, std::vector<Expr> &stages) {
  for (const Child &c : e.children()) collectStages(*c.expr, program, stages);
  if (!e.isPrim(Op::ToGlobal) || !closed(e, program)) return;
  if (std::none_of(stages.begin(), stages.end(), [&](const Expr &s) { return s == e; })) stages.push_back(e);
}

/// `e` with each of `stages` (the first `count`) replaced by its temporary.
Expr replaceStages(const Expr &e, const std::vector<Expr> &stages, const std::vector<Expr> &temporaries, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if (e.isPrim(Op::ToGlobal) && (e.sameNode(stages[i]) || e == stages[i])) return temporaries[i];
  if (e.is(ExprKind::Lambda)) {
    Expr body = replaceStages(e.body(), stages, temporaries, count);
    return body.sameNode(e.body()) ? e : Expr::lambda(e.params(), body);
  }
  std::vector<Child> children = e.children();
  std::vector<Expr> rebuilt;
  bool changed = false;
  for (const Child &c : children) {
    rebuilt.push_back(replaceStages(*c.expr, stages, temporaries, count));
    changed = changed || !rebuilt.back().sameNode(*c.expr);
  }
  return changed ? e.withChildren(std::move(rebuilt)) : e;
}

/// f(in) as one expression: f's body with its parameter replaced by `in`
/// (an input or temporary, a parameter itself), so that the stage's result is
/// computed by its body as a kernel's result is (an application is not).
Expr stageBody(const Expr &f, const Expr &in) {
  if (!f.is(ExprKind::Lambda) || f.params().size() != 1) return Expr::apply(f, {in});
  return withParamReplaced(f.body(), f.params().front(), in);
}

ScalarKind scalarElement(const Type &type, const std::string &what) {
  Type t = type;
  while (t.isArray()) t = t.arrayElement();
  if (!t.isScalar())
    fail("/body", what + " of type " + type.str() +
                      " is not an array of scalars: intermediate arrays of tuples are not supported yet");
  return t.scalarKind();
}

/// A stage's result as the stages after it see it. An array of scalars is
/// one global buffer, read as the parameter itself; an array of flat tuples
/// of scalars is stored as a structure of arrays (one buffer per component,
/// core/interp/components.h) and read as the zip of its components, a view.
struct Temporary {
  Expr read;                 ///< what readers read in place of the stage
  std::vector<Expr> buffers; ///< typed parameters, each an array of scalars
};

/// `fresh` gives an unused name for a buffer from a base name.
Temporary temporaryFor(const std::string &name, const Type &type,
                       const std::function<std::string(const std::string &)> &fresh) {
  if (!hasTuple(type)) {
    Expr buffer = Expr::param(fresh(name), type);
    return {buffer, {buffer}};
  }
  int dims = 0;
  Type element = type;
  for (; element.isArray(); element = element.arrayElement()) ++dims;
  bool flat = dims > 0 && element.isTuple() &&
              std::all_of(element.tupleElements().begin(), element.tupleElements().end(),
                          [](const Type &t) { return t.isScalar(); });
  if (!flat)
    fail("/body", "the intermediate array " + name + " of type " + type.str() +
                      " is not an array of scalars or of tuples of scalars: not supported yet");
  std::vector<Expr> buffers;
  std::vector<Type> parts = components(type);
  for (size_t k = 0; k < parts.size(); ++k)
    buffers.push_back(Expr::param(fresh(name + "_" + std::to_string(k)), parts[k]));
  return {nd::zipN(dims, buffers), buffers};
}

/// `kernel`, whose parameter list must be the one kernelSignature derives
/// from its metadata: readers of best-kernel directories check kernel files
/// against their launch.json with it.
Kernel checkedSignature(Kernel kernel) {
  if (kernel.source.find(" " + kernelSignature(kernel) + " {\n") == std::string::npos)
    throw InternalError("kernel " + kernel.name + ": its parameter list is not " + kernelSignature(kernel));
  return kernel;
}

/// The names a stage's kernel or buffer must not take: the kernel's, the
/// inputs', the sizes' and the user functions'.
std::set<std::string> namesTaken(const Program &typedProgram, const std::string &kernelName) {
  std::set<std::string> taken{kernelName};
  for (const Expr &in : typedProgram.inputs()) taken.insert(in.name());
  for (const arith::Expr &s : typedProgram.sizes) taken.insert(s.varName());
  containsNode(typedProgram.body(), [&](const Expr &e) {
    if (e.is(ExprKind::UserFun)) taken.insert(e.userFun().name());
    return false;
  });
  return taken;
}

struct StageNaming {
  Target target;
  const CodegenOptions &options;
  std::string kernelName;
};

/// The kernel computing `body` from the inputs and temporaries it reads,
/// without its source (`parts` receives it).
Kernel stageKernel(const Program &typedProgram, const Expr &body, const std::vector<Temporary> &temporaries,
                   const StageNaming &naming, SourceParts *parts) {
  std::vector<Expr> inputs;
  for (const Expr &in : typedProgram.inputs())
    if (readsParam(body, in)) inputs.push_back(in);
  for (const Temporary &t : temporaries)
    for (const Expr &buffer : t.buffers)
      if (readsParam(body, buffer)) inputs.push_back(buffer);
  // A kernel needs an input parameter; a stage computing from generate
  // alone gets the first input, unused.
  if (inputs.empty()) inputs.push_back(typedProgram.inputs().front());
  Program stage = typeCheck(Program{typedProgram.sizes, Expr::lambda(inputs, body)});
  CodegenOptions stageOptions = naming.options;
  stageOptions.kernelName = naming.kernelName;
  Kernel kernel = generateOneKernel(stage, naming.target, stageOptions, parts);
  kernel.source.clear();
  return kernel;
}

/// Names the buffers `kernel` writes `writes`, in order, and those it reads
/// that are outputs of the program by their output's name.
void nameStageBuffers(Kernel &kernel, const std::vector<std::string> &writes,
                      const std::map<std::string, std::string> &bufferName) {
  size_t written = 0;
  for (KernelArg &arg : kernel.args) {
    if (arg.role == KernelArg::Role::Output)
      arg.name = writes.at(written++);
    else if (auto it = bufferName.find(arg.name); it != bufferName.end())
      arg.name = it->second;
  }
  if (written != writes.size())
    throw InternalError("stage " + kernel.name + " writes " + std::to_string(written) + " buffers, expected " +
                        std::to_string(writes.size()));
}

/// When the result `last` is only a tuple or zip of stages' results of
/// arrays of scalars, one per output: which output each of those stages
/// writes (temporary -> output); nullopt when a last kernel computes the result.
std::optional<std::map<std::string, std::string>> outputsOfStages(const Program &typedProgram, const Expr &last,
                                                                  const Type &resultType,
                                                                  const std::vector<std::string> &outputs,
                                                                  const std::set<std::string> &passedOn) {
  std::vector<const Expr *> leaves;
  std::function<bool(const Expr &)> onlyStages = [&](const Expr &e) {
    if (e.isPrim(Op::Tuple) || e.isPrim(Op::Zip)) return std::all_of(e.args().begin(), e.args().end(), onlyStages);
    if (!e.is(ExprKind::Param)) return false;
    leaves.push_back(&e);
    return true;
  };
  if (!(hasTuple(resultType) && onlyStages(last) && leaves.size() == outputs.size())) return std::nullopt;
  std::map<std::string, std::string> bufferName;
  for (size_t k = 0; k < leaves.size(); ++k) {
    // An input as a component: its output is written by no stage. Only the
    // host loop of an iterated state may do that (it passes the buffer on).
    const std::vector<Expr> &inputs = typedProgram.inputs();
    if (std::any_of(inputs.begin(), inputs.end(), [&](const Expr &in) { return in.sameNode(*leaves[k]); })) {
      if (!passedOn.count(leaves[k]->name()))
        fail("/body", "component " + std::to_string(k) + " of the result is the input " + leaves[k]->name() +
                          " itself, which no kernel writes to an output: copy it with a map (lowering does)");
      continue;
    }
    if (hasTuple(leaves[k]->typeOrThrow()) || bufferName.count(leaves[k]->name()))
      fail("/body", "a result whose components are arrays of tuples or the same array twice is not supported yet");
    bufferName[leaves[k]->name()] = outputs[k];
  }
  return bufferName;
}

/// The argument of an intermediate buffer that a stage writes.
KernelArg temporaryArg(const Expr &buffer) {
  const Type &type = buffer.typeOrThrow();
  return {buffer.name(), KernelArg::Role::Output, scalarElement(type, "the intermediate array " + buffer.name()),
          elementCount(type)};
}

/// The program's interface (its inputs, outputs and sizes) and the launch of its last stage.
void setInterface(Kernel &result, const Program &typedProgram, const std::vector<std::string> &outputs,
                  const std::vector<Type> &outputTypes) {
  for (const Expr &in : typedProgram.inputs()) {
    const Type &type = in.typeOrThrow();
    result.args.push_back(
        {in.name(), KernelArg::Role::Input, scalarElement(type, "input " + in.name()), elementCount(type)});
  }
  for (size_t k = 0; k < outputs.size(); ++k)
    result.args.push_back({outputs[k], KernelArg::Role::Output,
                           scalarElement(outputTypes[k], "a component of the result"), elementCount(outputTypes[k])});
  for (const arith::Expr &s : typedProgram.sizes)
    result.args.push_back({s.varName(), KernelArg::Role::Size, ScalarKind::Int, arith::Expr(1)});

  launchOfLastStage(result);
}

} // namespace

void launchOfLastStage(Kernel &program) {
  const Kernel &lastStage = program.stages.back();
  program.dims = lastStage.dims;
  program.globalSize = lastStage.globalSize;
  program.localSize = lastStage.localSize;
  program.interior = lastStage.interior;
  program.requiresLocalSize = lastStage.requiresLocalSize;
}

bool hasStages(const Program &typedProgram) {
  return containsNode(typedProgram.body(),
                      [&](const Expr &e) { return e.isPrim(Op::ToGlobal) && closed(e, typedProgram); });
}

Kernel generateOneKernel(const Program &typedProgram, Target target, const CodegenOptions &options,
                         SourceParts *parts) {
  Generator generator(typedProgram, target, options);
  Kernel kernel = generator.run();
  if (parts) *parts = generator.sourceParts();
  return checkedSignature(std::move(kernel));
}

Kernel generateStages(const Program &typedProgram, Target target, const CodegenOptions &options,
                      std::vector<SourceParts> *sourceParts, const std::string &temporaryBase,
                      const std::set<std::string> &passedOn) {
  if (!typedProgram.body().type()) fail("", "the program is not type-checked");
  if (containsNode(typedProgram.body(), [](const Expr &e) { return e.isPrim(Op::Iterate); }))
    fail("/body", "iterate over a program of several kernels (an intermediate array in global memory) is not "
                  "supported yet");
  std::vector<Expr> stages;
  collectStages(typedProgram.body(), typedProgram, stages);

  // Names of the temporaries and of the stages' kernel functions: none may
  // be an input's, a size's or a user function's.
  std::set<std::string> taken = namesTaken(typedProgram, options.kernelName);
  auto fresh = [&](const std::string &base) {
    std::string name = base;
    for (int k = 0; !taken.insert(name).second; ++k) name = base + "_" + std::to_string(k);
    return name;
  };

  // Temporaries first: the stages read them by name.
  std::vector<Temporary> temporaries;
  std::vector<Expr> reads; // what replaces each stage in the stages after it
  for (size_t i = 0; i < stages.size(); ++i) {
    temporaries.push_back(temporaryFor(temporaryBase + std::to_string(i), stages[i].typeOrThrow(), fresh));
    reads.push_back(temporaries.back().read);
  }
  Expr last = replaceStages(typedProgram.body(), stages, reads, stages.size());

  // The program's outputs: one buffer per component of its result
  // (core/interp/components.h). A result that is only a tuple or zip of
  // stages' results (each output computed by its own kernel) needs no last
  // kernel: those stages write the outputs.
  const Type &resultType = typedProgram.body().typeOrThrow();
  std::vector<Type> outputTypes = components(resultType);
  std::vector<std::string> outputs;
  if (!hasTuple(resultType))
    outputs.push_back(fresh("out"));
  else
    for (size_t k = 0; k < outputTypes.size(); ++k) outputs.push_back(fresh("out_" + std::to_string(k)));
  std::optional<std::map<std::string, std::string>> direct =
      outputsOfStages(typedProgram, last, resultType, outputs, passedOn);
  const bool lastKernel = !direct;
  const std::map<std::string, std::string> bufferName = direct.value_or(std::map<std::string, std::string>{});

  Kernel result;
  result.target = target;
  result.name = options.kernelName;
  result.buildOptions = buildOptionsFor(options.fastMath, target);
  std::vector<SourceParts> parts;
  auto generateStage = [&](const Expr &body, const std::string &kernelName, const std::vector<std::string> &writes) {
    parts.emplace_back();
    Kernel kernel = stageKernel(typedProgram, body, temporaries, {target, options, kernelName}, &parts.back());
    nameStageBuffers(kernel, writes, bufferName);
    result.localMemoryBytes = std::max(result.localMemoryBytes, kernel.localMemoryBytes);
    result.indexBits = std::max(result.indexBits, kernel.indexBits);
    result.stages.push_back(std::move(kernel));
  };

  for (size_t i = 0; i < stages.size(); ++i) {
    const Expr &s = stages[i];
    const std::vector<Expr> &buffers = temporaries[i].buffers;
    Expr body = stageBody(replaceStages(funOf(s), stages, reads, i), replaceStages(inputOf(s), stages, reads, i));
    // A stage that is a component of the result writes that output buffer
    // (only arrays of scalars are: see bufferName above).
    auto output = buffers.size() == 1 ? bufferName.find(buffers.front().name()) : bufferName.end();
    std::vector<std::string> writes;
    for (const Expr &buffer : buffers) writes.push_back(buffer.name());
    if (output != bufferName.end()) writes = {output->second};
    // Without a last kernel, the last stage has the program's kernel name
    // (the entry point a runner looks up first).
    bool entry = !lastKernel && i + 1 == stages.size();
    generateStage(body, entry ? options.kernelName : fresh(options.kernelName + "_stage" + std::to_string(i)), writes);
    if (output != bufferName.end()) continue;
    for (const Expr &buffer : buffers) result.temporaries.push_back(temporaryArg(buffer));
  }
  if (lastKernel) generateStage(last, options.kernelName, outputs);

  setInterface(result, typedProgram, outputs, outputTypes);
  result.source = assembleSource(Dialect(target), parts);
  if (sourceParts) sourceParts->insert(sourceParts->end(), parts.begin(), parts.end());
  return result;
}

bool iteratesStages(const Program &typedProgram) {
  const Expr &body = typedProgram.body();
  if (!body.isPrim(Op::Iterate)) return false;
  const Expr &f = funOf(body);
  return f.is(ExprKind::Lambda) && f.params().size() == 1 &&
         containsNode(f.body(), [](const Expr &e) { return e.isPrim(Op::ToGlobal); });
}

Kernel generateIteratedStages(const Program &typedProgram, Target target, const CodegenOptions &options,
                              std::vector<SourceParts> *sourceParts, const std::string &temporaryBase) {
  const Expr &body = typedProgram.body();
  const Expr &over = typedProgram.inputs()[iteratedInput(typedProgram)];
  // One step reads the state from A's buffer, as the single-kernel host loop
  // does: the step is B with x replaced by A, a program of several kernels
  // over the inputs.
  Program step =
      typeCheck(Program{typedProgram.sizes, Expr::lambda(typedProgram.inputs(), stageBody(funOf(body), over))});
  Kernel kernel = generateStages(step, target, options, sourceParts, temporaryBase);
  size_t outputs = 0;
  std::optional<size_t> input;
  for (size_t i = 0; i < kernel.args.size(); ++i) {
    outputs += kernel.args[i].role == KernelArg::Role::Output;
    if (kernel.args[i].role == KernelArg::Role::Input && kernel.args[i].name == over.name()) input = i;
  }
  if (!input || outputs != 1)
    throw InternalError("the iterated step over " + over.name() + " has " + std::to_string(outputs) + " outputs and " +
                        (input ? "" : "no ") + "input " + over.name());
  kernel.iteration = Kernel::Iteration{iterateCount(body), {*input}, {}, {}};
  return kernel;
}

Kernel generateIteratedTuple(const Program &typedProgram, Target target, const CodegenOptions &options,
                             std::vector<SourceParts> *sourceParts, const std::string &temporaryBase) {
  const std::vector<Expr> state = *iteratedInputs(typedProgram);
  // One step over the inputs themselves: its result is the new state, a
  // tuple of arrays, each component written to an output of its own, but
  // for the components carried over from another (their outputs are never
  // written: the host passes the buffers on).
  const Expr stepBody = stepOverState(typedProgram);
  const std::vector<std::optional<size_t>> carried = carriedComponents(stepBody, state);
  std::set<std::string> passedOn;
  for (const std::optional<size_t> &from : carried)
    if (from) passedOn.insert(state[*from].name());
  Program step = typeCheck(Program{typedProgram.sizes, Expr::lambda(typedProgram.inputs(), stepBody)});
  // A tuple result is a kernel per computed component: stages.
  // The recipes make each computed component a kernel of its own (toGlobal);
  // a step without is a program given to the code generator unlowered.
  if (!hasStages(step))
    fail("/body/f", "the program is not lowered: each computed component of an iterate over a tuple must become a "
                    "kernel of its own (liftc compile --opt plain, tiled or local lowers it)");
  Kernel kernel = generateStages(step, target, options, sourceParts, temporaryBase, passedOn);
  std::vector<size_t> outputs;
  for (size_t i = 0; i < kernel.args.size(); ++i)
    if (kernel.args[i].role == KernelArg::Role::Output) outputs.push_back(i);
  if (outputs.size() != state.size())
    throw InternalError("the iterated step over a tuple of " + std::to_string(state.size()) + " arrays has " +
                        std::to_string(outputs.size()) + " outputs");
  std::vector<size_t> inputArgs;
  for (size_t c = 0; c < state.size(); ++c) {
    auto in = std::find_if(kernel.args.begin(), kernel.args.end(), [&](const KernelArg &a) {
      return a.role == KernelArg::Role::Input && a.name == state[c].name();
    });
    const KernelArg &out = kernel.args[outputs[c]];
    if (in == kernel.args.end() || in->kind != out.kind || !(in->count == out.count))
      throw InternalError("component " + std::to_string(c) + " of the iterated state, input " + state[c].name() +
                          ", is not an argument of the type and length of output " + out.name);
    inputArgs.push_back(static_cast<size_t>(in - kernel.args.begin()));
  }
  kernel.iteration = Kernel::Iteration{iterateCount(typedProgram.body()), inputArgs, {}, carried};
  return kernel;
}

} // namespace liftcc::codegen
