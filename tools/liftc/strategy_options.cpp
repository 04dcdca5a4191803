#include "tools/liftc/strategy_options.h"

#include "core/io/safe_file.h"
#include "explore/families/family.h"
#include "explore/strategy_text.h"
#include "tools/liftc/resource_limits.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace liftcc::cli {

namespace {

std::vector<std::string> splitList(const std::string &text, char separator = ',') {
  std::vector<std::string> items;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, separator);) items.push_back(item);
  if (!text.empty() && text.back() == separator) items.push_back("");
  return items;
}

int dimensionOf(const std::string &option, const std::string &letter) {
  if (letter == "x") return 0;
  if (letter == "y") return 1;
  if (letter == "z") return 2;
  throw UsageError("--" + option + " takes dimensions x, y and z, found '" + io::shown(letter) + "'");
}

/// "y,x" (or "yx" where commas separate list items) as a mapping.
rewrite::Mapping mappingFrom(const std::string &option, const std::vector<std::string> &letters) {
  rewrite::Mapping m;
  if (letters.empty() || letters.size() > 3)
    throw UsageError("--" + option + " takes 1 to 3 dimensions (x, y, z), e.g. y,x");
  for (const std::string &letter : letters) {
    int d = dimensionOf(option, letter);
    if (std::find(m.ndrange.begin(), m.ndrange.end(), d) != m.ndrange.end())
      throw UsageError("--" + option + " names dimension " + letter + " twice");
    m.ndrange.push_back(d);
  }
  return m;
}

std::vector<int64_t> positiveList(const std::string &parameter, const std::string &text, int64_t max) {
  std::vector<int64_t> values;
  for (const std::string &item : splitList(text)) {
    uint64_t v = parseCount("--param " + parameter, item, {1, uint64_t(max)});
    values.push_back(static_cast<int64_t>(v));
  }
  return values;
}

/// "plain, stream, ... and timeTiled": the family table's names.
std::string familiesText() {
  const std::vector<std::string> &names = explore::familyNames();
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return text;
}

std::vector<std::string> familyList(const std::string &option, const std::string &text) {
  std::vector<std::string> families = splitList(text);
  for (const std::string &f : families)
    if (std::find(explore::familyNames().begin(), explore::familyNames().end(), f) == explore::familyNames().end())
      throw UsageError("--" + option + " takes families " + familiesText() + ", found '" + io::shown(f) + "'");
  return families;
}

void setFamily(explore::SpaceOptions &o, const std::string &family, bool on) {
  if (const explore::families::Family *row = explore::families::findFamily(family)) o.*row->include = on;
}

/// Shapes X[xY[xZ]], x first, with at least `minimumDimensions` extents
/// (missing ones are 1), or none.
std::vector<std::array<int64_t, 3>> shapeList(const std::string &name, const std::string &values,
                                              size_t minimumDimensions) {
  const std::string form = minimumDimensions >= 2 ? "XxY[xZ]" : "X[xY[xZ]]";
  std::vector<std::array<int64_t, 3>> shapes;
  for (const std::string &item : splitList(values)) {
    if (item == "none") continue;
    std::array<int64_t, 3> shape{1, 1, 1};
    size_t d = 0, start = 0;
    for (;;) {
      size_t cross = item.find('x', start);
      std::string extent = item.substr(start, cross == std::string::npos ? std::string::npos : cross - start);
      if (d >= 3) throw UsageError("--param " + name + " takes shapes " + form + ", found '" + io::shown(item) + "'");
      shape[d++] = positiveList(name, extent, 1024).at(0);
      if (cross == std::string::npos) break;
      start = cross + 1;
    }
    if (d < minimumDimensions)
      throw UsageError("--param " + name + " takes shapes " + form + ", found '" + io::shown(item) + "'");
    shapes.push_back(shape);
  }
  return shapes;
}

