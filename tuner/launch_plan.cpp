#include "tuner/launch_plan.h"

#include "codegen/global_load_counter.h"
#include "core/error.h"
#include "tuner/launch.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace liftcc::tuner {

std::vector<std::optional<size_t>> LaunchPlan::buffersOfLaunch(int64_t k) const { return swappedBuffers(params, k); }

std::vector<std::optional<size_t>> LaunchPlan::buffersOfStageLaunch(size_t stage, int64_t k) const {
  return swappedBuffers(stages.at(stage).params, k);
}

std::vector<size_t> LaunchPlan::outputs() const {
  return outputBuffers.empty() ? std::vector<size_t>{outputBuffer} : outputBuffers;
}

std::vector<size_t> LaunchPlan::stateWritten() const {
  return iteration && !iteration->stateOutputs.empty() ? iteration->stateOutputs : outputs();
}

LaunchPlan::Rotation LaunchPlan::rotationOf(std::vector<size_t> state,
                                            const std::vector<std::optional<size_t>> &carried) const {
  const std::vector<size_t> written = stateWritten();
  const size_t components = iteration->inputBuffers.size();
  // The targets: buffers of the state's inputs and outputs that hold no
  // component of the state and no other target.
  std::vector<size_t> pool = iteration->inputBuffers, busy = state;
  pool.insert(pool.end(), written.begin(), written.begin() + static_cast<std::ptrdiff_t>(components));
  Rotation rotation{std::move(state), {}};
  for (size_t c = 0; c < components; ++c) {
    if (!carried.empty() && carried[c]) {
      rotation.target.push_back(written[c]);
      continue;
    }
    std::vector<size_t> candidates{written[c]};
    candidates.insert(candidates.end(), pool.begin(), pool.end());
    auto free = std::find_if(candidates.begin(), candidates.end(), [&](size_t b) {
      return buffers[b].bytes == buffers[written[c]].bytes && std::find(busy.begin(), busy.end(), b) == busy.end();
    });
    if (free == candidates.end())
      throw InternalError("kernel " + kernelName + ": no free buffer for component " + std::to_string(c) +
                          " of the iterated state");
    rotation.target.push_back(*free);
    busy.push_back(*free);
  }
  return rotation;
}

std::vector<size_t> LaunchPlan::advanced(std::vector<size_t> state, const std::vector<std::optional<size_t>> &carried,
                                         int64_t steps) const {
  // The rotation depends only on the state's buffers, so it repeats with a
  // short period: follow it until `steps` launches or the first repeat.
  std::vector<std::vector<size_t>> seen{state};
  for (int64_t launch = 0; launch < steps; ++launch) {
    const Rotation now = rotationOf(seen.back(), carried);
    std::vector<size_t> next;
    for (size_t c = 0; c < now.state.size(); ++c)
      next.push_back(!carried.empty() && carried[c] ? now.state[*carried[c]] : now.target[c]);
    auto repeat = std::find(seen.begin(), seen.end(), next);
    if (repeat != seen.end()) {
      const int64_t first = repeat - seen.begin(), period = static_cast<int64_t>(seen.size()) - first;
      return seen[static_cast<size_t>(first + (steps - first) % period)];
    }
    seen.push_back(std::move(next));
  }
  return seen.back();
}

std::vector<size_t> LaunchPlan::stateBeforeLaunch(int64_t k) const {
  // Phase by phase (the one loop is one phase), each with its own carried components.
  std::vector<size_t> state = iteration->inputBuffers;
  for (size_t p = 0; p < std::max<size_t>(1, iteration->phases.size()) && k > 0; ++p) {
    const bool one = iteration->phases.empty(), last = one || p + 1 == iteration->phases.size();
    // The last phase (the one loop) goes on past the count as it would.
    const int64_t steps = last ? k : std::min(k, iteration->phases[p].count);
    state = advanced(std::move(state), one ? iteration->carriedFrom : iteration->phases[p].carriedFrom, steps);
    k -= steps;
  }
  return state;
}

const std::vector<std::optional<size_t>> &LaunchPlan::carriedOfLaunch(int64_t k) const {
  for (const Iteration::Phase &phase : iteration->phases) {
    if (k < phase.count) return phase.carriedFrom;
    k -= phase.count;
  }
  return iteration->phases.empty() ? iteration->carriedFrom : iteration->phases.back().carriedFrom;
}

LaunchPlan::Rotation LaunchPlan::rotationOfLaunch(int64_t k) const {
  if (!iteration || !iteration->carries())
    throw InternalError("kernel " + kernelName + " carries no component of an iterated state");
  return rotationOf(stateBeforeLaunch(k), carriedOfLaunch(k));
}

