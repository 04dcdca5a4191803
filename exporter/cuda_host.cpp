#include "exporter/cuda_host.h"

#include "exporter/c_text.h"
#include "exporter/host_pair.h"

#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace liftcc::exporter {

namespace {

/// `options[3] = "--use_fast_math";` lines for the exported NVRTC call: the
/// kernel's own options (fast math), one word each, after liftc's three.
std::string extraOptionLines(const TargetTemplates &target, const std::string &buildOptions, size_t &count) {
  std::string lines;
  count = 3;
  std::istringstream words(buildOptions);
  for (std::string word; words >> word; ++count)
    lines += substitute(section(target.sections, "extra_option"),
                        {{"INDEX", std::to_string(count)}, {"OPTION", cStringLiteral(word, "")}});
  return lines;
}

/// Each kernel's block shape and its grid in blocks, as C table rows.
std::pair<std::string, std::string> blocksAndGrids(const ExportPlan &plan) {
  std::string blocks, grids;
  for (size_t s = 0; s < plan.stages.size(); ++s) {
    std::array<int64_t, 3> block = plan.stages[s].cudaBlock(), global = plan.stages[s].roundedGlobal(block), grid{};
    for (int d = 0; d < 3; ++d) grid[d] = global[d] / block[d];
    blocks += (s ? ", " : "") + cArray(block);
    grids += (s ? ", " : "") + cArray(grid);
  }
  return {blocks, grids};
}

/// Every kernel parameter is a local variable whose address goes into its
/// kernel's parameter array (cuLaunchKernel's convention).
std::string parameterLocal(size_t stage, size_t param) {
  return "k" + std::to_string(stage) + "_arg" + std::to_string(param);
}
std::string parameterArray(size_t stage) { return "k" + std::to_string(stage) + "_parameters"; }

/// The launch function's declarations of those locals and arrays, and the
/// statements putting each local's address in its array (C89-style: filled
/// after the declarations, as addresses of locals are not constant
/// initialisers in C89).
std::pair<std::string, std::string> parameterDeclarations(const ExportPlan &plan) {
  std::string decls, fill;
  for (size_t s = 0; s < plan.stages.size(); ++s) {
    const PlanStage &stage = plan.stages[s];
    for (size_t p = 0; p < stage.params.size(); ++p) {
      decls += std::string(stage.params[p].isSize ? "  int " : "  CUdeviceptr ") + parameterLocal(s, p) + ";\n";
      fill += "  " + parameterArray(s) + "[" + std::to_string(p) + "] = &" + parameterLocal(s, p) + ";\n";
    }
    decls += "  void *" + parameterArray(s) + "[" + std::to_string(stage.params.size()) + "];\n";
  }
  return {decls, fill};
}

} // namespace

ExportedPair exportCuda(const ExportPlan &plan, const std::string &prefix) {
  if (plan.target != codegen::Target::CUDA) throw std::logic_error("exportCuda needs a CUDA kernel");
  for (const PlanStage &stage : plan.stages)
    if (!isCIdentifier(stage.kernelName))
      throw std::invalid_argument("the kernel name '" + stage.kernelName + "' is not a C identifier");
  std::set<std::string> reserved{"program", "stream", "current", "result", "status", "source", "target", "k"};
  for (size_t s = 0; s < plan.stages.size(); ++s) {
    reserved.insert(parameterArray(s));
    for (size_t p = 0; p < plan.stages[s].params.size(); ++p) reserved.insert(parameterLocal(s, p));
  }
  HostNames names = hostNames(plan, prefix, "cuda", reserved);
  const std::string &api = names.api, &API = names.API;
  TargetTemplates target = targetTemplates("cuda.c.in");

  ScheduleHooks hooks = templateHooks(target, names);
  hooks.bind = [&](size_t stage, size_t param, bool isSize, const std::string &value, const std::string &indent) {
    return indent + parameterLocal(stage, param) + " = " + (isSize ? "(int)" : "") + value + ";\n";
  };
  hooks.enqueue = [&](size_t stage, const std::string &) {
    return api + "_enqueue(program, stream, " + std::to_string(stage) + ", " + parameterArray(stage) + ")";
  };
  // Zero iterations copy the input and never launch: no parameters then (-Wunused-but-set-variable).
  bool launches = launchesKernels(plan);
  auto [decls, fill] = parameterDeclarations(plan);
  auto [blocks, grids] = blocksAndGrids(plan);
  size_t optionCount = 0;
  std::string extraOptions = extraOptionLines(target, plan.buildOptions, optionCount);
  std::map<std::string, std::string> values = sharedValues(plan, names, target);
  values.insert({
      {"EXTRAOPTIONS", extraOptions},
      {"OPTIONCOUNT", std::to_string(optionCount)},
      {"TABLES", substitute(section(target.sections, "block_table"), {{"api", api}, {"API", API}, {"BLOCK", blocks}})},
      {"DECLS", launches ? decls : ""},
      {"SCHEDULE", (launches ? fill : "") + launchSchedule(plan, names, hooks)},
      {"ENQUEUE",
       launches ? substitute(section(target.sections, "enqueue"), {{"api", api}, {"API", API}, {"GRID", grids}}) : ""},
  });
  return renderHostPair(plan, target, values, ": the CUDA kernel and its host code (CUDA driver API).");
}

} // namespace liftcc::exporter