/// The --param parameters whose values are names (window, specialise,
/// fastMath, mapped, mapping); false for other names.
bool applyChoiceParameter(const std::string &name, const std::string &values, explore::SpaceOptions &o) {
  if (name == "window") {
    o.coarsenWindows.clear();
    for (const std::string &w : splitList(values)) {
      if (w != "private" && w != "global")
        throw UsageError("--param window takes private and global, found '" + io::shown(w) + "'");
      o.coarsenWindows.push_back(w == "private");
    }
  } else if (name == "specialise") {
    std::vector<std::string> items = splitList(values);
    for (const std::string &v : items)
      if (v != "on" && v != "off")
        throw UsageError("--param specialise takes off and on, found '" + io::shown(v) + "'");
    if (std::find(items.begin(), items.end(), "off") == items.end())
      throw UsageError("--param specialise must include off: specialised variants are twins of the others");
    o.includeSpecialised = std::find(items.begin(), items.end(), "on") != items.end();
  } else if (name == "fastMath") {
    o.fastMathLevels.clear();
    for (const std::string &v : splitList(values)) {
      auto level = codegen::parseFastMath(v);
      if (!level)
        throw UsageError("--param fastMath takes " + codegen::fastMathNames("and") + ", found '" + io::shown(v) + "'");
      if (std::find(o.fastMathLevels.begin(), o.fastMathLevels.end(), *level) == o.fastMathLevels.end())
        o.fastMathLevels.push_back(*level);
    }
  } else if (name == "mapped") {
    o.mappedRecipes.clear();
    for (const std::string &v : splitList(values)) {
      auto recipe = rewrite::parseRecipe(v);
      if (!recipe)
        throw UsageError("--param mapped takes plain, tiled, local, coarsened and stream, found '" + io::shown(v) +
                         "'");
      o.mappedRecipes.push_back(*recipe);
    }
  } else if (name == "mapping") {
    // Items are separated by commas, so each mapping is written without: yx.
    o.mappings.clear();
    for (const std::string &v : splitList(values)) {
      std::vector<std::string> letters;
      for (char c : v) letters.push_back(std::string(1, c));
      o.mappings.push_back(mappingFrom("param mapping", letters));
    }
  } else {
    return false;
  }
  return true;
}

void applyParameter(const std::string &assignment, explore::SpaceOptions &o) {
  size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == assignment.size())
    throw UsageError("--param expects NAME=V1,V2,..., e.g. coarsen=2,4, found '" + io::shown(assignment) + "'");
  std::string name = assignment.substr(0, eq), values = assignment.substr(eq + 1);
  if (name == "tile") {
    o.tileSizes = positiveList(name, values, 1024);
  } else if (name == "streamChunk") {
    o.streamChunks = positiveList(name, values, 1024);
  } else if (name == "streamRow") {
    o.streamRows = values == "none" ? std::vector<int64_t>{} : positiveList(name, values, 1024);
  } else if (name == "streamTile") {
    o.streamTiles = shapeList(name, values, 1);
    for (auto &t : o.streamTiles) t[2] = 0;
  } else if (name == "coarsen") {
    o.coarsenFactors = positiveList(name, values, 64);
  } else if (name == "wg") {
    o.groupExtents = positiveList(name, values, 4096);
  } else if (name == "tileShape") {
    o.tileShapes = shapeList(name, values, 2);
  } else if (name == "timeTileCoarsen") {
    o.timeTileCoarsenings = shapeList(name, values, 1);
  } else if (name == "timeTiledShapes") {
    o.timeTiledGroupShapes = static_cast<size_t>(positiveList(name, values, 4096).at(0));
  } else if (name == "vector" || name == "streamVector") {
    std::vector<int64_t> &widths = name == "vector" ? o.vectorWidths : o.streamVectorWidths;
    widths = name == "streamVector" && values == "none" ? std::vector<int64_t>{} : positiveList(name, values, 16);
    for (int64_t w : widths)
      if (!isVectorWidth(w))
        throw UsageError("--param " + name + " takes widths 2, 4, 8 and 16, found " + std::to_string(w));
  } else if (name == "timeTile") {
    o.timeTiles = positiveList(name, values, 64);
  } else if (name == "timeTiledLocalDepth") {
    o.timeTiledLocalDepths = positiveList(name, values, 64);
  } else if (name == "timeTiledLocalTile") {
    o.timeTiledLocalTiles = shapeList(name, values, 1);
  } else if (name == "timeTiledStreamDepth") {
    o.timeTiledStreamDepths = positiveList(name, values, 64);
  } else if (name == "coarsenShapes") {
    o.coarsenedGroupShapes = static_cast<size_t>(positiveList(name, values, 4096).at(0));
  } else if (name == "mappingShapes") {
    o.mappedGroupShapes = static_cast<size_t>(positiveList(name, values, 4096).at(0));
  } else if (!applyChoiceParameter(name, values, o)) {
    throw UsageError(
        "--param: unknown parameter '" + io::shown(name) +
        "' (tile, tileShape, coarsen, window, wg, coarsenShapes, vector, mapped, mapping, mappingShapes, "
        "timeTile, timeTileCoarsen, timeTiledShapes, timeTiledLocalDepth, timeTiledLocalTile, timeTiledStreamDepth, "
        "streamChunk, "
        "streamTile, streamRow, streamVector, specialise, fastMath)");
  }
}

} // namespace

rewrite::Mapping parseMappingOption(const CommandLine &cl) {
  auto text = cl.value("mapping");
  if (!text) return {};
  return rewrite::canonicalMapping(mappingFrom("mapping", splitList(*text)));
}

