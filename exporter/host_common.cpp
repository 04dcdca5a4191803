#include "exporter/host_common.h"

#include "exporter/c_text.h"
#include "exporter/template_text.h"
#include "liftcc/version.h"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>

namespace liftcc::exporter {

using Role = codegen::KernelArg::Role;

int64_t elementBytes(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Bool: return 1;
  case ScalarKind::Int: return 4;
  case ScalarKind::Float: return 4;
  case ScalarKind::Double: return 8;
  }
  return 1;
}

std::string cArray(const std::array<int64_t, 3> &values) {
  return "{" + std::to_string(values[0]) + ", " + std::to_string(values[1]) + ", " + std::to_string(values[2]) + "}";
}

HostNames hostNames(const ExportPlan &plan, const std::string &prefix, const std::string &target,
                    const std::set<std::string> &reserved) {
  if (!isCIdentifier(prefix)) throw std::invalid_argument("the export name '" + prefix + "' is not a C identifier");
  HostNames names;
  names.api = prefix + "_" + target;
  names.API = upperCase(names.api);
  std::set<std::string> params = reserved, macros;
  auto paramName = [&](const std::string &name) {
    std::string p = isCIdentifier(name) ? name : cIdentifierFrom(name);
    while (params.count(p)) p += "_";
    params.insert(p);
    return p;
  };
  // Macro names are upper case, so names differing only in case would clash:
  // the later one gets its position appended.
  auto macroName = [&](const std::string &name, size_t position) {
    std::string m = names.API + "_" + upperCase(cIdentifierFrom(name));
    if (macros.count(m)) m += "_" + std::to_string(position);
    macros.insert(m);
    return m;
  };
  for (size_t i = 0; i < plan.sizes.size(); ++i) {
    names.sizeParam.push_back(paramName(plan.sizes[i].first));
    names.sizeMacro.push_back(macroName(plan.sizes[i].first, i));
  }
  for (size_t i = 0; i < plan.args.size(); ++i) {
    const PlanArg &arg = plan.args[i];
    if (arg.role == Role::Size) {
      // The kernel's size parameter is fed from the launch function's size parameter.
      size_t s = 0;
      while (s < plan.sizes.size() && plan.sizes[s].first != arg.name) ++s;
      names.argParam.push_back(s < plan.sizes.size() ? names.sizeParam[s] : arg.name);
      names.argMacro.push_back(s < plan.sizes.size() ? names.sizeMacro[s] : "");
    } else {
      names.argParam.push_back(paramName(arg.name));
      names.argMacro.push_back(macroName(arg.name, plan.sizes.size() + i));
    }
  }
  return names;
}

std::string sizeAndBufferMacros(const ExportPlan &plan, const HostNames &names) {
  std::string out = "/* The sizes the kernel was generated for: launches check them. */\n";
  for (size_t i = 0; i < plan.sizes.size(); ++i)
    out += "#define " + names.sizeMacro[i] + " " + std::to_string(plan.sizes[i].second) + "\n";
  if (plan.sizes.empty()) out += "/* (none: the program has no size variables) */\n";
  out += "\n/* Buffers, row-major: elements and the bytes a buffer needs at least. */\n";
  for (size_t i = 0; i < plan.args.size(); ++i) {
    const PlanArg &a = plan.args[i];
    if (a.role == Role::Size) continue;
    out += "#define " + names.argMacro[i] + "_COUNT " + std::to_string(a.count) + "\n";
    out += "#define " + names.argMacro[i] + "_BYTES ((size_t)" + std::to_string(a.count * elementBytes(a.kind)) + ")\n";
  }
  if (plan.iteration)
    out += "\n/* The kernel runs this many times, the output of each launch being the input of the next. */\n#define " +
           names.API + "_ITERATIONS " + std::to_string(plan.iteration->count) + "\n";
  return out;
}

std::string launchParams(const ExportPlan &plan, const HostNames &names, const std::string &bufferType) {
  std::string out;
  for (size_t i = 0; i < plan.args.size(); ++i)
    if (plan.args[i].role != Role::Size) out += ", " + bufferType + " " + names.argParam[i];
  for (size_t i = 0; i < plan.sizes.size(); ++i) out += ", int64_t " + names.sizeParam[i];
  return out;
}

