#include "tools/liftc/program_loading.h"

#include "core/io/safe_file.h"
#include "core/json/program_json.h"
#include "core/typecheck/type_error.h"
#include "core/typecheck/typecheck.h"
#include "rewrite/recipes.h"
#include "tools/liftc/resource_limits.h"
#include "tools/liftc/strategy_options.h"

#include <algorithm>
#include <optional>

namespace liftcc::cli {

Program loadProgram(const std::string &path) {
  std::string text = io::readFileCapped(path, kMaxProgramFileBytes, "program file");
  try {
    return readProgram(text);
  } catch (const JsonError &e) {
    throw std::runtime_error(io::shown(path, 200) + ": " + e.what());
  }
}

std::map<std::string, int64_t> sizeBindings(const CommandLine &cl) {
  std::map<std::string, int64_t> sizes;
  for (const std::string &text : cl.values("size"))
    for (const auto &[name, value] : parseSizeBindings(text))
      if (!sizes.emplace(name, value).second) throw UsageError("size " + name + " given twice");
  return sizes;
}

LoadedProgram loadTypedProgram(const CommandLine &cl, ProgramNeeds needs) {
  const std::string &path = cl.onlyPositional("program file");
  Program program = loadProgram(path);
  std::map<std::string, int64_t> sizes = sizeBindings(cl);
  Program typed = [&] {
    try {
      return sizes.empty() && !needs.sizes ? typeCheck(program) : driver::typeCheckAtSizes(program, sizes);
    } catch (const driver::InputError &e) {
      throw UsageError(e.what());
    } catch (const TypeError &e) {
      throw std::runtime_error(io::shown(path, 200) + ": " + e.what());
    }
  }();
  if (needs.kernels) checkIterationCount(typed, sizes);
  return {std::move(program), std::move(sizes), std::move(typed)};
}

namespace {

/// The counts of a comma-separated option value "a[,b[,c]]" (--coarsen,
/// --tile, --local), in order, each within `range`; a fourth is refused
/// with `tooMany`. `given`: how many there were.
struct CountList {
  std::array<int64_t, 3> values{0, 0, 0};
  size_t given = 0;
};
CountList parseCountList(const std::string &option, const std::string &text, CountRange range,
                         const std::string &tooMany) {
  CountList list;
  for (size_t start = 0;;) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (list.given >= 3) throw UsageError(tooMany);
    list.values[list.given++] = static_cast<int64_t>(parseCount(option, item, range));
    if (comma == std::string::npos) return list;
    start = comma + 1;
  }
}

} // namespace

void parseCoarsening(const CommandLine &cl, std::optional<rewrite::Recipe> recipe, rewrite::RecipeOptions &options) {
  bool coarsened = recipe == rewrite::Recipe::Coarsened;
  for (const char *option : {"coarsen", "window"})
    if (cl.value(option) && !coarsened) throw UsageError(std::string("--") + option + " needs --opt coarsened");
  if (auto factors = cl.value("coarsen")) {
    CountList list = parseCountList("--coarsen", *factors, {1, 64}, "--coarsen takes at most 3 factors (x,y,z)");
    options.coarsen = {1, 1, 1};
    for (size_t d = 0; d < list.given; ++d) options.coarsen[d] = list.values[d];
  }
  if (auto window = cl.value("window")) {
    if (*window != "private" && *window != "global")
      throw UsageError("--window must be private or global, found '" + io::shown(*window) + "'");
    options.privateWindow = *window == "private";
  }
}

void parseVectorWidth(const CommandLine &cl, std::optional<rewrite::Recipe> recipe, rewrite::RecipeOptions &options) {
  auto width = cl.value("vector");
  if (!width) return;
  if (recipe != rewrite::Recipe::Plain && recipe != rewrite::Recipe::Coarsened &&
      recipe != rewrite::Recipe::StreamLocal)
    throw UsageError("--vector needs --opt plain, coarsened or streamLocal");
  uint64_t value = parseCount("--vector", *width, {2, 16});
  if (!isVectorWidth(static_cast<int64_t>(value)))
    throw UsageError("--vector must be 2, 4, 8 or 16 (vector lanes along x), found " + *width);
  options.vectorWidth = static_cast<int64_t>(value);
}

