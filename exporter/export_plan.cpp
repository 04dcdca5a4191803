#include "exporter/export_plan.h"

#include "codegen/launch_limits.h"
#include "core/arith/expr.h"
#include "core/error.h"
#include "core/io/json_file.h"
#include "core/io/safe_file.h"
#include "explore/best_kernel_trust.h"
#include "explore/best_kernels.h"
#include "exporter/c_text.h"
#include "tuner/launch_plan.h"

#include "core/io/json.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace liftcc::exporter {

namespace fs = std::filesystem;
using nlohmann::json;

size_t ExportPlan::outputArg() const {
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].role == codegen::KernelArg::Role::Output) return i;
  throw std::logic_error("export plan without an output argument");
}

std::vector<size_t> ExportPlan::outputArgs() const {
  std::vector<size_t> outputs;
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].role == codegen::KernelArg::Role::Output) outputs.push_back(i);
  return outputs;
}

const PlanArg &ExportPlan::buffer(size_t index) const {
  return index < args.size() ? args[index] : temporaries.at(index - args.size());
}

std::vector<size_t> ExportPlan::stateWritten() const {
  return iteration && !iteration->stateOutputs.empty() ? iteration->stateOutputs : outputArgs();
}

size_t ExportPlan::loopBegin() const { return iteration ? std::min(stages.size(), iteration->prologueStages) : 0; }

size_t ExportPlan::loopEnd() const {
  return std::max(loopBegin(), stages.size() - std::min(stages.size(), iteration ? iteration->epilogueStages : 0));
}

std::array<int64_t, 3> PlanStage::cudaBlock() const {
  if (localSize) return *localSize;
  // The launch plan's default, so an exported kernel launches like the one
  // liftc measured.
  std::array<size_t, 3> block = tuner::defaultCudaBlock(dims);
  return {static_cast<int64_t>(block[0]), static_cast<int64_t>(block[1]), static_cast<int64_t>(block[2])};
}

std::array<int64_t, 3> PlanStage::roundedGlobal(const std::array<int64_t, 3> &local) const {
  std::array<int64_t, 3> global{1, 1, 1};
  for (int d = 0; d < 3; ++d) {
    int64_t l = std::max<int64_t>(1, local[d]);
    global[d] = (std::max<int64_t>(1, globalSize[d]) + l - 1) / l * l;
  }
  return global;
}

namespace {

/// Reports a bad field as "<where>: <pointer>: <message>" (the document
/// itself, pointer "", as "<where>: <message>").
[[noreturn]] void fail(const std::string &where, const std::string &pointer, const std::string &message) {
  throw std::runtime_error(where + ": " + (pointer.empty() ? "" : pointer + ": ") + message);
}

const json &field(const json &object, const std::string &name, const std::string &where, const std::string &pointer) {
  if (!object.is_object()) fail(where, pointer, "expected an object, found " + std::string(object.type_name()));
  auto it = object.find(name);
  if (it == object.end()) fail(where, pointer, "missing field '" + name + "'");
  return *it;
}

std::string stringField(const json &object, const std::string &name, const std::string &where,
                        const std::string &pointer) {
  const json &value = field(object, name, where, pointer);
  if (!value.is_string()) fail(where, pointer + "/" + name, "expected a string, found " + io::shown(value.dump()));
  return value.get<std::string>();
}

/// A size-dependent quantity: launch.json writes them as expression strings
/// ("4096"), which must be constants because the exported code cannot
/// evaluate expressions of the sizes.
int64_t constantOf(const json &value, const std::string &where, const std::string &pointer, int64_t minimum) {
  int64_t v = 0;
  if (value.is_number_integer()) {
    v = value.get<int64_t>();
  } else if (value.is_string()) {
    const std::string &text = value.get_ref<const std::string &>();
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size())
      fail(where, pointer,
           "expected a constant, found '" + io::shown(text) + "' (export needs a kernel generated at concrete sizes)");
  } else {
    fail(where, pointer, "expected an integer, found " + io::shown(value.dump()));
  }
  if (v < minimum)
    fail(where, pointer, "expected at least " + std::to_string(minimum) + ", found " + std::to_string(v));
  return v;
}