std::vector<std::optional<size_t>> LaunchPlan::swappedBuffers(const std::vector<PlanParam> &params, int64_t k) const {
  std::vector<std::optional<size_t>> out;
  out.reserve(params.size());
  const std::vector<size_t> written = stateWritten();
  if (iteration && iteration->carries()) {
    // A state with carried components rotates through its buffers.
    const Rotation rotation = rotationOfLaunch(k);
    for (const PlanParam &p : params) {
      const auto *b = std::get_if<BufferParam>(&p);
      std::optional<size_t> buffer = b ? std::optional<size_t>(b->buffer) : std::nullopt;
      for (size_t c = 0; b && c < rotation.state.size(); ++c) {
        if (b->buffer == iteration->inputBuffers[c]) buffer = rotation.state[c];
        if (b->buffer == written.at(c)) buffer = rotation.target[c];
      }
      out.push_back(buffer);
    }
    return out;
  }
  // Odd launches of an iterated kernel read what the even ones wrote.
  bool swapped = iteration && k % 2 == 1;
  for (const PlanParam &p : params) {
    const auto *b = std::get_if<BufferParam>(&p);
    if (!b) {
      out.push_back(std::nullopt);
      continue;
    }
    size_t buffer = b->buffer;
    for (size_t c = 0; swapped && c < iteration->inputBuffers.size(); ++c) {
      if (b->buffer == iteration->inputBuffers[c]) buffer = written.at(c);
      if (b->buffer == written.at(c)) buffer = iteration->inputBuffers[c];
    }
    out.push_back(buffer);
  }
  return out;
}

std::pair<size_t, size_t> LaunchPlan::stagesOfLaunch(int64_t k) const {
  if (iteration)
    for (const Iteration::Phase &phase : iteration->phases) {
      if (k < phase.count) return {phase.firstStage, phase.endStage};
      k -= phase.count;
    }
  return {firstLoopStage(), firstEpilogueStage()};
}

size_t LaunchPlan::resultBuffer() const { return resultBuffers().front(); }

std::vector<size_t> LaunchPlan::loopResult() const {
  // With carried components, the state after the last launch; else after an
  // odd number of launches the written buffers hold the last result, after
  // an even number (zero included) the iterated inputs' buffers do.
  if (iteration->carries()) return stateBeforeLaunch(iteration->count);
  if (iteration->count % 2 == 0) return iteration->inputBuffers;
  std::vector<size_t> written = stateWritten();
  written.resize(iteration->inputBuffers.size());
  return written;
}

std::vector<size_t> LaunchPlan::resultBuffers() const {
  // Outputs after the state's components (a global-load counter) are never
  // swapped; a stage after the loop writes the outputs themselves.
  std::vector<size_t> result = outputs();
  if (!iteration || iteration->epilogueStages > 0) return result;
  const std::vector<size_t> state = loopResult();
  std::copy(state.begin(), state.begin() + static_cast<std::ptrdiff_t>(std::min(state.size(), result.size())),
            result.begin());
  return result;
}

std::vector<std::optional<size_t>> LaunchPlan::buffersOfEpilogueStage(size_t stage) const {
  const std::vector<size_t> state = loopResult(), written = stateWritten();
  std::vector<std::optional<size_t>> out;
  for (const PlanParam &p : stages.at(stage).params) {
    const auto *b = std::get_if<BufferParam>(&p);
    std::optional<size_t> buffer = b ? std::optional<size_t>(b->buffer) : std::nullopt;
    for (size_t c = 0; b && c < state.size(); ++c)
      if (b->buffer == written.at(c)) buffer = state[c];
    out.push_back(buffer);
  }
  return out;
}

std::array<size_t, 3> defaultCudaBlock(int dims) {
  return {dims == 1 ? size_t{256} : size_t{32}, dims >= 2 ? size_t{8} : size_t{1}, 1};
}

namespace {
/// A mapWrg kernel has no guard on its group ids (codegen/generator_loops.cpp):
/// it must run with exactly one work-group per element, which its global size
/// provides only with the work-group size it was generated for.
void requireOwnWorkGroupSize(const codegen::Kernel &kernel, const std::array<size_t, 3> &requested) {
  const std::array<int64_t, 3> &own = *kernel.localSize;
  auto shape = [&](auto sizes) {
    std::string text;
    for (int d = 0; d < std::max(1, kernel.dims); ++d) text += (d ? "x" : "") + std::to_string(sizes[d]);
    return text;
  };
  for (int d = 0; d < std::max(1, kernel.dims); ++d)
    if (requested[d] != static_cast<size_t>(own[d]))
      throw std::invalid_argument("kernel " + kernel.name + " was generated for work-groups of " + shape(own) +
                                  " (one per element of its mapWrg), not " + shape(requested) +
                                  ": generate it with that work-group size instead");
}
} // namespace

