#include "codegen/kernel.h"

#include "core/io/json.h"

namespace liftcc::codegen {

std::array<size_t, 3> Kernel::concreteGlobalSize(const std::map<std::string, int64_t> &sizes,
                                                 const std::array<size_t, 3> &local) const {
  std::array<size_t, 3> global{1, 1, 1};
  for (int d = 0; d < 3; ++d) {
    int64_t n = std::max<int64_t>(1, arith::evaluate(globalSize[d], sizes));
    size_t l = std::max<size_t>(1, local[d]);
    global[d] = (static_cast<size_t>(n) + l - 1) / l * l;
  }
  return global;
}

namespace {
nlohmann::json argsMetadata(const std::vector<KernelArg> &kernelArgs) {
  using nlohmann::json;
  json args = json::array();
  for (const KernelArg &a : kernelArgs) {
    json arg{{"name", a.name}, {"type", std::string(scalarKindName(a.kind))}};
    switch (a.role) {
    case KernelArg::Role::Input:
      arg["role"] = "input";
      arg["count"] = a.count.str();
      break;
    case KernelArg::Role::Output:
      arg["role"] = "output";
      arg["count"] = a.count.str();
      break;
    case KernelArg::Role::Size: arg["role"] = "size"; break;
    }
    args.push_back(arg);
  }
  return args;
}

/// Kernel::Iteration::carriedFrom as launch.json writes it: per component
/// null (computed) or the index of the component it is the old value of.
nlohmann::json carriedJson(const std::vector<std::optional<size_t>> &carriedFrom) {
  using nlohmann::json;
  json carried = json::array();
  for (const std::optional<size_t> &from : carriedFrom) carried.push_back(from ? json(*from) : json(nullptr));
  return carried;
}
} // namespace

nlohmann::json kernelMetadata(const Kernel &kernel) {
  using nlohmann::json;
  json args = argsMetadata(kernel.args);
  json global = json::array();
  for (int d = 0; d < kernel.dims; ++d) global.push_back(kernel.globalSize[d].str());
  json meta{{"name", kernel.name},
            {"target", targetName(kernel.target)},
            {"args", args},
            {"dims", kernel.dims},
            {"globalSize", global},
            {"localMemoryBytes", kernel.localMemoryBytes},
            {"indexBits", kernel.indexBits}};
  // Written only when there are some, so that exact kernels' metadata stays as it was.
  if (!kernel.buildOptions.empty()) meta["buildOptions"] = kernel.buildOptions;
  if (kernel.iteration) {
    meta["iterate"] = {{"count", kernel.iteration->count.str()}};
    // One iterated input keeps the field it always had; a tuple lists its components.
    // The buffers the loop starts from: inputs, or the temporaries a stage before it computes.
    std::vector<std::string> inputs = kernel.iteration->stateInputs;
    for (size_t i : kernel.iteration->inputArgs) inputs.push_back(kernel.args.at(i).name);
    if (inputs.size() == 1)
      meta["iterate"]["input"] = inputs.front();
    else
      meta["iterate"]["inputs"] = inputs;
    if (kernel.iteration->prologueStages > 0) meta["iterate"]["prologueStages"] = kernel.iteration->prologueStages;
    // Written only for phases, so the metadata of one loop stays as it was.
    if (!kernel.iteration->phases.empty()) {
      json phases = json::array();
      for (const Kernel::Iteration::Phase &phase : kernel.iteration->phases) {
        json entry = {{"count", phase.count.str()}, {"stages", phase.stages}};
        if (!phase.carriedFrom.empty()) entry["carriedFrom"] = carriedJson(phase.carriedFrom);
        phases.push_back(entry);
      }
      meta["iterate"]["phases"] = phases;
    }
    // Written only when some component is carried over: per component, null
    // (computed) or the index of the component it is the old value of.
    if (!kernel.iteration->carriedFrom.empty())
      meta["iterate"]["carriedFrom"] = carriedJson(kernel.iteration->carriedFrom);
    // Written only for a stage after the loop.
    if (kernel.iteration->epilogueStages > 0) {
      meta["iterate"]["epilogueStages"] = kernel.iteration->epilogueStages;
      meta["iterate"]["stateBuffers"] = kernel.iteration->stateBuffers;
    }
  }
  if (kernel.localSize) {
    json local = json::array();
    for (int d = 0; d < kernel.dims; ++d) local.push_back((*kernel.localSize)[d]);
    meta["localSize"] = local;
  }
  // Written only when set, so the metadata of default kernels is unchanged.
  if (kernel.requiresLocalSize) meta["localSizeRequired"] = true;
  if (kernel.interior) {
    json margins = json::array();
    for (int d = 0; d < kernel.dims; ++d) margins.push_back({kernel.interior->lo[d], kernel.interior->hi[d]});
    meta["interior"] = {{"margins", margins}, {"unit", kernel.interior->inWorkGroups ? "work-groups" : "work-items"}};
  }
  // The host schedule of a multi-kernel program: its temporaries and the
  // launches in order (absent for single kernels).
  if (!kernel.stages.empty()) {
    json stages = json::array();
    for (const Kernel &stage : kernel.stages) stages.push_back(kernelMetadata(stage));
    meta["stages"] = stages;
    json temporaries = json::array();
    for (const KernelArg &t : kernel.temporaries)
      temporaries.push_back(
          {{"name", t.name}, {"type", std::string(scalarKindName(t.kind))}, {"count", t.count.str()}});
    meta["temporaries"] = temporaries;
  }
  return meta;
}

} // namespace liftcc::codegen