/// "N=64,M=32" (or "scalar": no sizes), as best-kernel directories name them.
std::vector<std::pair<std::string, int64_t>> parseSizesKey(const std::string &key, const std::string &where) {
  std::vector<std::pair<std::string, int64_t>> sizes;
  if (key == "scalar") return sizes;
  size_t start = 0;
  while (start <= key.size()) {
    size_t comma = key.find(',', start);
    std::string item = key.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t eq = item.find('=');
    int64_t value = 0;
    if (eq == std::string::npos || eq == 0)
      fail(where, "/sizes", "expected NAME=VALUE[,...], found '" + io::shown(key) + "'");
    auto [end, ec] = std::from_chars(item.data() + eq + 1, item.data() + item.size(), value);
    if (ec != std::errc() || end != item.data() + item.size() || value < 1)
      fail(where, "/sizes", "expected a positive size in '" + io::shown(item) + "'");
    if (value > codegen::kMaxSizeValue)
      fail(where, "/sizes",
           "size " + io::shown(item.substr(0, eq)) + " = " + std::to_string(value) + " is above liftc's limit 2^40");
    sizes.emplace_back(item.substr(0, eq), value);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return sizes;
}

/// Runs a check of codegen/launch_limits.h, reporting its LimitError at `pointer`.
template <typename Check> void withinLimits(const std::string &where, const std::string &pointer, const Check &check) {
  try {
    check();
  } catch (const codegen::LimitError &e) {
    fail(where, pointer, e.what());
  }
}

/// NDRange extents are rounded up to a multiple of the work-group in int64_t.
constexpr int64_t kMaxGlobalExtent = int64_t(1) << 62;

/// The work-group size a stage launches with: a stage generated for its own
/// (mapWrg: one group per element) keeps it; the requested one (tuned, or
/// --local) is for the others, which otherwise keep the size they require
/// (boundary specialisation) or leave it to the runtime. As
/// tuner::planStages chooses, so the exported launch is the measured one.
std::optional<std::array<int64_t, 3>> stageLocal(const std::optional<std::array<int64_t, 3>> &own, bool ownRequired,
                                                 const std::optional<std::array<int64_t, 3>> &requested) {
  if (own && !ownRequired) return own;
  return requested ? requested : own;
}

/// The index of the buffer named `name` among the plan's arguments and
/// temporaries (StageParam numbering).
std::optional<size_t> bufferNamed(const ExportPlan &plan, const std::string &name) {
  for (size_t i = 0; i < plan.args.size(); ++i)
    if (plan.args[i].role != codegen::KernelArg::Role::Size && plan.args[i].name == name) return i;
  for (size_t t = 0; t < plan.temporaries.size(); ++t)
    if (plan.temporaries[t].name == name) return plan.args.size() + t;
  return std::nullopt;
}

/// A stage's parameters bound to the plan's buffers and sizes by name; each
/// buffer must be the one the plan allocates or checks (same type, as many
/// elements), since the kernel indexes it with its own constant sizes.
std::vector<StageParam> bindParams(const ExportPlan &plan, const std::vector<PlanArg> &params, const std::string &where,
                                   const std::string &pointer) {
  std::vector<StageParam> bound;
  for (size_t i = 0; i < params.size(); ++i) {
    const PlanArg &p = params[i];
    std::string at = pointer + "/" + std::to_string(i);
    if (p.role == codegen::KernelArg::Role::Size) {
      size_t s = 0;
      while (s < plan.sizes.size() && plan.sizes[s].first != p.name) ++s;
      if (s == plan.sizes.size())
        fail(where, at, "the kernel takes size " + io::shown(p.name) + ", which has no value");
      if (plan.sizes[s].second > std::numeric_limits<int32_t>::max())
        fail(where, "/sizes", "size " + io::shown(p.name) + " does not fit the kernel's int arguments");
      bound.push_back({true, s});
      continue;
    }
    std::optional<size_t> b = bufferNamed(plan, p.name);
    if (!b) fail(where, at, "no argument or temporary named " + io::shown(p.name));
    const PlanArg &buffer = plan.buffer(*b);
    if (buffer.kind != p.kind || buffer.count != p.count)
      fail(where, at, "buffer " + io::shown(p.name) + " differs in type or length from the program's");
    bound.push_back({false, *b});
  }
  return bound;
}

/// Checks what every plan must satisfy, whatever it was built from.
/// carriedFrom: one entry per component, each source carried once, of the
/// component's type and length, some component computed, and no kernel
/// writing the output of a carried one (the host passes buffers on).
void validateCarried(const ExportPlan &plan, const std::vector<std::optional<size_t>> &carried,
                     const std::vector<PlanStage> &stages, const std::string &pointer, const std::string &where) {
  if (carried.empty()) return;
  const std::vector<size_t> &inputs = plan.iteration->inputArgs, outputs = plan.stateWritten();
  if (carried.size() != inputs.size())
    fail(where, pointer,
         "expected one entry per component of the state (" + std::to_string(inputs.size()) + "), found " +
             std::to_string(carried.size()));
  if (std::all_of(carried.begin(), carried.end(), [](const std::optional<size_t> &f) { return f.has_value(); }))
    fail(where, pointer, "expected some component computed by the kernels, found every one carried over");
  for (size_t c = 0; c < carried.size(); ++c) {
    if (!carried[c]) continue;
    const std::string at = pointer + "/" + std::to_string(c);
    if (std::count(carried.begin(), carried.end(), carried[c]) > 1)
      fail(where, at, "component " + std::to_string(*carried[c]) + " is carried over twice");
    const PlanArg &to = plan.buffer(inputs[c]), &from = plan.buffer(inputs[*carried[c]]);
    if (to.kind != from.kind || to.count != from.count)
      fail(where, at,
           "the iterated input '" + io::shown(to.name) + "' and the input '" + io::shown(from.name) +
               "' it is carried over from differ in type or length");
    for (const PlanStage &stage : stages)
      for (const StageParam &param : stage.params)
        if (!param.isSize && param.index == outputs.at(c))
          fail(where, at,
               "the output '" + io::shown(plan.buffer(outputs[c]).name) +
                   "' of a carried component is written by kernel '" + io::shown(stage.kernelName) + "'");
  }
}

/// A stage after the loop: fewer kernels than the plan has, the state
/// written to distinct temporaries, one per component; none: no stateOutputs.
void validateEpilogue(const ExportPlan &plan, const std::string &where) {
  const ExportPlan::Iteration &it = *plan.iteration;
  if (it.epilogueStages == 0) {
    if (!it.stateOutputs.empty())
      fail(where, "/kernel/iterate/stateBuffers", "expected no state buffers without epilogueStages");
    return;
  }
  if (it.epilogueStages + it.prologueStages >= plan.stages.size())
    fail(where, "/kernel/iterate/epilogueStages",
         "expected fewer than the " + std::to_string(plan.stages.size() - it.prologueStages) +
             " kernels after the prologue's, found " + std::to_string(it.epilogueStages));
  if (it.stateOutputs.size() != it.inputArgs.size())
    fail(where, "/kernel/iterate/stateBuffers",
         "expected one buffer per component of the state (" + std::to_string(it.inputArgs.size()) + "), found " +
             std::to_string(it.stateOutputs.size()));
  for (size_t c = 0; c < it.stateOutputs.size(); ++c) {
    const std::string at = "/kernel/iterate/stateBuffers/" + std::to_string(c);
    if (it.stateOutputs[c] < plan.args.size() || it.stateOutputs[c] >= plan.args.size() + plan.temporaries.size())
      fail(where, at, "expected a temporary");
    if (std::count(it.stateOutputs.begin(), it.stateOutputs.begin() + static_cast<std::ptrdiff_t>(c),
                   it.stateOutputs[c]) > 0)
      fail(where, at, "the temporary '" + io::shown(plan.buffer(it.stateOutputs[c]).name) + "' holds two components");
  }
}

/// A state computed before the loop: fewer kernels than the plan has, the
/// loop starting from temporaries; none: from inputs.
void validatePrologue(const ExportPlan &plan, const std::string &where) {
  const ExportPlan::Iteration &it = *plan.iteration;
  if (it.prologueStages >= plan.stages.size())
    fail(where, "/kernel/iterate/prologueStages",
         "expected fewer than the " + std::to_string(plan.stages.size()) + " kernels, found " +
             std::to_string(it.prologueStages));
  for (size_t c = 0; c < it.inputArgs.size(); ++c) {
    const bool temporary = it.inputArgs[c] >= plan.args.size();
    if (temporary != (it.prologueStages > 0))
      fail(where, "/kernel/iterate",
           "the iterated buffer '" + io::shown(plan.buffer(it.inputArgs[c]).name) + "' is " +
               (temporary ? "a temporary, but no kernel computes it before the loop (prologueStages)"
                          : "an input, but the loop starts from a state computed before it (prologueStages)"));
  }
}

void validate(const ExportPlan &plan, const std::string &where) {
  size_t outputs = 0;
  std::vector<PlanArg> buffers = plan.args;
  buffers.insert(buffers.end(), plan.temporaries.begin(), plan.temporaries.end());
  for (const PlanArg &a : buffers) {
    if (a.role == codegen::KernelArg::Role::Output) ++outputs;
    if (a.count > std::numeric_limits<int64_t>::max() / 8)
      fail(where, "/kernel/args",
           "buffer " + io::shown(a.name) + " has too many elements (" + std::to_string(a.count) + ")");
  }
  if (plan.outputArgs().empty()) fail(where, "/kernel/args", "expected an output argument, found none");
  if (plan.stages.empty()) fail(where, "/kernel/stages", "expected at least one kernel");
  for (size_t s = 0; s < plan.stages.size(); ++s)
    if (plan.stages[s].localSize)
      withinLimits(where,
                   plan.stages.size() > 1 ? "/kernel/stages/" + std::to_string(s) + "/localSize" : "/kernel/localSize",
                   [&] { codegen::checkWorkGroup(*plan.stages[s].localSize); });
  if (plan.iteration)
    withinLimits(where, "/kernel/iterate/count", [&] { codegen::checkIterations(plan.iteration->count); });
  if (plan.iteration) {
    validatePrologue(plan, where);
    validateEpilogue(plan, where);
    const std::vector<size_t> &inputs = plan.iteration->inputArgs;
    std::vector<size_t> outputs = plan.stateWritten();
    if (inputs.size() != outputs.size())
      fail(where, "/kernel/iterate",
           "an iterated program has one output per iterated input, found " + std::to_string(outputs.size()) +
               " outputs for " + std::to_string(inputs.size()) + (inputs.size() == 1 ? " input" : " inputs"));
    for (size_t c = 0; c < inputs.size(); ++c) {
      const PlanArg &in = plan.buffer(inputs[c]), &out = plan.buffer(outputs[c]);
      if (in.kind != out.kind || in.count != out.count)
        fail(where, "/kernel/iterate",
             "the iterated input '" + io::shown(in.name) + "' and the output '" + io::shown(out.name) +
                 "' it becomes differ in type or length");
      if (std::count(inputs.begin(), inputs.end(), inputs[c]) > 1)
        fail(where, "/kernel/iterate", "the input '" + io::shown(in.name) + "' is iterated twice");
    }
    // The stages after the loop read the state's buffers; only the loop's must not write a carried one.
    const std::vector<PlanStage> looped(plan.stages.begin() + static_cast<std::ptrdiff_t>(plan.loopBegin()),
                                        plan.stages.begin() + static_cast<std::ptrdiff_t>(plan.loopEnd()));
    validateCarried(plan, plan.iteration->carriedFrom, looped, "/kernel/iterate/carriedFrom", where);
    const std::vector<ExportPlan::Iteration::Phase> &phases = plan.iteration->phases;
    size_t first = plan.loopBegin();
    for (size_t p = 0; p < phases.size(); ++p) {
      const size_t end = std::min(first + phases[p].stages, plan.loopEnd());
      const std::vector<PlanStage> own(plan.stages.begin() + static_cast<std::ptrdiff_t>(first),
                                       plan.stages.begin() + static_cast<std::ptrdiff_t>(end));
      validateCarried(plan, phases[p].carriedFrom, own, "/kernel/iterate/phases/" + std::to_string(p) + "/carriedFrom",
                      where);
      first = end;
    }
    if (!phases.empty()) {
      int64_t launches = 0;
      size_t stages = 0;
      for (const ExportPlan::Iteration::Phase &phase : phases) {
        launches += phase.count;
        stages += phase.stages;
      }
      auto counted = [](int64_t n, const std::string &one, const std::string &many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
      };
      if (launches != plan.iteration->count || stages != plan.loopEnd() - plan.loopBegin())
        fail(where, "/kernel/iterate/phases",
             "the phases add up to " + counted(launches, "launch", "launches") + " of " +
                 counted(int64_t(stages), "kernel", "kernels") + ", expected " +
                 counted(plan.iteration->count, "launch", "launches") + " of " +
                 counted(int64_t(plan.loopEnd() - plan.loopBegin()), "kernel", "kernels"));
    }
  }
}

/// Arguments as launch.json writes them (codegen::kernelMetadata).
std::vector<PlanArg> parseArgs(const json &kernel, const std::string &where, const std::string &pointer) {
  const json &args = field(kernel, "args", where, pointer);
  if (!args.is_array()) fail(where, pointer + "/args", "expected an array");
  std::vector<PlanArg> parsed;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string at = pointer + "/args/" + std::to_string(i);
    PlanArg arg;
    arg.name = stringField(args[i], "name", where, at);
    std::string role = stringField(args[i], "role", where, at);
    std::string type = stringField(args[i], "type", where, at);
    auto kind = parseScalarKind(type);
    if (!kind) fail(where, at + "/type", "expected bool, int, float or double, found '" + io::shown(type) + "'");
    arg.kind = *kind;
    if (role == "input" || role == "output") {
      arg.role = role == "input" ? codegen::KernelArg::Role::Input : codegen::KernelArg::Role::Output;
      arg.count = constantOf(field(args[i], "count", where, at), where, at + "/count", 1);
    } else if (role == "size") {
      arg.role = codegen::KernelArg::Role::Size;
    } else {
      fail(where, at + "/role", "expected input, output or size, found '" + io::shown(role) + "'");
    }
    parsed.push_back(arg);
  }
  return parsed;
}