void parseTile(const std::string &text, rewrite::RecipeOptions &options) {
  // --tile K (every dimension) or --tile X,Y[,Z] (per dimension, x first).
  CountList list = parseCountList("--tile", text, {1, 1024}, "--tile takes at most 3 extents (x,y,z)");
  if (list.given == 1)
    options.tileOutputs = list.values[0];
  else
    options.tileExtents = list.values;
}

int64_t parseTimeTile(const CommandLine &cl) {
  auto text = cl.value("time-tile");
  if (!text) return 1;
  uint64_t t = parseCount("--time-tile", *text, {1, 64}); // steps per kernel
  return static_cast<int64_t>(t);
}

std::optional<rewrite::Recipe> parseRecipeOption(const CommandLine &cl) {
  auto opt = cl.value("opt");
  if (!opt) return std::nullopt;
  auto recipe = rewrite::parseRecipe(*opt);
  if (!recipe)
    throw UsageError("--opt must be plain, tiled, local, coarsened or stream, found '" + io::shown(*opt) + "'");
  return recipe;
}

Program lowerWithRecipe(const CommandLine &cl, const Program &typed) {
  if (!cl.value("opt")) {
    if (cl.value("tile")) throw UsageError("--tile needs --opt tiled or --opt local");
    if (cl.value("mapping")) throw UsageError("--mapping needs --opt (it maps the recipe's map nest)");
    if (cl.has("fuse")) throw UsageError("--fuse needs --opt (it chooses how the recipe lowers intermediates)");
    if (cl.value("time-tile")) throw UsageError("--time-tile needs --opt (the recipe lowers each time tile)");
    rewrite::RecipeOptions ignored;
    parseCoarsening(cl, std::nullopt, ignored); // refuses --coarsen and --window without --opt coarsened
    parseVectorWidth(cl, std::nullopt, ignored);
    return typed;
  }
  return driver::lower(typed, strategyOfOptions(cl)); // pass 3 of the pipeline
}

driver::Configuration strategyOfOptions(const CommandLine &cl) {
  driver::Configuration config;
  std::optional<rewrite::Recipe> recipe = parseRecipeOption(cl);
  if (recipe) config.recipe = *recipe;
  // The options as given, the recipes' defaults otherwise (8 outputs per
  // tile, coarsening 8x1x1). Only the recipes that use them carry them, so
  // that a configuration's key and record stay those of its recipe.
  rewrite::RecipeOptions given;
  parseCoarsening(cl, recipe, given);
  if (config.recipe == rewrite::Recipe::Coarsened) {
    config.coarsen = given.coarsen;
    config.privateWindow = given.privateWindow;
  }
  const bool tiles = config.recipe == rewrite::Recipe::Tiled || config.recipe == rewrite::Recipe::Local ||
                     config.recipe == rewrite::Recipe::StreamLocal ||
                     config.recipe == rewrite::Recipe::TimeTiledLocal ||
                     config.recipe == rewrite::Recipe::TimeTiledStream;
  if (auto tile = cl.value("tile")) {
    // A recipe without tiles would ignore it, and tune would record a key
    // naming a tile its kernel does not have.
    if (!tiles)
      throw UsageError("--tile needs a recipe with tiles (--opt tiled, local, streamLocal, timeTiledLocal or "
                       "timeTiledStream), found "
                       "--opt " +
                       rewrite::recipeName(config.recipe));
    parseTile(*tile, given);
  }
  if (tiles) {
    config.tile = given.tileOutputs;
    config.tileShape = given.tileExtents;
  }
  parseVectorWidth(cl, config.recipe, given);
  config.vectorWidth = given.vectorWidth;
  config.mapping = parseMappingOption(cl);
  config.fuse = cl.has("fuse");
  config.timeTile = parseTimeTile(cl);
  if (cl.value("local")) config.local = parseLocalOption(cl);
  config.specialise = cl.has("specialise-boundaries");
  config.noinlineBorder = cl.has("noinline-border");
  if (config.noinlineBorder && !config.specialise)
    throw UsageError("--noinline-border changes the border code of a specialised kernel: it needs "
                     "--specialise-boundaries");
  config.splitBorder = cl.has("split-border");
  if (config.splitBorder && !config.specialise)
    throw UsageError("--split-border changes the border code of a specialised kernel: it needs "
                     "--specialise-boundaries");
  codegen::CodegenOptions fastMath;
  applyFastMathOptions(cl, fastMath);
  config.fastMath = fastMath.fastMath;
  config.divToMul = fastMath.divToMul;
  return config;
}

