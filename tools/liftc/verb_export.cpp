// liftc export: C host code (OpenCL and CUDA) around a best kernel or a
// freshly generated one, for applications that do not link liftcc.

#include "codegen/generate.h"
#include "core/ir/transform.h"
#include "core/typecheck/typecheck.h"
#include "exporter/c_text.h"
#include "exporter/export.h"
#include "tools/liftc/program_loading.h"
#include "tools/liftc/resource_limits.h"
#include "tools/liftc/verbs.h"

#include <filesystem>
#include <ostream>
#include <set>

namespace liftcc::cli {

namespace fs = std::filesystem;

namespace {

std::string exportName(const CommandLine &cl, const std::string &fallback) {
  if (auto name = cl.value("name")) {
    if (!exporter::isCIdentifier(*name))
      throw UsageError("--name must be a C identifier (letters, digits, '_'; not a keyword), found '" + *name + "'");
    return *name;
  }
  return exporter::cIdentifierFrom(fallback);
}

std::vector<codegen::Target> exportTargets(const CommandLine &cl) {
  std::string target = cl.value("target").value_or("both");
  if (target == "both") return {codegen::Target::OpenCL, codegen::Target::CUDA};
  if (target == "opencl") return {codegen::Target::OpenCL};
  if (target == "cuda") return {codegen::Target::CUDA};
  throw UsageError("--target must be opencl, cuda or both, found '" + target + "'");
}

/// The kernel's function name in the exported source: the export's name,
/// unless the program already uses it (a stencil named as its file: heat.json
/// computing `heat`), then the first of name_kernel, name_kernel2, ... it
/// does not use. Only the embedded source sees it.
std::string kernelNameFor(const Program &program, const std::string &name) {
  std::set<std::string> taken;
  containsNode(program.body(), [&](const Expr &e) {
    if (e.is(ExprKind::UserFun)) taken.insert(e.userFun().name());
    return false;
  });
  for (const Expr &input : program.inputs()) taken.insert(input.name());
  for (const arith::Expr &size : program.sizes) taken.insert(size.varName());
  std::string kernel = name;
  for (int k = 1; taken.count(kernel); ++k) kernel = name + "_kernel" + (k > 1 ? std::to_string(k) : "");
  return kernel;
}

/// The plans of a program lowered by --opt at --size, one per target.
std::vector<exporter::ExportPlan> plansFromProgram(const CommandLine &cl, const std::string &path,
                                                   const std::string &name) {
  const auto [program, sizes, typed] = loadTypedProgram(cl, {});
  Program lowered = lowerWithRecipe(cl, typed);
  codegen::CodegenOptions options = parseCodegenOptions(cl);
  options.kernelName = kernelNameFor(program, name);
  // --local is the launch's work-group size too (as in the explorer); the
  // dimensions it leaves out are 1.
  std::optional<std::array<int64_t, 3>> local;
  if (cl.value("local")) {
    local = options.localSize;
    for (int64_t &l : *local) l = std::max<int64_t>(l, 1);
  }
  std::vector<std::pair<std::string, int64_t>> ordered;
  for (const arith::Expr &var : program.sizes) ordered.emplace_back(var.varName(), sizes.at(var.varName()));
  std::string how = "Generated from " + path;
  if (auto opt = cl.value("opt"))
    how += " with recipe " + *opt + (cl.value("tile") ? " (tile " + *cl.value("tile") + ")" : "");
  how += "; not tuned" + std::string(local ? " (work-group size from --local)" : "") + ".";

  std::vector<exporter::ExportPlan> plans;
  for (codegen::Target target : exportTargets(cl))
    plans.push_back(
        exporter::planFromKernel(codegen::generateKernel(lowered, target, options), name, ordered, local, {how}));
  return plans;
}

} // namespace

int runExport(const CommandLine &cl, std::ostream &out) {
  std::string source = cl.onlyPositional("best-kernel directory or program file");
  auto outDir = cl.value("out");
  if (!outDir) throw UsageError("--out DIR is required");
  std::vector<exporter::ExportPlan> plans;
  std::string name;
  if (fs::is_directory(source)) {
    for (const char *option :
         {"size", "opt", "tile", "coarsen", "window", "vector", "local", "target", "fuse", "time-tile"})
      if (cl.has(option))
        throw UsageError(std::string("--") + option + " applies to a program file; a best-kernel directory fixes it");
    plans.push_back(exporter::planFromBestKernel(source));
    name = exportName(cl, plans.back().programName);
  } else {
    name = exportName(cl, fs::path(source).stem().string());
    plans = plansFromProgram(cl, source, name);
  }
  std::vector<exporter::ExportedPair> pairs;
  for (const exporter::ExportPlan &plan : plans) pairs.push_back(exporter::exportPair(plan, name));
  for (const std::string &path : exporter::writePairs(pairs, *outDir)) out << "wrote " << path << "\n";
  return 0;
}

} // namespace liftcc::cli
