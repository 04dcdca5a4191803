#include "tools/liftc/program_loading.h"

#include "core/json/program_json.h"
#include "rewrite/recipes.h"

#include <fstream>
#include <sstream>

namespace liftcc::cli {

Program loadProgram(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return readProgram(text.str());
  } catch (const JsonError &e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

std::map<std::string, int64_t> sizeBindings(const CommandLine &cl) {
  std::map<std::string, int64_t> sizes;
  for (const std::string &text : cl.values("size"))
    for (const auto &[name, value] : parseSizeBindings(text))
      if (!sizes.emplace(name, value).second) throw UsageError("size " + name + " given twice");
  return sizes;
}

void checkSizeBindings(const Program &program, const std::map<std::string, int64_t> &sizes) {
  std::string missing;
  for (const arith::Expr &var : program.sizes) {
    auto it = sizes.find(var.varName());
    if (it == sizes.end()) {
      missing += (missing.empty() ? "" : ", ") + var.varName();
      continue;
    }
    // A range bound may mention other sizes, so it is evaluated with all of them.
    const arith::Range &range = var.varRange();
    auto bound = [&](const std::shared_ptr<const arith::Expr> &b) { return arith::evaluate(*b, sizes); };
    if (range.lo && it->second < bound(range.lo))
      throw UsageError("size " + var.varName() + " = " + std::to_string(it->second) + " is below its minimum " +
                       std::to_string(bound(range.lo)));
    if (range.hi && it->second > bound(range.hi))
      throw UsageError("size " + var.varName() + " = " + std::to_string(it->second) + " is above its maximum " +
                       std::to_string(bound(range.hi)));
  }
  if (!missing.empty()) throw UsageError("missing --size for " + missing);
  for (const auto &[name, value] : sizes) {
    bool known = false;
    for (const arith::Expr &var : program.sizes) known = known || var.varName() == name;
    if (!known) {
      std::string declared;
      for (const arith::Expr &var : program.sizes) declared += (declared.empty() ? "" : ", ") + var.varName();
      throw UsageError("the program has no size " + name + " (its sizes: " + (declared.empty() ? "none" : declared) + ")");
    }
  }
}

Program lowerWithRecipe(const CommandLine &cl, const Program &typed) {
  auto opt = cl.value("opt");
  if (!opt) {
    if (cl.value("tile")) throw UsageError("--tile needs --opt tiled or --opt local");
    return typed;
  }
  auto recipe = rewrite::parseRecipe(*opt);
  if (!recipe) throw UsageError("--opt must be plain, tiled or local, found '" + *opt + "'");
  rewrite::RecipeOptions options;
  if (auto tile = cl.value("tile")) {
    uint64_t k = parseUnsigned("tile", *tile);
    if (k < 1 || k > 1024) throw UsageError("--tile must be between 1 and 1024");
    options.tileOutputs = static_cast<int64_t>(k);
  }
  return rewrite::applyRecipe(typed, *recipe, options);
}

codegen::Target parseTarget(const CommandLine &cl) {
  std::string target = cl.value("target").value_or("opencl");
  if (target == "opencl") return codegen::Target::OpenCL;
  if (target == "cuda") return codegen::Target::CUDA;
  throw UsageError("--target must be opencl or cuda, found '" + target + "'");
}

codegen::CodegenOptions parseCodegenOptions(const CommandLine &cl) {
  codegen::CodegenOptions options;
  if (auto name = cl.value("kernel-name")) options.kernelName = *name;
  if (auto local = cl.value("local")) {
    size_t d = 0, start = 0;
    while (start <= local->size()) {
      size_t comma = local->find(',', start);
      std::string item = local->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (d >= 3) throw UsageError("--local takes at most 3 sizes");
      uint64_t value = parseUnsigned("local", item);
      if (value < 1 || value > 4096) throw UsageError("--local sizes must be between 1 and 4096, found " + item);
      options.localSize[d++] = static_cast<int64_t>(value);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return options;
}

} // namespace liftcc::cli
