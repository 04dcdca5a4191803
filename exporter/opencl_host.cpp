#include "exporter/opencl_host.h"

#include "exporter/c_text.h"
#include "exporter/host_pair.h"

#include <stdexcept>

namespace liftcc::exporter {

namespace {

/// "{a, b, c}"-style rows joined for a C table of one entry per kernel.
template <typename Row> std::string tableRows(const ExportPlan &plan, const Row &row) {
  std::string text;
  for (size_t i = 0; i < plan.stages.size(); ++i) text += (i ? ", " : "") + row(plan.stages[i]);
  return text;
}

/// Each kernel's NDRange as C tables (or a note that none is launched).
std::string ndRangeTables(const ExportPlan &plan, const TargetTemplates &target, const HostNames &names) {
  if (!launchesKernels(plan)) return section(target.sections, "no_ndrange");
  auto global = [](const PlanStage &st) {
    return cArray(st.roundedGlobal(st.localSize.value_or(std::array<int64_t, 3>{1, 1, 1})));
  };
  auto local = [](const PlanStage &st) { return cArray(st.localSize.value_or(std::array<int64_t, 3>{0, 0, 0})); };
  return substitute(section(target.sections, "ndrange"),
                    {{"api", names.api},
                     {"API", names.API},
                     {"DIMS", tableRows(plan, [](const PlanStage &st) { return std::to_string(st.dims); })},
                     {"GLOBAL", tableRows(plan, global)},
                     {"LOCAL", tableRows(plan, local)}});
}

/// The launch function's helpers that the schedule calls, in this order (an
/// unused static function is a warning).
std::string launchHelpers(const ExportPlan &plan, const TargetTemplates &target, const HostNames &names,
                          bool setsSizes) {
  bool launches = launchesKernels(plan);
  std::string helpers;
  for (auto [name, used] : {std::pair{"set_buffer", launches}, {"set_size", setsSizes}, {"enqueue", launches}})
    if (used) helpers += section(target.sections, name);
  return substitute(helpers, {{"api", names.api}, {"API", names.API}});
}

} // namespace

ExportedPair exportOpenCL(const ExportPlan &plan, const std::string &prefix) {
  if (plan.target != codegen::Target::OpenCL) throw std::logic_error("exportOpenCL needs an OpenCL kernel");
  for (const PlanStage &stage : plan.stages)
    if (!isCIdentifier(stage.kernelName))
      throw std::invalid_argument("the kernel name '" + stage.kernelName + "' is not a C identifier");
  HostNames names =
      hostNames(plan, prefix, "opencl",
                {"program", "queue", "done", "context", "device", "error", "status", "source", "target", "k"});
  const std::string &api = names.api, &API = names.API;
  TargetTemplates target = targetTemplates("opencl.c.in");

  bool setsSizes = false;
  ScheduleHooks hooks = templateHooks(target, names);
  hooks.bind = [&](size_t stage, size_t param, bool isSize, const std::string &value, const std::string &indent) {
    setsSizes = setsSizes || isSize;
    return indent + "status = " + api + (isSize ? "_set_size(program, " : "_set_buffer(program, ") +
           std::to_string(stage) + ", " + std::to_string(param) + ", " + value + ");\n" + indent +
           "if (status != " + API + "_OK) return status;\n";
  };
  hooks.enqueue = [&](size_t stage, const std::string &event) {
    return api + "_enqueue(program, queue, " + std::to_string(stage) + ", " + event + ")";
  };
  std::string schedule = launchSchedule(plan, names, hooks);
  bool anyLocal = false;
  for (const PlanStage &stage : plan.stages) anyLocal = anyLocal || stage.localSize.has_value();

  std::map<std::string, std::string> values = sharedValues(plan, names, target);
  values.insert({
      {"BUILDOPTIONS", plan.buildOptions.empty() ? "" : " " + escapeC(plan.buildOptions, CText::Literal)},
      {"LIMITS", launchesKernels(plan) && anyLocal
                     ? substitute(section(target.sections, "limits_check"), {{"api", api}, {"API", API}})
                     : ""},
      {"SCHEDULE", schedule},
      {"TABLES", ndRangeTables(plan, target, names)},
      {"HELPERS", launchHelpers(plan, target, names, setsSizes)},
  });
  return renderHostPair(plan, target, values, ": the OpenCL kernel and its host code.");
}

} // namespace liftcc::exporter