std::optional<explore::Variant> strategyVariant(const CommandLine &cl, const Program &typed, codegen::Target target) {
  auto text = cl.value("strategy");
  if (!text) return std::nullopt;
  for (const char *option :
       {"opt", "tile", "coarsen", "window", "vector", "mapping", "fuse", "time-tile", "local", "specialise-boundaries",
        "noinline-border", "split-border", "fast-math", "div-to-mul", "kernel-name"})
    if (cl.has(option))
      throw UsageError(std::string("--strategy gives the whole variant; it cannot be combined with --") + option);
  std::optional<explore::Variant> variant;
  try {
    variant = explore::variantFromStrategy(typed, *text, target);
  } catch (const explore::StrategyError &e) {
    throw UsageError(std::string("--strategy: ") + e.what());
  }
  if (variant->configuration.local != std::array<int64_t, 3>{0, 0, 0})
    checkWorkGroupLimit(variant->configuration.local, "--strategy wg(...)");
  return variant;
}

std::vector<codegen::FastMath> fastMathLevelsOf(const CommandLine &cl) {
  return parseFastMathLevels(cl.value("fast-math").value_or(kDefaultFastMathLevels));
}

std::vector<codegen::FastMath> parseFastMathLevels(const std::string &list) {
  std::vector<codegen::FastMath> levels;
  std::istringstream items(list);
  for (std::string item; std::getline(items, item, ',');) {
    auto level = codegen::parseFastMath(item);
    if (!level)
      throw UsageError("--fast-math takes a list of " + codegen::fastMathNames("and") + ", found '" + io::shown(item) +
                       "'");
    if (std::find(levels.begin(), levels.end(), *level) == levels.end()) levels.push_back(*level);
  }
  if (levels.empty()) throw UsageError("--fast-math needs at least one of " + codegen::fastMathNames("and"));
  return levels;
}

void applySpaceSelection(const CommandLine &cl, explore::SpaceOptions &options) {
  if (auto chosen = cl.value("families")) {
    for (const std::string &f : explore::familyNames()) setFamily(options, f, false);
    std::vector<std::string> families = familyList("families", *chosen);
    for (const std::string &f : families) setFamily(options, f, true);
    // fused and timeTiled re-apply the other selected families (except
    // mapping) with fusion or time tiles: alone they would select nothing.
    if (std::all_of(families.begin(), families.end(),
                    [](const std::string &f) { return f == "fused" || f == "timeTiled" || f == "mapping"; }) &&
        std::any_of(families.begin(), families.end(),
                    [](const std::string &f) { return f == "fused" || f == "timeTiled"; }))
      throw UsageError("--families: fused and timeTiled re-apply the other selected families; name one of plain, "
                       "stream, tiled, local, coarsened or vector with them, e.g. plain,fused");
  }
  if (auto excluded = cl.value("exclude-families"))
    for (const std::string &f : familyList("exclude-families", *excluded)) setFamily(options, f, false);
  for (const std::string &assignment : cl.values("param")) applyParameter(assignment, options);
}

namespace {

/// The family table of printSpace and printSpaceDescription; `counted` heads the second count.
size_t printFamilies(const std::vector<explore::FamilySummary> &families, const char *counted, std::ostream &out) {
  out << std::left << std::setw(11) << "family" << std::right << std::setw(10) << "programs" << std::setw(11) << counted
      << "  parameters\n";
  size_t programs = 0;
  for (const explore::FamilySummary &f : families) {
    std::string parameters;
    for (const auto &[name, values] : f.parameters)
      parameters += (parameters.empty() ? "" : "; ") + name + "=" + (values.empty() ? "-" : values);
    out << std::left << std::setw(11) << f.name << std::right << std::setw(10) << f.programs << std::setw(11)
        << f.variants << "  " << parameters << "\n";
    programs += f.programs;
  }
  return programs;
}

} // namespace

void printSpace(const explore::Space &space, std::ostream &out) {
  size_t programs = printFamilies(space.families, "kernels", out);
  out << std::left << std::setw(11) << "total" << std::right << std::setw(10) << programs << std::setw(11)
      << space.variants.size() << "  distinct kernels (source, build options and launch); " << space.duplicates
      << " duplicate(s) removed, " << space.dropped << " not fitting the device\n";
}

void printSpaceDescription(const explore::SpaceDescription &space, std::ostream &out) {
  size_t programs = printFamilies(space.families, "candidates", out);
  out << std::left << std::setw(11) << "total" << std::right << std::setw(10) << programs << std::setw(11)
      << space.candidates.size() << "  candidates (configurations; " << space.kernelsGenerated
      << " kernels generated, one per low-level program; twins that change nothing and duplicate kernels are "
         "skipped when explored, --build counts distinct kernels); "
      << space.dropped << " not fitting the device\n";
}

} // namespace liftcc::cli