std::string sizeCheck(const ExportPlan &plan, const HostNames &names, const std::string &indent) {
  if (plan.sizes.empty()) return "";
  std::string condition;
  for (size_t i = 0; i < plan.sizes.size(); ++i)
    condition += (i ? " || " : "") + names.sizeParam[i] + " != " + names.sizeMacro[i];
  return indent + "if (" + condition + ") return " + names.enumValue("ERROR_SIZE_MISMATCH") + ";\n";
}

std::string bufferArgumentChecks(const ExportPlan &plan, const HostNames &names, const std::string &nullValue,
                                 const std::string &indent) {
  std::string out;
  for (size_t i = 0; i < plan.args.size(); ++i) {
    if (plan.args[i].role == Role::Size) continue;
    out += indent + "if (" + names.argParam[i] + " == " + nullValue + ") return " +
           names.enumValue("ERROR_INVALID_ARGUMENT") + ";\n";
  }
  // Each output is written while the others and the inputs are read.
  for (size_t o : plan.outputArgs())
    for (size_t i = 0; i < plan.args.size(); ++i) {
      bool otherOutput = plan.args[i].role == Role::Output;
      if (plan.args[i].role == Role::Size || i == o || (otherOutput && i > o)) continue;
      out += indent + "if (" + names.argParam[i] + " == " + names.argParam[o] + ") return " +
             names.enumValue("ERROR_INVALID_ARGUMENT") + "; /* an output must not alias " +
             (otherOutput ? "another output" : "an input") + " */\n";
    }
  return out;
}

std::string kernelSourceDefinition(const ExportPlan &plan, const HostNames &names) {
  std::string text = "const char *const " + names.api + "_kernel_source[" + names.API + "_KERNEL_SOURCE_PARTS] = {\n";
  std::vector<std::string> pieces = literalPieces(plan.source);
  for (size_t i = 0; i < pieces.size(); ++i) text += (i ? ",\n" : "") + cStringLiteral(pieces[i], "    ");
  return text + "};\n";
}

std::string paramValue(const ExportPlan &plan, const HostNames &names, const StageParam &param) {
  if (param.isSize) return names.sizeParam.at(param.index);
  if (param.index < plan.args.size()) return names.argParam[param.index];
  return "program->temporaries[" + std::to_string(param.index - plan.args.size()) + "]";
}

bool launchesKernels(const ExportPlan &plan) {
  return !plan.iteration || plan.iteration->count > 0 || plan.iteration->epilogueStages > 0 ||
         plan.iteration->prologueStages > 0;
}

namespace {

/// The C expression of buffer `index` (StageParam's): an argument's
/// parameter or a temporary of the program.
std::string bufferValue(const ExportPlan &plan, const HostNames &names, size_t index) {
  return paramValue(plan, names, StageParam{false, index});
}

/// Its size in bytes: an argument's macro, a temporary's count.
std::string bufferBytes(const ExportPlan &plan, const HostNames &names, size_t index) {
  if (index < plan.args.size()) return names.argMacro[index] + "_BYTES";
  const PlanArg &buffer = plan.buffer(index);
  return std::to_string(buffer.count * elementBytes(buffer.kind));
}

/// Whether the phases (the one loop) launch a kernel computing component c.
bool computedSomewhere(const ExportPlan &plan, size_t c) {
  for (size_t p = 0; p < std::max<size_t>(1, plan.iteration->phases.size()); ++p) {
    const std::vector<std::optional<size_t>> &carried = plan.iteration->carriedIn(p);
    if (carried.empty() || !carried.at(c)) return true;
  }
  return false;
}
} // namespace

ScratchLayout scratchLayout(const ExportPlan &plan) {
  ScratchLayout layout;
  if (!plan.iteration) return layout;
  const std::vector<size_t> outputs = plan.stateWritten();
  const size_t components = plan.iteration->inputArgs.size();
  auto bytes = [&](size_t c) {
    return plan.buffer(outputs.at(c)).count * elementBytes(plan.buffer(outputs.at(c)).kind);
  };
  if (!plan.iteration->carries()) {
    for (size_t c = 0; c < components; ++c) {
      layout.first.push_back(c);
      layout.count.push_back(1);
      layout.slotComponent.push_back(c);
    }
    return layout;
  }
  layout.first.assign(components, 0);
  layout.count.assign(components, 0);
  std::vector<bool> placed(components, false);
  for (size_t c = 0; c < components; ++c) {
    if (placed[c]) continue;
    const size_t first = layout.slotComponent.size();
    size_t slots = 0;
    for (size_t d = c; d < components; ++d)
      if (!placed[d] && bytes(d) == bytes(c)) slots += computedSomewhere(plan, d) ? 2 : 1;
    for (size_t d = c; d < components; ++d)
      if (!placed[d] && bytes(d) == bytes(c)) {
        placed[d] = true;
        layout.first[d] = first;
        layout.count[d] = slots;
      }
    layout.slotComponent.insert(layout.slotComponent.end(), slots, c);
  }
  return layout;
}

