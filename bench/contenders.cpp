#include "bench/contenders.h"

#include "bench/reference_kernels.h"
#include "codegen/generate.h"
#include "explore/configuration.h"
#include "explore/space.h"
#include "rewrite/recipes.h"

#include <limits>
#include <stdexcept>

namespace liftcc::bench {

namespace {

Contender recipeContender(rewrite::Recipe recipe, int64_t tile) {
  std::string name = rewrite::recipeName(recipe);
  if (recipe != rewrite::Recipe::Plain) name += " t=" + std::to_string(tile);
  return {name, ContenderKind::Generated, recipe == rewrite::Recipe::Plain ? 1 : tile,
          [recipe, tile](const Program &typed, const Sizes &sizes) {
            rewrite::RecipeOptions options;
            options.tileOutputs = tile;
            Program lowered = rewrite::applyRecipe(typed, recipe, options);
            return generatedLaunch(codegen::generateKernel(lowered, codegen::Target::OpenCL), sizes);
          }};
}

Contender exploredContender(const explore::BestKernel &best) {
  explore::Configuration configuration = explore::Configuration::fromJson(best.launch.at("configuration"));
  // Where the exploration ran at other sizes than the benchmark, say so.
  std::string variant = "explored " + configuration.key() + " @" + best.launch.value("sizes", "?");
  return {variant, ContenderKind::Explored, configuration.tile > 0 ? configuration.tile : 1,
          [configuration](const Program &typed, const Sizes &sizes) {
            explore::Variant v = explore::makeVariant(typed, configuration);
            std::optional<std::array<size_t, 3>> local;
            if (configuration.local != std::array<int64_t, 3>{0, 0, 0})
              local = std::array<size_t, 3>{static_cast<size_t>(configuration.local[0]),
                                            static_cast<size_t>(configuration.local[1]),
                                            static_cast<size_t>(configuration.local[2])};
            return generatedLaunch(v.kernel, sizes, local);
          }};
}

} // namespace

std::vector<Contender> contendersFor(const examples::Example &example, const ContenderOptions &options) {
  std::vector<Contender> out{recipeContender(rewrite::Recipe::Plain, 0)};
  for (int64_t tile : options.tiles) {
    out.push_back(recipeContender(rewrite::Recipe::Tiled, tile));
    out.push_back(recipeContender(rewrite::Recipe::Local, tile));
  }
  for (const explore::BestKernel &best : options.explored)
    if (best.launch.value("program", "") == example.name) out.push_back(exploredContender(best));
  if (std::optional<ReferenceKernel> reference = findReferenceKernel(example.name))
    out.push_back({"hand-written", ContenderKind::Reference, 1,
                   [example, source = reference->source](const Program &typed, const Sizes &sizes) {
                     return referenceLaunch(example, source, typed, sizes);
                   }});
  return out;
}

KernelLaunch referenceLaunch(const examples::Example &example, std::string_view source, const Program &typed,
                             const Sizes &sizes) {
  KernelLaunch launch;
  launch.source = std::string(source);
  launch.kernelName = example.name;
  for (size_t i = 0; i < typed.inputs().size(); ++i) launch.args.push_back(InputArg{i});
  launch.args.push_back(OutputArg{});
  std::array<size_t, 3> global{1, 1, 1};
  const size_t dims = example.sizeNames.size();
  for (size_t d = 0; d < dims; ++d) {
    const std::string &name = example.sizeNames[d];
    auto it = sizes.find(name);
    if (it == sizes.end()) throw std::invalid_argument("no value for size " + name);
    if (it->second < 1 || it->second > std::numeric_limits<int32_t>::max())
      throw std::invalid_argument("size " + name + " does not fit an int kernel argument");
    launch.args.push_back(IntArg{static_cast<int32_t>(it->second)});
    // Sizes are outermost first, NDRange dimensions innermost first.
    global[dims - 1 - d] = static_cast<size_t>(it->second);
  }
  switch (dims) {
  case 1: launch.global = ocl::NDRange(global[0]); break;
  case 2: launch.global = ocl::NDRange(global[0], global[1]); break;
  case 3: launch.global = ocl::NDRange(global[0], global[1], global[2]); break;
  default: throw std::invalid_argument("reference kernels are 1D to 3D");
  }
  return launch;
}

} // namespace liftcc::bench