/// One kernel's launch as launch.json writes it (name, args, dims,
/// globalSize, localSize), its parameters bound to the plan's buffers.
PlanStage parseStage(const ExportPlan &plan, const json &kernel, const std::optional<std::array<int64_t, 3>> &requested,
                     const std::string &where, const std::string &pointer) {
  PlanStage stage;
  stage.kernelName = stringField(kernel, "name", where, pointer);
  if (!isCIdentifier(stage.kernelName))
    fail(where, pointer + "/name", "expected a C identifier, found '" + io::shown(stage.kernelName) + "'");
  stage.params = bindParams(plan, parseArgs(kernel, where, pointer), where, pointer + "/args");
  const json &dims = field(kernel, "dims", where, pointer);
  int64_t dimCount = constantOf(dims, where, pointer + "/dims", 1);
  if (dimCount > 3) fail(where, pointer + "/dims", "expected 1, 2 or 3, found " + std::to_string(dimCount));
  stage.dims = static_cast<int>(dimCount);
  const json &global = field(kernel, "globalSize", where, pointer);
  if (!global.is_array() || global.size() != size_t(stage.dims))
    fail(where, pointer + "/globalSize", "expected an array of " + std::to_string(stage.dims) + " extents");
  for (int d = 0; d < stage.dims; ++d) {
    std::string at = pointer + "/globalSize/" + std::to_string(d);
    stage.globalSize[d] = constantOf(global[d], where, at, 1);
    // Rounded up to a work-group (at most kMaxWorkGroupItems) in int64_t.
    if (stage.globalSize[d] > kMaxGlobalExtent)
      fail(where, at, "expected at most 2^62 work-items, found " + std::to_string(stage.globalSize[d]));
  }
  std::optional<std::array<int64_t, 3>> own;
  if (kernel.contains("localSize")) {
    const json &local = kernel["localSize"];
    if (!local.is_array() || local.size() != size_t(stage.dims))
      fail(where, pointer + "/localSize", "expected an array of " + std::to_string(stage.dims) + " sizes");
    std::array<int64_t, 3> l{1, 1, 1};
    for (int d = 0; d < stage.dims; ++d)
      l[d] = constantOf(local[d], where, pointer + "/localSize/" + std::to_string(d), 1);
    withinLimits(where, pointer + "/localSize", [&] { codegen::checkWorkGroup(l); });
    own = l;
  }
  bool required = kernel.contains("localSizeRequired") && kernel["localSizeRequired"] == true;
  stage.localSize = stageLocal(own, required, requested);
  return stage;
}

