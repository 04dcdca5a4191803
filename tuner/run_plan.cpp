#include "tuner/run_plan.h"

#include "core/error.h"
#include "tuner/device.h"
#include "tuner/median.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace liftcc::tuner {

namespace {

// A quiet NaN never equals an expected value, so an output element the
// kernel does not write fails verification instead of passing with a stale
// or zero value.
constexpr float kUnwritten = std::numeric_limits<float>::quiet_NaN();

/// Frees the backend's buffers however runPlan ends.
class BufferScope {
public:
  BufferScope(PlanBackend &backend, const std::vector<PlanBuffer> &buffers) : backend_(backend) {
    backend_.allocate(buffers);
  }
  BufferScope(const BufferScope &) = delete;
  BufferScope &operator=(const BufferScope &) = delete;
  ~BufferScope() { backend_.release(); }

private:
  PlanBackend &backend_;
};

void checkInputs(const LaunchPlan &plan, const InputViews &inputs) {
  for (const PlanBuffer &b : plan.buffers) {
    if (!b.input) continue;
    if (*b.input >= inputs.size()) throw std::invalid_argument("too few inputs for kernel " + plan.kernelName);
    if (inputs[*b.input].size() != b.bytes)
      throw std::invalid_argument("input " + b.name + " has " + std::to_string(inputs[*b.input].size()) +
                                  " bytes, expected " + std::to_string(b.bytes));
  }
}

/// Uploads the inputs (`onlyIterated`: only the input an iteration overwrites).
void uploadInputs(PlanBackend &backend, const LaunchPlan &plan, const InputViews &inputs, bool onlyIterated) {
  for (size_t b = 0; b < plan.buffers.size(); ++b) {
    const PlanBuffer &buffer = plan.buffers[b];
    bool iterated =
        plan.iteration && std::find(plan.iteration->inputBuffers.begin(), plan.iteration->inputBuffers.end(), b) !=
                              plan.iteration->inputBuffers.end();
    if (!buffer.input || (onlyIterated && !iterated)) continue;
    if (buffer.bytes > 0) backend.upload(b, inputs[*buffer.input]);
  }
}

/// Fills the outputs with kUnwritten.
void poisonOutputs(PlanBackend &backend, const LaunchPlan &plan) {
  for (size_t b : plan.outputs()) {
    const PlanBuffer &out = plan.buffers[b];
    std::vector<float> nan(out.bytes / sizeof(float), kUnwritten);
    backend.upload(b, std::as_bytes(std::span<const float>(nan)));
  }
}

/// The deadline of one launch: the run's, or the launch timeout from now if sooner.
std::optional<Deadline> launchDeadline(const LaunchConfig &config) {
  std::optional<Deadline> deadline = config.deadline;
  if (config.launchTimeout) {
    Deadline own = std::chrono::steady_clock::now() +
                   std::chrono::duration_cast<std::chrono::steady_clock::duration>(*config.launchTimeout);
    deadline = deadline ? std::min(*deadline, own) : own;
  }
  return deadline;
}

/// The result's bytes: one buffer per component of the result, one after another.
std::vector<std::byte> downloadOutputs(PlanBackend &backend, const LaunchPlan &plan) {
  std::vector<std::byte> output;
  if (plan.outputBuffers.size() > 1) {
    for (size_t b : plan.resultBuffers()) {
      size_t offset = output.size();
      output.resize(offset + plan.buffers[b].bytes);
      backend.download(b, std::span<std::byte>(output).subspan(offset));
    }
  } else {
    output.resize(plan.buffers[plan.resultBuffer()].bytes);
    backend.download(plan.resultBuffer(), output);
  }
  return output;
}

} // namespace

void PlanBackend::bindStage(size_t, size_t, const PlanParam &) {
  throw InternalError("this backend runs single kernels only");
}
uint64_t PlanBackend::launchStage(const LaunchPlan &, size_t, std::optional<Deadline>) {
  throw InternalError("this backend runs single kernels only");
}

InputViews inputViews(const InputBytes &inputs) {
  InputViews views;
  views.reserve(inputs.size());
  for (const std::vector<std::byte> &bytes : inputs) views.emplace_back(bytes);
  return views;
}

