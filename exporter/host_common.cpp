#include "exporter/host_common.h"

#include "exporter/c_text.h"
#include "liftcc/version.h"

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
  size_t output = plan.outputArg();
  for (size_t i = 0; i < plan.args.size(); ++i) {
    if (plan.args[i].role == Role::Size) continue;
    out += indent + "if (" + names.argParam[i] + " == " + nullValue + ") return " +
           names.enumValue("ERROR_INVALID_ARGUMENT") + ";\n";
    if (i != output)
      out += indent + "if (" + names.argParam[i] + " == " + names.argParam[output] + ") return " +
             names.enumValue("ERROR_INVALID_ARGUMENT") + "; /* the output must not alias an input */\n";
  }
  return out;
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
  if (plan.iteration) launch += ", launched " + std::to_string(plan.iteration->count) + " times (iterate)";
  lines.push_back("Launch: " + launch + ".");
  return blockComment(lines);
}

} // namespace liftcc::exporter