/// The kernel's compiler options (fast math), pasted into a C string literal
/// of the exported code: option words only.
std::string parseBuildOptions(const json &kernel, const std::string &where) {
  std::string options = stringField(kernel, "buildOptions", where, "/kernel");
  for (char c : options)
    if (!std::isalnum(static_cast<unsigned char>(c)) && std::string_view(" -_=.").find(c) == std::string_view::npos)
      fail(where, "/kernel/buildOptions",
           "expected compiler options (letters, digits, ' -_=.'), found '" + io::shown(options) + "'");
  return options;
}

/// The tuned work-group size; all zeros means the runtime's choice, as in
/// the explorer (unless a kernel fixes its own: mapWrg kernels).
std::optional<std::array<int64_t, 3>> requestedLocal(const json &launch, const std::string &where) {
  if (!launch.contains("configuration") || !launch["configuration"].contains("local")) return std::nullopt;
  const json &local = launch["configuration"]["local"];
  if (!local.is_array() || local.size() != 3) fail(where, "/configuration/local", "expected an array of 3 sizes");
  std::array<int64_t, 3> l{};
  for (int d = 0; d < 3; ++d) l[d] = constantOf(local[d], where, "/configuration/local/" + std::to_string(d), 0);
  if (l == std::array<int64_t, 3>{0, 0, 0}) return std::nullopt;
  for (int d = 0; d < 3; ++d)
    if (l[d] < 1) fail(where, "/configuration/local/" + std::to_string(d), "expected at least 1 in a work-group size");
  withinLimits(where, "/configuration/local", [&] { codegen::checkWorkGroup(l); });
  return l;
}