std::string scratchNote(const ExportPlan &plan) {
  if (plan.iteration && plan.iteration->carries())
    return "the buffers an iterate's state rotates through (a carried component passes its buffer on)";
  return "the second buffer of each iterated array";
}

namespace {

/// The C of an iterate's launches around the stages: the declarations
/// before the loops, per launch of each phase (of the one loop) the targets
/// and the next state, and what follows the loops.
struct LoopText {
  std::string start, end;
  std::vector<std::string> targets, advance; ///< per phase
  bool endGivesEvent = false;                ///< `end` copies: its last copy gives the caller's event
};

size_t phaseCount(const ExportPlan &plan) { return std::max<size_t>(1, plan.iteration->phases.size()); }

using VariableName = std::function<std::string(const std::string &, size_t)>;

std::string indented(const std::string &text, const std::string &indent) {
  std::string out;
  size_t from = 0;
  while (from < text.size()) {
    size_t to = text.find('\n', from);
    to = to == std::string::npos ? text.size() : to + 1;
    out += indent + text.substr(from, to - from);
    from = to;
  }
  return out;
}

/// Without carried components: each component's target alternates between
/// its output and its scratch buffer, so that the last launch writes the output.
LoopText exchangeText(const ExportPlan &plan, const HostNames &names, const ScheduleHooks &hooks,
                      const std::vector<size_t> &outputs, const VariableName &variable) {
  TemplateSections shared = templateFile("host.c.in");
  const std::string count = std::to_string(plan.iteration->count);
  std::string sources, targets, advance;
  LoopText text;
  for (size_t c = 0; c < plan.iteration->inputArgs.size(); ++c) {
    std::map<std::string, std::string> values{{"BUFFER", hooks.bufferType},
                                              {"SOURCE", variable("source", c)},
                                              {"TARGET", variable("target", c)},
                                              {"INPUT", bufferValue(plan, names, plan.iteration->inputArgs[c])},
                                              {"OUTPUT", bufferValue(plan, names, outputs.at(c))},
                                              {"COUNT", count},
                                              {"SLOT", std::to_string(c)}};
    sources += substitute(section(shared, "iteration_source"), values);
    targets += substitute(section(shared, "iteration_target"), values);
    advance += substitute(section(shared, "iteration_advance"), values);
  }
  text.start = substitute(section(shared, "iteration_start"), {{"COUNT", count}, {"SOURCES", sources}});
  text.targets.assign(phaseCount(plan), targets);
  text.advance.assign(phaseCount(plan), advance);
  return text;
}

/// With carried components (ScratchLayout): per launch the computed
/// components' targets (a component's output at the launch that computes its
/// last value, else a free scratch buffer) and the next state (carried
/// components take over their source's buffer); after the loops, the
/// components whose last value is an input's copied into their outputs.
LoopText rotationText(const ExportPlan &plan, const HostNames &names, const ScheduleHooks &hooks,
                      const std::vector<size_t> &outputs, const VariableName &variable) {
  TemplateSections shared = templateFile("host.c.in");
  const size_t components = plan.iteration->inputArgs.size();
  const ScratchLayout layout = scratchLayout(plan);
  const std::string count = std::to_string(plan.iteration->count);
  LoopText text;
  std::string sources, busy;
  for (size_t c = 0; c < components; ++c) {
    std::map<std::string, std::string> values{{"BUFFER", hooks.bufferType},
                                              {"SOURCE", variable("source", c)},
                                              {"TARGET", variable("target", c)},
                                              {"INPUT", bufferValue(plan, names, plan.iteration->inputArgs[c])}};
    sources += substitute(section(shared, computedSomewhere(plan, c) ? "iteration_source" : "rotation_carried_source"),
                          values);
    busy += "      busy[nbusy++] = " + variable("source", c) + ";\n";
  }
  // Where each component's last value is computed (launch, component), or
  // nothing when it is an input's: that launch writes it to the output.
  std::vector<std::optional<std::pair<int64_t, size_t>>> origin(components);
  std::vector<int64_t> phaseStart;
  int64_t launch = 0;
  for (size_t p = 0; p < phaseCount(plan); ++p) {
    phaseStart.push_back(launch);
    const int64_t launches = plan.iteration->phases.empty() ? plan.iteration->count : plan.iteration->phases[p].count;
    const std::vector<std::optional<size_t>> &carried = plan.iteration->carriedIn(p);
    for (int64_t k = 0; k < launches; ++k, ++launch) {
      std::vector<std::optional<std::pair<int64_t, size_t>>> next(components);
      for (size_t c = 0; c < components; ++c)
        next[c] =
            !carried.empty() && carried[c] ? origin[*carried[c]] : std::optional(std::pair<int64_t, size_t>{launch, c});
      origin = std::move(next);
    }
  }
  for (size_t p = 0; p < phaseCount(plan); ++p) {
    const std::vector<std::optional<size_t>> &carried = plan.iteration->carriedIn(p);
    auto from = [&](size_t c) { return carried.empty() ? std::nullopt : carried[c]; };
    const int64_t first = phaseStart[p], end = p + 1 < phaseStart.size() ? phaseStart[p + 1] : launch;
    std::string picks, next, assign;
    for (size_t c = 0; c < components; ++c) {
      next += (c ? ", " : "") + variable("next", c) + " = " +
              (from(c) ? variable("source", *from(c)) : variable("target", c));
      assign += "        " + variable("source", c) + " = " + variable("next", c) + ";\n";
      if (from(c)) continue;
      std::string pick = "      ";
      for (size_t d = 0; d < components; ++d)
        if (origin[d] && origin[d]->second == c && origin[d]->first >= first && origin[d]->first < end)
          pick += "if (step == " + std::to_string(origin[d]->first) + ") " + variable("target", c) + " = " +
                  bufferValue(plan, names, outputs.at(d)) + ";\n      else ";
      picks += pick + variable("target", c) + " = " + names.api + "_free_scratch(program->scratch + " +
               std::to_string(layout.first[c]) + ", " + std::to_string(layout.count[c]) + ", busy, nbusy);\n" +
               "      busy[nbusy++] = " + variable("target", c) + ";\n";
    }
    picks.pop_back(); // the section's own line break ends the last pick
    text.targets.push_back(substitute(section(shared, "rotation_targets"), {{"BUSYSOURCES", busy}, {"PICKS", picks}}));
    text.advance.push_back(substitute(section(shared, "rotation_advance"),
                                      {{"BUFFER", hooks.bufferType}, {"NEXT", next}, {"ASSIGN", assign}}));
  }
  // Components whose last value is an input's (fewer launches than the
  // carries need) are copied after the launches; the last copy gives the
  // event, unless a stage after the loop follows.
  std::vector<size_t> copied;
  for (size_t c = 0; c < components; ++c)
    if (!origin[c]) copied.push_back(c);
  std::string copies;
  for (size_t c : copied)
    copies += indented(hooks.copy(variable("source", c), bufferValue(plan, names, outputs.at(c)),
                                  bufferBytes(plan, names, outputs.at(c)),
                                  c == copied.back() && plan.iteration->epilogueStages == 0 ? "done" : "NULL"),
                       "  ");
  text.start = substitute(
      section(shared, "rotation_start"),
      {{"COUNT", count}, {"SOURCES", sources}, {"BUFFER", hooks.bufferType}, {"BUSY", std::to_string(2 * components)}});
  text.end = copied.empty() ? std::string() : substitute(section(shared, "rotation_copies"), {{"COPIES", copies}});
  text.endGivesEvent = !copied.empty() && plan.iteration->epilogueStages == 0;
  return text;
}

/// The stages [range.first, range.second), each launched once (`bind`: with
/// their parameters bound first), the last of all the plan's giving the
/// caller's event.
std::string onceText(const ExportPlan &plan, const HostNames &names, const ScheduleHooks &hooks, bool bind,
                     const std::string &indent, std::pair<size_t, size_t> range) {
  std::string text;
  const std::string OK = names.enumValue("OK");
  const std::string when = range.first == 0 ? "before" : "after";
  for (size_t s = range.first; s < range.second; ++s) {
    if (bind)
      for (size_t p = 0; p < plan.stages[s].params.size(); ++p) {
        const StageParam &param = plan.stages[s].params[p];
        text += hooks.bind(s, p, param.isSize, paramValue(plan, names, param), indent);
      }
    text += indent + "/* " + plan.stages[s].kernelName + ", once " + when + " the loop */\n";
    text += indent + "status = " + hooks.enqueue(s, s + 1 == plan.stages.size() ? "done" : "NULL") + ";\n";
    text += indent + "if (status != " + OK + ") return status;\n";
  }
  return text;
}

/// The stages after the loop (none without them), each launched once, the
/// last giving the caller's event; `bind`: with their parameters bound first.
std::string epilogueText(const ExportPlan &plan, const HostNames &names, const ScheduleHooks &hooks, bool bind,
                         const std::string &indent) {
  return onceText(plan, names, hooks, bind, indent, {plan.loopEnd(), plan.stages.size()});
}

/// The stages computing the state before the loop (none without them), each launched once.
std::string prologueText(const ExportPlan &plan, const HostNames &names, const ScheduleHooks &hooks, bool bind) {
  return onceText(plan, names, hooks, bind, "  ", {0, plan.loopBegin()});
}

/// An iterate of zero steps: the inputs copied to the state's outputs, then the stages after the loop.
std::string zeroIterationsText(const ExportPlan &plan, const HostNames &names, const ScheduleHooks &hooks) {
  const std::vector<size_t> outputs = plan.stateWritten(), &iterated = plan.iteration->inputArgs;
  const bool epilogue = plan.iteration->epilogueStages > 0;
  std::string text =
      prologueText(plan, names, hooks, true) + "  /* Zero iterations: the loop's result is its start. */\n";
  for (size_t c = 0; c < iterated.size(); ++c)
    text +=
        hooks.copy(bufferValue(plan, names, iterated[c]), bufferValue(plan, names, outputs.at(c)),
                   bufferBytes(plan, names, outputs.at(c)), c + 1 == iterated.size() && !epilogue ? "done" : "NULL");
  return text + epilogueText(plan, names, hooks, true, "  ") + "  return " + names.enumValue("OK") + ";\n";
}

} // namespace

