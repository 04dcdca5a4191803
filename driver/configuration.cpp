#include "driver/configuration.h"

#include "core/error.h"

namespace liftcc::driver {

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
           recipe == rewrite::Recipe::StreamLocal || recipe == rewrite::Recipe::TimeTiledLocal ||
           recipe == rewrite::Recipe::TimeTiledStream)
    k += " tile=" + std::to_string(tile);
  if (streamChunk > 0) k += " chunk=" + std::to_string(streamChunk);
  if (vectorWidth > 0) k += " vec=" + std::to_string(vectorWidth);
  if (local != std::array<int64_t, 3>{0, 0, 0})
    k += " wg=" + std::to_string(local[0]) + "x" + std::to_string(local[1]) + "x" + std::to_string(local[2]);
  if (specialise) k += " spec";
  if (noinlineBorder) k += " noinline-border";
  if (splitBorder) k += " split-border";
  if (fastMath != codegen::FastMath::None) k += " fast-math=" + codegen::fastMathName(fastMath);
  if (divToMul) k += " div-to-mul";
  if (!mapping.isDefault()) k += " map=" + mapping.text();
  if (fuse) k += " fused";
  if (timeTile > 1) k += " time=" + std::to_string(timeTile);
  return k;
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
  if (splitBorder) j["splitBorder"] = true;
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
  c.splitBorder = j.value("splitBorder", false);
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

} // namespace liftcc::driver