/// A multi-kernel program's temporaries (/kernel/temporaries), added to the plan.
void parseTemporaries(ExportPlan &plan, const json &kernel, const std::string &where) {
  const json &temporaries = field(kernel, "temporaries", where, "/kernel");
  if (!temporaries.is_array()) fail(where, "/kernel/temporaries", "expected an array");
  for (size_t t = 0; t < temporaries.size(); ++t) {
    std::string at = "/kernel/temporaries/" + std::to_string(t);
    PlanArg temporary{stringField(temporaries[t], "name", where, at), codegen::KernelArg::Role::Output,
                      ScalarKind::Float, 1};
    std::string type = stringField(temporaries[t], "type", where, at);
    auto kind = parseScalarKind(type);
    if (!kind) fail(where, at + "/type", "expected bool, int, float or double, found '" + io::shown(type) + "'");
    temporary.kind = *kind;
    temporary.count = constantOf(field(temporaries[t], "count", where, at), where, at + "/count", 1);
    if (bufferNamed(plan, temporary.name))
      fail(where, at + "/name", "a second buffer named " + io::shown(temporary.name));
    plan.temporaries.push_back(temporary);
  }
}

/// The kernel's iterate field: the launch count and the input argument each
/// output replaces between launches: "input" names one, "inputs" lists one
/// per component of a tuple state, in the outputs' order.
ExportPlan::Iteration parseIteration(const ExportPlan &plan, const json &kernel, const std::string &where) {
  const json &iterate = kernel["iterate"];
  ExportPlan::Iteration it;
  it.count = constantOf(field(iterate, "count", where, "/kernel/iterate"), where, "/kernel/iterate/count", 0);
  withinLimits(where, "/kernel/iterate/count", [&] { codegen::checkIterations(it.count); });
  // An input argument, or with a state computed before the loop, a temporary (validatePrologue checks which).
  auto inputArg = [&](const std::string &input, const std::string &pointer) {
    for (size_t i = 0; i < plan.args.size(); ++i)
      if (plan.args[i].name == input && plan.args[i].role == codegen::KernelArg::Role::Input) return i;
    for (size_t t = 0; t < plan.temporaries.size(); ++t)
      if (plan.temporaries[t].name == input) return plan.args.size() + t;
    fail(where, pointer, "no input argument or temporary named '" + io::shown(input) + "'");
  };
  if (iterate.is_object() && iterate.contains("inputs")) {
    if (iterate.contains("input"))
      fail(where, "/kernel/iterate", "expected either \"input\" or \"inputs\", found both");
    const json &inputs = iterate["inputs"];
    if (!inputs.is_array() || inputs.empty())
      fail(where, "/kernel/iterate/inputs", "expected a non-empty array of input names");
    for (size_t c = 0; c < inputs.size(); ++c) {
      std::string pointer = "/kernel/iterate/inputs/" + std::to_string(c);
      if (!inputs[c].is_string()) fail(where, pointer, "expected a string");
      it.inputArgs.push_back(inputArg(inputs[c].get<std::string>(), pointer));
    }
    return it;
  }
  it.inputArgs.push_back(inputArg(stringField(iterate, "input", where, "/kernel/iterate"), "/kernel/iterate/input"));
  return it;
}