std::string launchSchedule(const ExportPlan &plan, const HostNames &names, const ScheduleHooks &hooks) {
  const std::string OK = names.enumValue("OK");
  const std::vector<size_t> outputs = plan.stateWritten();
  const std::vector<size_t> iterated = plan.iteration ? plan.iteration->inputArgs : std::vector<size_t>{};
  const bool epilogue = plan.iteration && plan.iteration->epilogueStages > 0;
  if (plan.iteration && plan.iteration->count == 0) return zeroIterationsText(plan, names, hooks);

  // Component c of an iteration reads `source` and writes `target` (with a
  // suffix when the state has several components).
  auto variable = [&](const std::string &base, size_t c) {
    return iterated.size() == 1 ? base : base + "_" + std::to_string(c);
  };
  // The iterated inputs and their outputs change between launches: bound in the loop.
  auto swappedAs = [&](const StageParam &p) -> std::optional<std::string> {
    if (p.isSize) return std::nullopt;
    for (size_t c = 0; c < iterated.size(); ++c) {
      if (p.index == outputs.at(c)) return variable("target", c);
      if (p.index == iterated[c]) return variable("source", c);
    }
    return std::nullopt;
  };
  // The stages after the loop read its result where the loop leaves it, the state's outputs: bound once.
  std::string text;
  for (size_t s = 0; s < plan.stages.size(); ++s)
    for (size_t p = 0; p < plan.stages[s].params.size(); ++p) {
      const StageParam &param = plan.stages[s].params[p];
      if (s < plan.loopBegin() || s >= plan.loopEnd() || !swappedAs(param))
        text += hooks.bind(s, p, param.isSize, paramValue(plan, names, param), "  ");
    }
  auto stageComment = [&](size_t s, const std::string &indent) {
    return plan.stages.size() > 1 ? indent + "/* " + plan.stages[s].kernelName + " */\n" : std::string();
  };
  if (!plan.iteration) {
    for (size_t s = 0; s + 1 < plan.stages.size(); ++s) {
      text += stageComment(s, "  ") + "  status = " + hooks.enqueue(s, "NULL") + ";\n";
      text += "  if (status != " + OK + ") return status;\n";
    }
    return text + stageComment(plan.stages.size() - 1, "  ") + "  return " +
           hooks.enqueue(plan.stages.size() - 1, "done") + ";\n";
  }

  std::string count = std::to_string(plan.iteration->count);
  text += prologueText(plan, names, hooks, false); // the state the loop starts from
  const ScratchLayout layout = scratchLayout(plan);
  for (size_t slot = 0; plan.iteration->count >= 2 && slot < layout.slotComponent.size(); ++slot)
    text += hooks.allocateScratch(slot, bufferBytes(plan, names, outputs.at(layout.slotComponent[slot])));
  TemplateSections shared = templateFile("host.c.in");
  const LoopText loop = plan.iteration->carries() ? rotationText(plan, names, hooks, outputs, variable)
                                                  : exchangeText(plan, names, hooks, outputs, variable);
  text += loop.start;
  // One loop per phase (one for a single loop), each launching its stages;
  // the last launch of all gives the caller's event.
  std::vector<ExportPlan::Iteration::Phase> phases = plan.iteration->phases;
  if (phases.empty())
    phases.push_back({plan.iteration->count, plan.loopEnd() - plan.loopBegin(), plan.iteration->carriedFrom});
  size_t first = plan.loopBegin();
  for (size_t p = 0; p < phases.size(); ++p) {
    const bool lastPhase = p + 1 == phases.size();
    const std::string phaseCount = std::to_string(phases[p].count);
    if (phases.size() > 1) text += "    /* phase " + std::to_string(p) + " */\n";
    text += substitute(section(shared, "iteration_loop"), {{"PHASECOUNT", phaseCount}}) + loop.targets.at(p);
    for (size_t s = first; s < first + phases[p].stages; ++s) {
      text += stageComment(s, "      ");
      for (size_t q = 0; q < plan.stages[s].params.size(); ++q)
        if (std::optional<std::string> value = swappedAs(plan.stages[s].params[q]))
          text += hooks.bind(s, q, false, *value, "      ");
      // Where the last phase carries components, the copies after the launches give the event.
      bool last = lastPhase && s + 1 == first + phases[p].stages && !loop.endGivesEvent && !epilogue;
      text += "      status = " + hooks.enqueue(s, last ? "k == " + phaseCount + " - 1 ? done : NULL" : "NULL") + ";\n";
      text += "      if (status != " + OK + ") return status;\n";
    }
    text += loop.advance.at(p) + section(shared, "iteration_loop_end");
    first += phases[p].stages;
  }
  return text + loop.end + epilogueText(plan, names, hooks, false, "    ") +
         substitute(section(shared, "iteration_end"), {{"API", names.API}});
}