RawRun runPlan(PlanBackend &backend, const LaunchPlan &plan, const InputViews &inputs, const LaunchConfig &config) {
  checkInputs(plan, inputs);
  BufferScope scope(backend, plan.buffers);
  uploadInputs(backend, plan, inputs, false);
  if (config.poisonOutput) poisonOutputs(backend, plan);
  if (plan.stages.empty())
    for (size_t i = 0; i < plan.params.size(); ++i) backend.bind(i, plan.params[i]);
  for (size_t s = 0; s < plan.stages.size(); ++s)
    for (size_t i = 0; i < plan.stages[s].params.size(); ++i) backend.bindStage(s, i, plan.stages[s].params[i]);

  // Buffers are rebound only where an iterated kernel swaps them.
  auto rebind = [](std::vector<std::optional<size_t>> &bound, std::vector<std::optional<size_t>> buffers,
                   const auto &bindBuffer) {
    for (size_t i = 0; i < buffers.size(); ++i)
      if (buffers[i] != bound[i]) bindBuffer(i, *buffers[i]);
    bound = std::move(buffers);
  };
  std::vector<std::optional<size_t>> bound = plan.buffersOfLaunch(0);
  std::vector<std::vector<std::optional<size_t>>> boundStages;
  for (size_t s = 0; s < plan.stages.size(); ++s) boundStages.push_back(plan.buffersOfStageLaunch(s, 0));
  auto repetition = [&](bool first) -> uint64_t {
    // Every repetition of an iterated kernel starts from the original input
    // (the first one has it already).
    if (plan.iteration && !first) uploadInputs(backend, plan, inputs, true);
    uint64_t total = 0;
    // A state computed before the loop is computed again in every repetition.
    for (size_t s = 0; s < plan.firstLoopStage(); ++s) total += backend.launchStage(plan, s, launchDeadline(config));
    for (int64_t k = 0; k < plan.launches(); ++k) {
      if (plan.iteration && plan.stages.empty())
        rebind(bound, plan.buffersOfLaunch(k), [&](size_t i, size_t b) { backend.bind(i, BufferParam{b}); });
      // A multi-kernel program's launch is all its stages (those of the
      // launch's phase), in order; the in-order queue makes each see what
      // the previous one wrote.
      const auto [first, end] = plan.stagesOfLaunch(k);
      for (size_t s = first; plan.iteration && s < end; ++s)
        rebind(boundStages[s], plan.buffersOfStageLaunch(s, k),
               [&](size_t i, size_t b) { backend.bindStage(s, i, BufferParam{b}); });
      if (plan.stages.empty()) total += backend.launch(plan, launchDeadline(config));
      for (size_t s = first; s < end; ++s) total += backend.launchStage(plan, s, launchDeadline(config));
    }
    // A stage after the loop reads its result wherever the launches left it.
    for (size_t s = plan.firstEpilogueStage(); s < plan.stages.size(); ++s) {
      rebind(boundStages[s], plan.buffersOfEpilogueStage(s),
             [&](size_t i, size_t b) { backend.bindStage(s, i, BufferParam{b}); });
      total += backend.launchStage(plan, s, launchDeadline(config));
    }
    return total;
  };

  RawRun result;
  bool first = true;
  for (int i = 0; i < config.warmups; ++i, first = false) repetition(first);
  uint64_t timedNs = 0;
  const auto minimumNs = static_cast<uint64_t>(std::max(0.0, config.minTimedSeconds) * 1e9);
  for (int i = 0; i < std::max(1, config.repetitions) ||
                  (timedNs < minimumNs && i < std::max(config.repetitions, LaunchConfig::kMaxRepetitions));
       ++i, first = false) {
    result.timesNs.push_back(repetition(first));
    timedNs += result.timesNs.back();
    if (i == 0 && config.stopAboveNs && double(result.timesNs.back()) > *config.stopAboveNs) break;
  }
  result.medianNs = median(result.timesNs);
  if (config.downloadOutput) result.output = downloadOutputs(backend, plan);
  return result;
}

} // namespace liftcc::tuner