/// A stage after the loop: how many of the last kernels it is and the
/// temporaries (by name) the loop writes the state to; validate() checks the rest.
void parsePrologue(ExportPlan &plan, const json &iterate, const std::string &where) {
  if (!iterate.is_object() || !iterate.contains("prologueStages")) return;
  const json &stages = iterate["prologueStages"];
  if (!stages.is_number_integer() || stages.get<int64_t>() < 1 || stages.get<int64_t>() > 4096)
    fail(where, "/kernel/iterate/prologueStages", "expected a count of kernels, found " + io::shown(stages.dump()));
  plan.iteration->prologueStages = stages.get<size_t>();
}

void parseEpilogue(ExportPlan &plan, const json &iterate, const std::string &where) {
  if (!iterate.is_object() || (!iterate.contains("epilogueStages") && !iterate.contains("stateBuffers"))) return;
  const json &stages = field(iterate, "epilogueStages", where, "/kernel/iterate");
  if (!stages.is_number_integer() || stages.get<int64_t>() < 1 || stages.get<int64_t>() > 4096)
    fail(where, "/kernel/iterate/epilogueStages", "expected a count of kernels, found " + io::shown(stages.dump()));
  plan.iteration->epilogueStages = stages.get<size_t>();
  const json &names = field(iterate, "stateBuffers", where, "/kernel/iterate");
  if (!names.is_array() || names.empty())
    fail(where, "/kernel/iterate/stateBuffers", "expected a non-empty array of temporary names");
  for (size_t c = 0; c < names.size(); ++c) {
    const std::string at = "/kernel/iterate/stateBuffers/" + std::to_string(c);
    if (!names[c].is_string()) fail(where, at, "expected a string");
    size_t t = 0;
    while (t < plan.temporaries.size() && plan.temporaries[t].name != names[c].get<std::string>()) ++t;
    if (t == plan.temporaries.size())
      fail(where, at, "no temporary named '" + io::shown(names[c].get<std::string>()) + "'");
    plan.iteration->stateOutputs.push_back(plan.args.size() + t);
  }
}

/// The carriedFrom of the iterate field or of one of its phases, `object`
/// at `pointer` (absent: every component computed): null or a component
/// index per component; validate() checks the rest.
std::vector<std::optional<size_t>> parseCarried(const json &object, const std::string &pointer,
                                                const std::string &where) {
  std::vector<std::optional<size_t>> carried;
  if (!object.is_object() || !object.contains("carriedFrom")) return carried;
  const json &list = object["carriedFrom"];
  if (!list.is_array() || list.empty()) fail(where, pointer + "/carriedFrom", "expected a non-empty array");
  for (size_t c = 0; c < list.size(); ++c) {
    const std::string at = pointer + "/carriedFrom/" + std::to_string(c);
    if (list[c].is_null()) {
      carried.push_back(std::nullopt);
      continue;
    }
    if (!list[c].is_number_integer() || list[c].get<int64_t>() < 0 || list[c].get<int64_t>() >= int64_t(list.size()))
      fail(where, at,
           "expected null or a component index below " + std::to_string(list.size()) + ", found " +
               io::shown(list[c].dump()));
    carried.push_back(list[c].get<size_t>());
  }
  return carried;
}

