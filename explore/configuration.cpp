#include "explore/configuration.h"

#include "core/error.h"

#include <map>
#include <numeric>
#include <sstream>

namespace liftcc::explore {

namespace {
bool isCoarsened(const Configuration &c) { return c.recipe == rewrite::Recipe::Coarsened; }
bool hasTileShape(const Configuration &c) { return c.tileShape != std::array<int64_t, 3>{0, 0, 0}; }
std::string coarseningKey(const Configuration &c) {
  return " k=" + std::to_string(c.coarsen[0]) + "x" + std::to_string(c.coarsen[1]) + "x" +
         std::to_string(c.coarsen[2]) + (c.privateWindow ? "" : " window=global");
}
} // namespace

rewrite::RecipeOptions Configuration::recipeOptions() const {
  rewrite::RecipeOptions options;
  options.tileOutputs = tile > 0 ? tile : 8;
  options.tileExtents = tileShape;
  options.coarsen = coarsen;
  options.privateWindow = privateWindow;
  options.vectorWidth = vectorWidth;
  options.mapping = mapping;
  options.fusion = fuse ? rewrite::Fusion::Inline : rewrite::Fusion::Separate;
  options.timeTile = timeTile;
  if (streamChunk > 0) options.streamChunk = streamChunk;
  return options;
}

std::string Configuration::key() const {
  std::string k = rewrite::recipeName(recipe);
  // Plain and stream have no tile: their keys are the recipe's name.
  if (isCoarsened(*this))
    k += coarseningKey(*this);
  else if (hasTileShape(*this))
    k += " tile=" + std::to_string(tileShape[0]) + "x" + std::to_string(tileShape[1]) + "x" +
         std::to_string(tileShape[2]);
  else if (recipe == rewrite::Recipe::Tiled || recipe == rewrite::Recipe::Local ||
           recipe == rewrite::Recipe::StreamLocal)
    k += " tile=" + std::to_string(tile);
  if (streamChunk > 0) k += " chunk=" + std::to_string(streamChunk);
  if (vectorWidth > 0) k += " vec=" + std::to_string(vectorWidth);
  if (local != std::array<int64_t, 3>{0, 0, 0})
    k += " wg=" + std::to_string(local[0]) + "x" + std::to_string(local[1]) + "x" + std::to_string(local[2]);
  if (specialise) k += " spec";
  if (noinlineBorder) k += " noinline-border";
  if (fastMath != codegen::FastMath::None) k += " fast-math=" + codegen::fastMathName(fastMath);
  if (divToMul) k += " div-to-mul";
  if (!mapping.isDefault()) k += " map=" + mapping.text();
  if (fuse) k += " fused";
  if (timeTile > 1) k += " time=" + std::to_string(timeTile);
  return k;
}

std::vector<std::string> searchFeatures(const Configuration &configuration) {
  std::vector<std::string> features;
  std::istringstream tokens(configuration.key());
  for (std::string token; tokens >> token;) features.push_back(token);
  if (configuration.local == std::array<int64_t, 3>{0, 0, 0}) {
    features.push_back("wg=runtime");
  } else {
    for (size_t d = 0; d < 3; ++d)
      features.push_back(std::string("wg.") + "xyz"[d] + "=" + std::to_string(configuration.local[d]));
  }
  if (configuration.mapping.isDefault()) features.push_back("map=default");
  // The outputs one work-item computes per dimension, whichever rule made it
  // compute several (coarsening, vectors): with the work-group shape it fixes
  // the outputs of a work-group, which families share (a coarsened k=8x1x1
  // and a plain vec=8 kernel in 16x2x16 groups ran within 10% of each other
  // on the Heat store of bench/search/data).
  std::array<int64_t, 3> work = configuration.coarsen;
  work[0] *= std::max<int64_t>(1, configuration.vectorWidth);
  const std::string workFeature =
      "work=" + std::to_string(work[0]) + "x" + std::to_string(work[1]) + "x" + std::to_string(work[2]);
  features.push_back(workFeature);
  features.push_back(workFeature + "|" +
                     (configuration.local == std::array<int64_t, 3>{0, 0, 0}
                          ? std::string("wg=runtime")
                          : "wg=" + std::to_string(configuration.local[0]) + "x" +
                                std::to_string(configuration.local[1]) + "x" + std::to_string(configuration.local[2])));
  return features;
}

nlohmann::json Configuration::toJson() const {
  nlohmann::json j{{"recipe", rewrite::recipeName(recipe)}, {"tile", tile}, {"local", local}};
  if (isCoarsened(*this)) {
    j["coarsen"] = coarsen;
    j["privateWindow"] = privateWindow;
  }
  if (vectorWidth > 0) j["vector"] = vectorWidth;
  if (hasTileShape(*this)) j["tileShape"] = tileShape;
  if (specialise) j["specialise"] = true;
  if (noinlineBorder) j["noinlineBorder"] = true;
  if (fastMath != codegen::FastMath::None) j["fastMath"] = codegen::fastMathName(fastMath);
  if (divToMul) j["divToMul"] = true;
  if (!mapping.isDefault()) j["mapping"] = mapping.ndrange;
  if (fuse) j["fuse"] = true;
  if (timeTile > 1) j["timeTile"] = timeTile;
  if (streamChunk > 0) j["streamChunk"] = streamChunk;
  return j;
}

Configuration Configuration::fromJson(const nlohmann::json &j) {
  Configuration c;
  auto recipe = rewrite::parseRecipe(j.at("recipe").get<std::string>());
  if (!recipe) throw Error("unknown recipe " + j.at("recipe").dump());
  c.recipe = *recipe;
  c.tile = j.at("tile").get<int64_t>();
  c.local = j.at("local").get<std::array<int64_t, 3>>();
  if (j.contains("coarsen")) c.coarsen = j.at("coarsen").get<std::array<int64_t, 3>>();
  if (j.contains("privateWindow")) c.privateWindow = j.at("privateWindow").get<bool>();
  c.vectorWidth = j.value("vector", int64_t{0});
  if (j.contains("tileShape")) c.tileShape = j.at("tileShape").get<std::array<int64_t, 3>>();
  c.specialise = j.value("specialise", false);
  c.noinlineBorder = j.value("noinlineBorder", false);
  if (j.contains("fastMath")) {
    auto level = codegen::parseFastMath(j.at("fastMath").get<std::string>());
    if (!level) throw std::invalid_argument("unknown fast-math level " + j.at("fastMath").dump());
    c.fastMath = *level;
  }
  if (j.contains("divToMul")) c.divToMul = j.at("divToMul").get<bool>();
  c.fuse = j.value("fuse", false);
  c.timeTile = j.value("timeTile", int64_t{1});
  c.streamChunk = j.value("streamChunk", int64_t{0});
  if (c.streamChunk < 0)
    throw std::invalid_argument("streamChunk must be at least 1, found " + std::to_string(c.streamChunk));
  if (c.timeTile < 1) throw std::invalid_argument("timeTile must be at least 1, found " + std::to_string(c.timeTile));
  if (j.contains("mapping")) {
    c.mapping.ndrange = j.at("mapping").get<std::vector<int>>();
    for (int d : c.mapping.ndrange)
      if (d < 0 || d > 2) throw std::invalid_argument("mapping dimension " + std::to_string(d) + " is not 0, 1 or 2");
  }
  return c;
}

void applyFastMath(const Configuration &configuration, codegen::CodegenOptions &options) {
  options.fastMath = configuration.fastMath;
  options.divToMul = configuration.divToMul;
}

void applySpecialisation(const Configuration &configuration, codegen::CodegenOptions &options) {
  options.specialiseBoundaries = configuration.specialise;
  options.noinlineBorder = configuration.noinlineBorder;
}

bool areNeighbours(const Configuration &a, const Configuration &b) {
  int differences = (a.recipe != b.recipe) + (a.tile != b.tile) + (a.fastMath != b.fastMath) +
                    (a.divToMul != b.divToMul) + (a.specialise != b.specialise) +
                    (a.noinlineBorder != b.noinlineBorder);
  for (int d = 0; d < 3; ++d)
    differences += (a.local[d] != b.local[d]) + (a.coarsen[d] != b.coarsen[d]) + (a.tileShape[d] != b.tileShape[d]);
  differences += (a.privateWindow != b.privateWindow) + (a.vectorWidth != b.vectorWidth);
  differences +=
      (a.mapping != b.mapping) + (a.fuse != b.fuse) + (a.timeTile != b.timeTile) + (a.streamChunk != b.streamChunk);
  return differences == 1;
}

std::string programGroupKey(const Configuration &configuration) {
  Configuration program = configuration;
  program.local = {0, 0, 0};
  program.specialise = program.noinlineBorder = program.divToMul = false;
  program.fastMath = codegen::FastMath::None;
  return program.key();
}

std::vector<size_t> programGroupIds(const std::vector<Configuration> &configurations) {
  std::map<std::string, size_t> ids;
  std::vector<size_t> groups;
  for (const Configuration &c : configurations)
    groups.push_back(ids.emplace(programGroupKey(c), ids.size()).first->second);
  return groups;
}

} // namespace liftcc::explore
