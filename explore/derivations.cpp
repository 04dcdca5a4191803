#include "explore/derivations.h"

#include "codegen/generate.h"
#include "rewrite/catalog.h"
#include "rewrite/recipes.h"

#include <chrono>
#include <functional>
#include <set>

namespace liftcc::explore {

DerivationStats searchDerivations(const Program &typed, int depth, const std::vector<int64_t> &tileSizes) {
  auto start = std::chrono::steady_clock::now();
  std::vector<rewrite::Rule> rules = rewrite::algorithmicCatalog();
  std::set<size_t> seen{typed.body().hash()};
  std::vector<Program> all{typed}, frontier{typed};
  DerivationStats stats;
  stats.programsPerDepth.push_back(1);
  for (int d = 1; d <= depth; ++d) {
    std::vector<Program> next;
    for (const Program &p : frontier)
      for (const rewrite::Rule &rule : rules)
        for (const std::string &loc : rewrite::applicableLocations(p, rule)) {
          Program q = rewrite::applyRule(p, rule, loc);
          if (seen.insert(q.body().hash()).second) next.push_back(q);
        }
    stats.programsPerDepth.push_back(next.size());
    all.insert(all.end(), next.begin(), next.end());
    frontier = std::move(next);
  }
  stats.programs = all.size();

  std::set<size_t> kernels;
  for (const Program &p : all) {
    auto lower = [&](rewrite::Recipe recipe, int64_t tile) {
      try {
        Program lowered = rewrite::applyRecipe(p, recipe, {tile, true});
        kernels.insert(std::hash<std::string>()(codegen::generateKernel(lowered, codegen::Target::OpenCL).source));
      } catch (const rewrite::RewriteError &) {
        // The recipe does not apply to this program (e.g. nothing left to tile).
      } catch (const codegen::CodegenError &) {
        // A rewritten program the code generator cannot lower (e.g. an
        // intermediate array that would need a second kernel).
      }
    };
    lower(rewrite::Recipe::Plain, 0);
    for (int64_t tile : tileSizes) {
      lower(rewrite::Recipe::Tiled, tile);
      lower(rewrite::Recipe::Local, tile);
    }
  }
  stats.lowLevelVariants = kernels.size();
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

} // namespace liftcc::explore