/// The iterate field's phases (absent: one phase of every stage).
std::vector<ExportPlan::Iteration::Phase> parsePhases(const json &kernel, const std::string &where) {
  const json &iterate = kernel["iterate"];
  std::vector<ExportPlan::Iteration::Phase> phases;
  if (!iterate.is_object() || !iterate.contains("phases")) return phases;
  const json &list = iterate["phases"];
  if (!list.is_array() || list.empty()) fail(where, "/kernel/iterate/phases", "expected a non-empty array");
  for (size_t p = 0; p < list.size(); ++p) {
    std::string at = "/kernel/iterate/phases/" + std::to_string(p);
    ExportPlan::Iteration::Phase phase;
    phase.count = constantOf(field(list[p], "count", where, at), where, at + "/count", 0);
    withinLimits(where, at + "/count", [&] { codegen::checkIterations(phase.count); });
    const json &stages = field(list[p], "stages", where, at);
    if (!stages.is_number_integer() || stages.get<int64_t>() < 1 || stages.get<int64_t>() > 1024)
      fail(where, at + "/stages", "expected a number of kernels from 1 to 1024, found " + io::shown(stages.dump()));
    phase.stages = stages.get<size_t>();
    phase.carriedFrom = parseCarried(list[p], at, where);
    phases.push_back(phase);
  }
  return phases;
}

/// Where and how fast the kernel was tuned, for the exported files' comment.
std::vector<std::string> provenanceLines(const json &launch) {
  std::vector<std::string> lines;
  if (launch.contains("device") && launch["device"].is_string()) {
    std::string line = "Tuned on " + launch["device"].get<std::string>();
    if (launch.contains("key") && launch["key"].is_string())
      line += ", configuration \"" + launch["key"].get<std::string>() + "\"";
    lines.push_back(line);
  }
  if (launch.contains("medianNs") && launch["medianNs"].is_number()) {
    std::ostringstream line;
    line << "Median kernel time " << launch["medianNs"].get<double>() / 1e3 << " us";
    if (launch.contains("elementsPerSecond") && launch["elementsPerSecond"].is_number())
      line << " (" << launch["elementsPerSecond"].get<double>() / 1e9 << " G output elements/s)";
    if (launch.contains("measured") && launch["measured"].is_string())
      line << ", measured " << launch["measured"].get<std::string>();
    lines.push_back(line.str());
  }
  return lines;
}

} // namespace

ExportPlan planFromLaunchJson(const json &launch, const std::string &source, const std::string &where) {
  ExportPlan plan;
  plan.source = source;
  plan.programName = stringField(launch, "program", where, "");
  plan.sizes = parseSizesKey(stringField(launch, "sizes", where, ""), where);
  if (launch.contains("liftcc") && launch["liftcc"] != 1)
    fail(where, "/liftcc",
         "unsupported launch.json format " + io::shown(launch["liftcc"].dump()) + " (this liftc reads 1)");

  const json &kernel = field(launch, "kernel", where, "");
  std::string target = stringField(kernel, "target", where, "/kernel");
  if (target == "opencl")
    plan.target = codegen::Target::OpenCL;
  else if (target == "cuda")
    plan.target = codegen::Target::CUDA;
  else
    fail(where, "/kernel/target", "expected opencl or cuda, found '" + io::shown(target) + "'");
  plan.kernelName = stringField(kernel, "name", where, "/kernel");
  plan.args = parseArgs(kernel, where, "/kernel");
  if (kernel.contains("buildOptions")) plan.buildOptions = parseBuildOptions(kernel, where);
  if (kernel.contains("localMemoryBytes"))
    plan.localMemoryBytes = constantOf(kernel["localMemoryBytes"], where, "/kernel/localMemoryBytes", 0);
  std::optional<std::array<int64_t, 3>> requested = requestedLocal(launch, where);

  if (kernel.contains("stages")) {
    // A multi-kernel program: its temporaries, then each stage bound to the
    // program's buffers and the temporaries by name.
    parseTemporaries(plan, kernel, where);
    const json &stages = kernel["stages"];
    if (!stages.is_array() || stages.empty()) fail(where, "/kernel/stages", "expected a non-empty array");
    for (size_t s = 0; s < stages.size(); ++s)
      plan.stages.push_back(parseStage(plan, stages[s], requested, where, "/kernel/stages/" + std::to_string(s)));
  } else {
    plan.stages.push_back(parseStage(plan, kernel, requested, where, "/kernel"));
  }
  plan.dims = plan.stages.back().dims;
  plan.globalSize = plan.stages.back().globalSize;
  plan.localSize = plan.stages.back().localSize;
  if (kernel.contains("iterate")) {
    plan.iteration = parseIteration(plan, kernel, where);
    plan.iteration->phases = parsePhases(kernel, where);
    plan.iteration->carriedFrom = parseCarried(kernel["iterate"], "/kernel/iterate", where);
    parsePrologue(plan, kernel["iterate"], where);
    parseEpilogue(plan, kernel["iterate"], where);
  }
  std::vector<std::string> provenance = provenanceLines(launch);
  plan.provenance.insert(plan.provenance.end(), provenance.begin(), provenance.end());
  validate(plan, where);
  return plan;
}