LaunchPlan planLaunch(const codegen::Kernel &kernel, const std::map<std::string, int64_t> &sizes,
                      const std::optional<std::array<size_t, 3>> &requestedLocal,
                      const std::optional<std::array<size_t, 3>> &defaultLocal) {
  if (!kernel.stages.empty()) return planStages(kernel, sizes, requestedLocal, defaultLocal);
  LaunchPlan plan;
  plan.kernelName = kernel.name;
  plan.dims = kernel.dims;
  std::optional<size_t> output;
  std::vector<std::optional<size_t>> bufferOfArg(kernel.args.size());
  size_t inputs = 0;
  for (size_t i = 0; i < kernel.args.size(); ++i) {
    const codegen::KernelArg &arg = kernel.args[i];
    switch (arg.role) {
    case codegen::KernelArg::Role::Input:
      // An iterated input is also written (the buffers swap).
      plan.buffers.push_back({arg.name, bufferBytes(arg, sizes), inputs++, !kernel.iteration, false});
      break;
    case codegen::KernelArg::Role::Output:
      plan.buffers.push_back({arg.name, bufferBytes(arg, sizes), std::nullopt, false, !kernel.iteration});
      if (!output) output = plan.buffers.size() - 1;
      plan.outputBuffers.push_back(plan.buffers.size() - 1);
      break;
    case codegen::KernelArg::Role::Size: plan.params.push_back(IntParam{sizeArgument(arg, sizes)}); continue;
    }
    bufferOfArg[i] = plan.buffers.size() - 1;
    plan.params.push_back(BufferParam{plan.buffers.size() - 1});
  }
  if (!output) throw InternalError("kernel " + kernel.name + " has no output");
  plan.outputBuffer = *output;
  if (kernel.countsGlobalLoads) {
    // The counter: the last parameter, filled from the input after the
    // kernel's own (zero) and downloaded after the result's components.
    plan.buffers.push_back({codegen::kGlobalLoadCounter, sizeof(uint32_t), inputs, false, false});
    plan.params.push_back(BufferParam{plan.buffers.size() - 1});
    plan.outputBuffers.push_back(plan.buffers.size() - 1);
  }

  plan.local = requestedLocal;
  // A kernel that requires its size because its guards were dropped
  // (boundary specialisation) is checked below, with that reason.
  if (requestedLocal && kernel.localSize && !kernel.requiresLocalSize) requireOwnWorkGroupSize(kernel, *requestedLocal);
  if (!plan.local && kernel.localSize)
    plan.local =
        std::array<size_t, 3>{static_cast<size_t>((*kernel.localSize)[0]), static_cast<size_t>((*kernel.localSize)[1]),
                              static_cast<size_t>((*kernel.localSize)[2])};
  if (!plan.local) plan.local = defaultLocal;
  if (kernel.requiresLocalSize && kernel.localSize) {
    std::array<size_t, 3> required{};
    for (int d = 0; d < 3; ++d) required[d] = static_cast<size_t>((*kernel.localSize)[d]);
    if (plan.local != required) {
      auto shape = [](const std::array<size_t, 3> &l) {
        return std::to_string(l[0]) + "x" + std::to_string(l[1]) + "x" + std::to_string(l[2]);
      };
      throw std::invalid_argument("kernel " + kernel.name + " was generated for work-groups of " + shape(required) +
                                  " (its bounds guards are dropped), not " + shape(*plan.local));
    }
  }
  plan.global = kernel.concreteGlobalSize(sizes, plan.local.value_or(std::array<size_t, 3>{1, 1, 1}));

  if (kernel.iteration) {
    LaunchPlan::Iteration iteration{{}, arith::evaluate(kernel.iteration->count, sizes), {}, {}};
    for (size_t arg : kernel.iteration->inputArgs) {
      const std::optional<size_t> &iterated = bufferOfArg.at(arg);
      if (!iterated) throw InternalError("kernel " + kernel.name + " iterates a parameter that is not a buffer");
      iteration.inputBuffers.push_back(*iterated);
    }
    iteration.carriedFrom = kernel.iteration->carriedFrom;
    plan.iteration = iteration;
  }
  return plan;
}

} // namespace liftcc::tuner
