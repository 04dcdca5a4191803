#include "explore/baselines.h"

#include "explore/strategy_text.h"

#include <algorithm>
#include <functional>
#include <optional>

namespace liftcc::explore {

namespace {

/// A family's fixed default, as a test of the configuration that lowered a program.
std::function<bool(const Configuration &)> familyDefault(const std::string &family) {
  using rewrite::Recipe;
  const std::array<int64_t, 3> notCoarsened{1, 1, 1}, noShape{0, 0, 0};
  if (family == "plain") return [](const Configuration &c) { return c.recipe == Recipe::Plain; };
  if (family == "stream") return [](const Configuration &c) { return c.recipe == Recipe::Stream; };
  if (family == "streamLocal") return [](const Configuration &c) { return c.recipe == Recipe::StreamLocal; };
  if (family == "timeTiledLocal") return [](const Configuration &c) { return c.recipe == Recipe::TimeTiledLocal; };
  if (family == "timeTiledStream") return [](const Configuration &c) { return c.recipe == Recipe::TimeTiledStream; };
  if (family == "tiled" || family == "local") {
    Recipe recipe = family == "tiled" ? Recipe::Tiled : Recipe::Local;
    return [=](const Configuration &c) { return c.recipe == recipe && c.tile == 8 && c.tileShape == noShape; };
  }
  if (family == "coarsened")
    return [](const Configuration &c) {
      return c.recipe == Recipe::Coarsened && c.coarsen == std::array<int64_t, 3>{4, 1, 1} && c.privateWindow;
    };
  if (family == "vector")
    return [=](const Configuration &c) { return c.vectorWidth == 4 && c.coarsen == notCoarsened; };
  if (family == "fused")
    return [=](const Configuration &c) {
      return c.recipe == Recipe::Plain && c.vectorWidth == 0 && c.coarsen == notCoarsened;
    };
  if (family == "timeTiled")
    return [](const Configuration &c) {
      return c.recipe == Recipe::Coarsened &&
             std::count_if(c.coarsen.begin(), c.coarsen.end(), [](int64_t k) { return k > 1; }) > 1;
    };
  return {};
}

/// Whether a candidate launches its program the plain way: no specialisation,
/// no fast math.
bool unadorned(const Configuration &c) {
  return !c.specialise && !c.noinlineBorder && !c.splitBorder && c.fastMath == codegen::FastMath::None && !c.divToMul;
}

} // namespace

std::vector<size_t> baselineCandidates(const SpaceDescription &description,
                                       const std::vector<std::string> &knownStrategies) {
  const std::vector<Candidate> &candidates = description.candidates;
  std::vector<size_t> out;
  auto add = [&](std::optional<size_t> index) {
    if (index && std::find(out.begin(), out.end(), *index) == out.end()) out.push_back(*index);
  };
  // A program's default launch: its first candidate, unadorned if it has one.
  auto defaultLaunchOf = [&](size_t program) -> std::optional<size_t> {
    std::optional<size_t> first;
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (candidates[i].program != program) continue;
      if (unadorned(candidates[i].configuration)) return i;
      if (!first) first = i;
    }
    return first;
  };
  // 1. The plain kernel at the runtime's work-group size.
  for (size_t i = 0; i < candidates.size(); ++i)
    if (candidates[i].configuration == Configuration{}) {
      add(i);
      break;
    }
  // The known strategies' configurations (one that does not parse is no knowledge).
  std::vector<Configuration> known;
  for (const std::string &text : knownStrategies) {
    try {
      known.push_back(parseStrategy(text).configuration);
    } catch (const StrategyError &) {}
  }
  // 2. One per family.
  for (const FamilySummary &family : description.families) {
    std::optional<size_t> chosen;
    for (const Configuration &k : known) {
      if (familyOf(k) != family.name) continue;
      for (size_t i = 0; i < candidates.size() && !chosen; ++i)
        if (candidates[i].configuration == k) chosen = i;
      if (chosen) break;
    }
    auto cheap = [&](size_t p) { return description.programs[p].base.source.size() <= kMaxBaselineSourceBytes; };
    if (auto isDefault = familyDefault(family.name); !chosen && isDefault) {
      // Time tiles: the smallest of the space first.
      std::optional<size_t> program;
      for (size_t p = 0; p < description.programs.size(); ++p) {
        const Configuration &c = description.programs[p].configuration;
        if (familyOf(c) != family.name || !isDefault(c) || !cheap(p)) continue;
        if (!program || c.timeTile < description.programs[*program].configuration.timeTile) program = p;
      }
      if (program) chosen = defaultLaunchOf(*program);
    }
    if (!chosen) {
      // The family's first candidate; if its program is too large to build
      // quickly, the family's program with the smallest default kernel.
      std::optional<size_t> first, smallest;
      for (const Candidate &c : candidates) {
        if (familyOf(c.configuration) != family.name) continue;
        if (!first) first = c.program;
        const size_t bytes = description.programs[c.program].base.source.size();
        if (!smallest || bytes < description.programs[*smallest].base.source.size()) smallest = c.program;
      }
      std::optional<size_t> program = first && cheap(*first) ? first : smallest;
      if (program && cheap(*program)) chosen = defaultLaunchOf(*program);
    }
    add(chosen);
  }
  return out;
}

} // namespace liftcc::explore