ExportPlan planFromBestKernel(const std::string &directory) {
  fs::path launchPath = fs::path(directory) / "launch.json";
  std::string where = launchPath.string();
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(launchPath, ec)))
    throw std::runtime_error(where + ": cannot read (is '" + directory + "' a best-kernel directory?)");
  // The one reader of best-kernel directories (regular files only, capped,
  // every field liftc reads typed, the kernel file's hash checked).
  explore::BestKernel best = explore::readBestKernel(directory);
  // What goes into an application must be the kernel that was measured,
  // with the arguments it was measured with: the check liftc best applies,
  // with every hash required.
  explore::verifyBestKernel(best.launch, best.source, directory, explore::EntryHashes::Required);
  ExportPlan plan = planFromLaunchJson(best.launch, best.source, where);
  if ((best.kernelFile == "kernel.cu") != (plan.target == codegen::Target::CUDA))
    fail(where, "/kernelFile", "'" + best.kernelFile + "' does not match the kernel target");
  plan.provenance.push_back("Exported from " + directory);
  return plan;
}

namespace {

std::vector<PlanArg> concreteArgs(const std::vector<codegen::KernelArg> &args,
                                  const std::map<std::string, int64_t> &bindings) {
  std::vector<PlanArg> concrete;
  for (const codegen::KernelArg &a : args)
    concrete.push_back(
        {a.name, a.role, a.kind, a.role == codegen::KernelArg::Role::Size ? 1 : arith::evaluate(a.count, bindings)});
  return concrete;
}

PlanStage concreteStage(const ExportPlan &plan, const codegen::Kernel &kernel,
                        const std::map<std::string, int64_t> &bindings,
                        const std::optional<std::array<int64_t, 3>> &requested, const std::string &where) {
  PlanStage stage;
  stage.kernelName = kernel.name;
  stage.params = bindParams(plan, concreteArgs(kernel.args, bindings), where, "/kernel/args");
  stage.dims = kernel.dims;
  for (int d = 0; d < 3; ++d) stage.globalSize[d] = arith::evaluate(kernel.globalSize[d], bindings);
  stage.localSize = stageLocal(kernel.localSize, kernel.requiresLocalSize, requested);
  return stage;
}

} // namespace

ExportPlan planFromKernel(const codegen::Kernel &kernel, const std::string &programName,
                          const std::vector<std::pair<std::string, int64_t>> &sizes,
                          const std::optional<std::array<int64_t, 3>> &localSize, std::vector<std::string> provenance) {
  std::map<std::string, int64_t> bindings(sizes.begin(), sizes.end());
  std::string where = "kernel " + kernel.name;
  ExportPlan plan;
  plan.programName = programName;
  plan.target = kernel.target;
  plan.kernelName = kernel.name;
  plan.source = kernel.source;
  plan.sizes = sizes;
  plan.args = concreteArgs(kernel.args, bindings);
  plan.temporaries = concreteArgs(kernel.temporaries, bindings);
  if (kernel.stages.empty()) plan.stages.push_back(concreteStage(plan, kernel, bindings, localSize, where));
  for (const codegen::Kernel &stage : kernel.stages)
    plan.stages.push_back(concreteStage(plan, stage, bindings, localSize, where));
  plan.dims = plan.stages.back().dims;
  plan.globalSize = plan.stages.back().globalSize;
  plan.localSize = plan.stages.back().localSize;
  plan.localMemoryBytes = kernel.localMemoryBytes;
  plan.buildOptions = kernel.buildOptions;
  if (kernel.iteration)
    plan.iteration = ExportPlan::Iteration{arith::evaluate(kernel.iteration->count, bindings),
                                           kernel.iteration->inputArgs,
                                           {},
                                           kernel.iteration->carriedFrom};
  for (const codegen::Kernel::Iteration::Phase &phase :
       kernel.iteration ? kernel.iteration->phases : std::vector<codegen::Kernel::Iteration::Phase>{})
    plan.iteration->phases.push_back({arith::evaluate(phase.count, bindings), phase.stages, phase.carriedFrom});
  if (kernel.iteration) {
    auto temporary = [&](const std::string &name, const std::string &pointer) {
      auto t = std::find_if(plan.temporaries.begin(), plan.temporaries.end(),
                            [&](const PlanArg &a) { return a.name == name; });
      if (t == plan.temporaries.end()) fail(where, pointer, "no temporary named " + name);
      return plan.args.size() + static_cast<size_t>(t - plan.temporaries.begin());
    };
    plan.iteration->epilogueStages = kernel.iteration->epilogueStages;
    for (const std::string &name : kernel.iteration->stateBuffers)
      plan.iteration->stateOutputs.push_back(temporary(name, "/kernel/iterate/stateBuffers"));
    plan.iteration->prologueStages = kernel.iteration->prologueStages;
    for (const std::string &name : kernel.iteration->stateInputs)
      plan.iteration->inputArgs.push_back(temporary(name, "/kernel/iterate/inputs"));
  }
  plan.provenance = std::move(provenance);
  validate(plan, where);
  return plan;
}

} // namespace liftcc::exporter