codegen::Target parseTarget(const CommandLine &cl) {
  std::string target = cl.value("target").value_or("opencl");
  if (target == "opencl") return codegen::Target::OpenCL;
  if (target == "cuda") return codegen::Target::CUDA;
  throw UsageError("--target must be opencl or cuda, found '" + io::shown(target) + "'");
}

std::optional<std::array<size_t, 3>> checkLocalOption(const CommandLine &cl, const codegen::Kernel &kernel,
                                                      bool forLaunch) {
  auto local = cl.value("local");
  if (!local) return std::nullopt;
  std::array<int64_t, 3> sizes = parseLocalOption(cl);
  int given = 0;
  for (int d = 0; d < 3; ++d)
    if (sizes[d] > 0) given = d + 1;
  if (given > kernel.dims)
    throw UsageError("--local gives " + std::to_string(given) + " sizes but the kernel has " +
                     std::to_string(kernel.dims) + " dimension(s)");
  if (kernel.localSize) return std::nullopt; // generated into the kernel (see CodegenOptions::localSize)
  // A size that does not divide the extent leaves the guards in place; the
  // metadata says so (no localSizeRequired).
  if (!forLaunch && cl.has("specialise-boundaries")) return std::nullopt;
  if (!forLaunch)
    throw UsageError("--local applies to kernels with work-groups (mapWrg/mapLcl, e.g. --opt tiled or local); this "
                     "kernel uses mapGlb, whose work-group size is chosen at launch (liftc run/tune --local)");
  std::array<size_t, 3> launch{1, 1, 1};
  for (int d = 0; d < given; ++d) launch[d] = static_cast<size_t>(sizes[d]);
  return launch;
}

std::array<int64_t, 3> parseLocalOption(const CommandLine &cl) {
  auto local = cl.value("local");
  if (!local) return {0, 0, 0};
  std::array<int64_t, 3> sizes = parseCountList("--local", *local, {1, 4096}, "--local takes at most 3 sizes").values;
  std::array<int64_t, 3> group{1, 1, 1};
  for (size_t i = 0; i < 3; ++i) group[i] = std::max<int64_t>(sizes[i], 1);
  checkWorkGroupLimit(group, "--local " + io::shown(*local));
  return sizes;
}

codegen::CodegenOptions parseCodegenOptions(const CommandLine &cl) {
  codegen::CodegenOptions options = driver::codegenOptions(strategyOfOptions(cl));
  if (auto name = cl.value("kernel-name")) {
    if (auto why = codegen::invalidKernelName(*name))
      throw UsageError("--kernel-name '" + io::shown(*name) + "' " + *why);
    options.kernelName = *name;
  }
  return options;
}

void applyFastMathOptions(const CommandLine &cl, codegen::CodegenOptions &options) {
  if (auto level = cl.value("fast-math")) {
    auto parsed = codegen::parseFastMath(*level);
    if (!parsed)
      throw UsageError("--fast-math must be " + codegen::fastMathNames("or") + ", found '" + io::shown(*level) + "'");
    options.fastMath = *parsed;
  }
  options.divToMul = cl.has("div-to-mul");
}

} // namespace liftcc::cli
