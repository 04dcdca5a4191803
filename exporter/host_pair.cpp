#include "exporter/host_pair.h"

#include "exporter/c_text.h"

namespace liftcc::exporter {

using Role = codegen::KernelArg::Role;

TargetTemplates targetTemplates(const std::string &file) {
  TargetTemplates target;
  target.sections = templateFile(file);
  target.words = templateWords(section(target.sections, "names"));
  return target;
}

namespace {

/// The launch function's check of each buffer argument's size.
std::string bufferSizeChecks(const ExportPlan &plan, const HostNames &names) {
  const std::string check = section(templateFile("host.c.in"), "buffer_size_check");
  std::string text;
  for (size_t i = 0; i < plan.args.size(); ++i)
    if (plan.args[i].role != Role::Size)
      text += substitute(
          check, {{"api", names.api}, {"API", names.API}, {"PARAM", names.argParam[i]}, {"MACRO", names.argMacro[i]}});
  return text;
}

} // namespace

std::map<std::string, std::string> sharedValues(const ExportPlan &plan, const HostNames &names,
                                                const TargetTemplates &target) {
  std::map<std::string, std::string> values = target.words;
  std::string kernelNames, temporaryBytes;
  for (size_t i = 0; i < plan.stages.size(); ++i)
    kernelNames += (i ? ", \"" : "\"") + escapeC(plan.stages[i].kernelName, CText::Literal) + "\"";
  for (size_t t = 0; t < plan.temporaries.size(); ++t)
    temporaryBytes +=
        (t ? ", " : "") + std::to_string(plan.temporaries[t].count * elementBytes(plan.temporaries[t].kind));
  values.insert({
      {"api", names.api},
      {"API", names.API},
      {"MACROS", sizeAndBufferMacros(plan, names)},
      {"PARAMS", launchParams(plan, names, values.at("BUFFER"))},
      {"SOURCE", kernelSourceDefinition(plan, names)},
      {"SOURCEPARTS", std::to_string(literalPieces(plan.source).size())},
      {"KERNELCOUNT", std::to_string(plan.stages.size())},
      {"KERNELNAMES", kernelNames},
      {"TEMPORARYSLOTS", std::to_string(std::max<size_t>(1, plan.temporaries.size()))},
      {"SCRATCHSLOTS", std::to_string(std::max<size_t>(1, scratchLayout(plan).slotComponent.size()))},
      {"SCRATCHNOTE", scratchNote(plan)},
      {"TEMPORARYNOTE", plan.temporaries.empty()
                            ? "none: one kernel"
                            : "what the kernels pass between them, " + values.at("MADE") + " at build"},
      {"TEMPORARYCOUNT", std::to_string(plan.temporaries.size())},
      {"TEMPORARYBYTES", temporaryBytes},
      {"BUFFERCHECKS", bufferArgumentChecks(plan, names, values.at("NO_BUFFER"), "  ")},
      {"SIZECHECK", sizeCheck(plan, names, "  ")},
      {"BUFFERSIZES", bufferSizeChecks(plan, names)},
  });
  // The scratch picker, only where a schedule calls it (an unused static function is a warning).
  const bool rotates = plan.iteration && plan.iteration->carries() && plan.iteration->count >= 1;
  values["ROTATION"] = rotates ? substitute(section(templateFile("host.c.in"), "rotation_function"), values) : "";
  values["TEMPORARIES"] = plan.temporaries.empty() ? "" : substitute(section(target.sections, "temporaries"), values);
  return values;
}

ScheduleHooks templateHooks(const TargetTemplates &target, const HostNames &names) {
  ScheduleHooks hooks;
  hooks.bufferType = target.words.at("BUFFER");
  hooks.copy = [copy = section(target.sections, "copy_input"), API = names.API](
                   const std::string &from, const std::string &to, const std::string &bytes, const std::string &event) {
    return substitute(copy, {{"API", API}, {"FROM", from}, {"TO", to}, {"BYTES", bytes}, {"EVENT", event}});
  };
  hooks.allocateScratch = [allocate = section(target.sections, "allocate_scratch"),
                           API = names.API](size_t slot, const std::string &bytes) {
    return substitute(allocate, {{"API", API}, {"BYTES", bytes}, {"SLOT", std::to_string(slot)}});
  };
  return hooks;
}

ExportedPair renderHostPair(const ExportPlan &plan, const TargetTemplates &target,
                            std::map<std::string, std::string> values, const std::string &what) {
  // The target's parts of host.c.in, each filling the placeholder of its name in upper case.
  for (const char *part : {"header_includes", "status_values", "header_program", "header_functions", "source_includes",
                           "program_fields", "status_strings", "release", "definitions"})
    values[upperCase(part)] = substitute(section(target.sections, part), values);
  TemplateSections shared = templateFile("host.c.in");
  ExportedPair pair;
  pair.headerFile = values.at("api") + ".h";
  pair.sourceFile = values.at("api") + ".c";
  values["COMMENT"] = provenanceComment(plan, pair.headerFile + what);
  pair.header = substitute(section(shared, "header"), values);
  values["COMMENT"] = provenanceComment(plan, pair.sourceFile + what);
  pair.source = substitute(section(shared, "source"), values);
  return pair;
}

} // namespace liftcc::exporter
