#include "explore/family_programs.h"

#include "core/interp/deadline.h"
#include "driver/pipeline.h"
#include "explore/families/family.h"
#include "explore/strategy_text.h"

#include <algorithm>
#include <optional>

namespace liftcc::explore {

using families::Family;
using families::Proposal;

void checkSpaceDeadline(const SpaceOptions &options) {
  if (options.deadline && std::chrono::steady_clock::now() >= *options.deadline)
    throw DeadlineReached("the deadline passed while enumerating the variants");
}

namespace {

/// Whether every tile (or coarsening) extent of `c` fits in the output
/// extent of its dimension: wider tiles would be partial everywhere, most
/// of their work-items idle. Dividing extents always fit.
bool tilesFitOutput(const Program &typed, const Configuration &c) {
  std::array<int64_t, 3> extents = c.tileShape;
  if (c.recipe == rewrite::Recipe::Coarsened) extents = c.coarsen;
  if ((c.recipe == rewrite::Recipe::Tiled || c.recipe == rewrite::Recipe::Local) && extents == std::array<int64_t, 3>{})
    extents = {c.tile, c.tile, c.tile};
  const std::vector<int64_t> output = families::outputExtents(typed);
  if ((c.recipe == rewrite::Recipe::StreamLocal || c.recipe == rewrite::Recipe::TimeTiledStream) &&
      output.size() >= 2 && output.size() <= 3) {
    // The plane tile along the inner dimensions, the chunk along the outermost.
    int64_t tile = c.tileShape[0] > 0 ? c.tileShape[0] : c.tile;
    extents = {tile, c.tileShape[1] > 0 ? c.tileShape[1] : c.tile, 1};
    extents[output.size() - 1] = c.streamChunk > 0 ? c.streamChunk : rewrite::RecipeOptions{}.streamChunk;
  }
  for (size_t d = 0; d < output.size() && d < 3; ++d)
    if (extents[d] > output[d]) return false;
  return true;
}

/// Whether a family exists for this program with these options.
bool familyPresent(const Family &family, const Program &typed, const SpaceOptions &options) {
  return family.selected(options) && (!family.appliesTo || family.appliesTo(typed, options));
}

/// Lowers configurations into the space's programs, each distinct program once.
class ProgramLowering {
public:
  ProgramLowering(const Program &typed, const SpaceOptions &options) : typed_(typed), options_(options) {}

  /// The program of `c` added to the space (unless an earlier configuration
  /// lowered to it), or none when its tiles exceed the output or the rules
  /// do not apply with these parameters (e.g. no stencil to stream).
  std::optional<Program> add(const Configuration &c) {
    if (!tilesFitOutput(typed_, c)) return std::nullopt;
    std::optional<Program> lowered = lower(c);
    if (lowered && seen_.insert(lowered->body().hash()).second) result_.programs.push_back({c, *lowered});
    return lowered;
  }

  /// The program of `c`, not added to the space.
  std::optional<Program> lower(const Configuration &c) {
    checkSpaceDeadline(options_);
    try {
      return driver::lower(typed_, c);
    } catch (const rewrite::RewriteError &) {
      if (!result_.firstRefusal) result_.firstRefusal = std::current_exception();
      return std::nullopt;
    }
  }