std::string provenanceComment(const ExportPlan &plan, const std::string &what) {
  // Every line may hold text from a best-kernel directory (device, key,
  // program and size names, paths): blockComment escapes each.
  std::vector<std::string> lines{what, "",
                                 "Generated by liftc export (liftcc " LIFTCC_VERSION_STRING ") from program '" +
                                     plan.programName + "', kernel '" + plan.kernelName +
                                     "'. Do not edit: export again instead.",
                                 "Needs no liftcc at run time."};
  lines.insert(lines.end(), plan.provenance.begin(), plan.provenance.end());
  std::string sizes;
  for (const auto &[name, value] : plan.sizes)
    sizes += (sizes.empty() ? "" : ", ") + name + " = " + std::to_string(value);
  lines.push_back("Sizes: " + (sizes.empty() ? std::string("none") : sizes) + ".");
  std::string launch = "NDRange " + std::to_string(plan.globalSize[0]);
  for (int d = 1; d < plan.dims; ++d) launch += " x " + std::to_string(plan.globalSize[d]);
  launch += " work-items";
  if (plan.localSize) {
    launch += ", work-groups of " + std::to_string((*plan.localSize)[0]);
    for (int d = 1; d < plan.dims; ++d) launch += " x " + std::to_string((*plan.localSize)[d]);
  }
  if (plan.stages.size() > 1)
    launch = std::to_string(plan.stages.size()) + " kernels in order (" + std::to_string(plan.temporaries.size()) +
             (plan.temporaries.size() == 1 ? " temporary" : " temporaries") + "), the last one's " + launch;
  if (plan.iteration && (plan.iteration->epilogueStages > 0 || plan.iteration->prologueStages > 0))
    launch += "; kernels " + std::to_string(plan.loopBegin() + 1) + " to " + std::to_string(plan.loopEnd()) +
              " launched " + std::to_string(plan.iteration->count) + " times (iterate), the others once around them";
  else if (plan.iteration)
    launch += ", launched " + std::to_string(plan.iteration->count) + " times (iterate)";
  lines.push_back("Launch: " + launch + ".");
  return blockComment(lines);
}

} // namespace liftcc::exporter