  LoweredPrograms &result() { return result_; }

private:
  const Program &typed_;
  const SpaceOptions &options_;
  std::set<size_t> seen_; ///< hashes of the programs' bodies
  LoweredPrograms result_;
};

/// The base rows' proposals in enumeration order with their rows (rows
/// sharing an interleave tag alternate, one proposal each). A row that is
/// not selected proposes only when the mapping family may remap it.
std::vector<std::pair<const Family *, Proposal>> baseProposals(const families::FamilyInput &in) {
  const std::vector<Family> &table = families::families();
  auto proposes = [&](const Family &f) {
    return familyPresent(f, in.typed, in.options) ||
           (f.remapped == families::Remapped::Always && in.options.includeMapping);
  };
  std::vector<std::pair<const Family *, Proposal>> out;
  for (size_t r = 0; r < table.size();) {
    size_t end = r + 1;
    while (end < table.size() && !table[r].interleave.empty() && table[end].interleave == table[r].interleave) ++end;
    std::vector<std::vector<Proposal>> lists;
    for (size_t k = r; k < end; ++k)
      lists.push_back(table[k].stage == families::Stage::Base && proposes(table[k]) ? table[k].configurations(in)
                                                                                    : std::vector<Proposal>{});
    for (size_t i = 0;; ++i) {
      bool any = false;
      for (size_t k = r; k < end; ++k)
        if (i < lists[k - r].size()) {
          out.push_back({&table[k], lists[k - r][i]});
          any = true;
        }
      if (!any) break;
    }
    r = end;
  }
  return out;
}

} // namespace

LoweredPrograms lowerPrograms(const Program &typed, const SpaceOptions &options) {
  ProgramLowering lowering(typed, options);
  const std::vector<Configuration> none;
  std::vector<std::pair<Configuration, Program>> remappable;
  auto mappedRecipe = [&](rewrite::Recipe r) {
    return options.includeMapping &&
           std::find(options.mappedRecipes.begin(), options.mappedRecipes.end(), r) != options.mappedRecipes.end();
  };
  // The base families: their programs, and those the mapping family remaps.
  for (const auto &[family, proposal] : baseProposals({typed, options, none, remappable})) {
    const Configuration &c = proposal.configuration;
    const bool present = familyPresent(*family, typed, options);
    const bool remapped = family->remapped == families::Remapped::Always ||
                          (family->remapped == families::Remapped::WhenSelected && present);
    const bool mapped = remapped && mappedRecipe(c.recipe);
    if (present && proposal.inSpace) {
      if (std::optional<Program> lowered = lowering.add(c); lowered && mapped) remappable.push_back({c, *lowered});
    } else if (mapped) {
      if (std::optional<Program> lowered = lowering.lower(c)) remappable.push_back({c, *lowered});
    }
  }
  LoweredPrograms &result = lowering.result();
  result.unmappedPrograms = result.programs.size();
  // The derived families, from the base families' programs (a copy: adding
  // programs appends to the list).
  std::vector<Configuration> basePrograms;
  for (const auto &[c, program] : result.programs) basePrograms.push_back(c);
  const families::FamilyInput derivedInput{typed, options, basePrograms, remappable};
  for (const Family &family : families::families()) {
    if (family.stage != families::Stage::Derived || !familyPresent(family, typed, options)) continue;
    for (const Proposal &proposal : family.configurations(derivedInput)) {
      const size_t before = result.programs.size();
      lowering.add(proposal.configuration);
      if (proposal.everyDimension && result.programs.size() > before) result.everyDimension.insert(before);
    }
  }
  return std::move(result);
}

std::vector<FamilySummary> familySummaries(const SpaceOptions &options) {
  std::string fastMath;
  for (codegen::FastMath level : options.fastMathLevels)
    fastMath += (fastMath.empty() ? "" : ",") + codegen::fastMathName(level);
  const families::Parameters common{{"wg", families::listText(options.groupExtents)},
                                    {"specialise", options.includeSpecialised ? "off,on" : "off"},
                                    {"fastMath", fastMath}};
  std::vector<FamilySummary> out;
  for (const Family &family : families::families()) {
    if (!family.selected(options)) continue;
    families::Parameters parameters = family.parameters(options);
    parameters.insert(parameters.end(), common.begin(), common.end());
    out.push_back({family.name, parameters, 0, 0});
  }
  return out;
}

std::vector<FamilySummary> selectedFamilies(const Program &typed, const LoweredPrograms &lowered,
                                            const SpaceOptions &options) {
  std::vector<FamilySummary> summaries = familySummaries(options);
  // A family that does not apply to the program is absent (rather than empty).
  std::erase_if(summaries, [&](const FamilySummary &f) {
    const Family *family = families::findFamily(f.name);
    return family->appliesTo && !family->appliesTo(typed, options);
  });
  for (const auto &[config, program] : lowered.programs)
    for (FamilySummary &f : summaries)
      if (f.name == familyOf(config)) ++f.programs;
  return summaries;
}

} // namespace liftcc::explore
