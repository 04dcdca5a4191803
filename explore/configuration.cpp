#include "explore/configuration.h"

namespace liftcc::explore {

std::string Configuration::key() const {
  std::string k = rewrite::recipeName(recipe);
  if (recipe != rewrite::Recipe::Plain) k += " tile=" + std::to_string(tile);
  if (local != std::array<int64_t, 3>{0, 0, 0})
    k += " wg=" + std::to_string(local[0]) + "x" + std::to_string(local[1]) + "x" + std::to_string(local[2]);
  if (specialise) k += " spec";
  if (fastMath != codegen::FastMath::None) k += " fast-math=" + codegen::fastMathName(fastMath);
  if (divToMul) k += " div-to-mul";
  return k;
}

nlohmann::json Configuration::toJson() const {
  nlohmann::json j{{"recipe", rewrite::recipeName(recipe)}, {"tile", tile}, {"local", local}};
  if (specialise) j["specialise"] = true;
  if (fastMath != codegen::FastMath::None) j["fastMath"] = codegen::fastMathName(fastMath);
  if (divToMul) j["divToMul"] = true;
  return j;
}

Configuration Configuration::fromJson(const nlohmann::json &j) {
  Configuration c;
  auto recipe = rewrite::parseRecipe(j.at("recipe").get<std::string>());
  if (!recipe) throw std::invalid_argument("unknown recipe " + j.at("recipe").dump());
  c.recipe = *recipe;
  c.tile = j.at("tile").get<int64_t>();
  c.local = j.at("local").get<std::array<int64_t, 3>>();
  c.specialise = j.value("specialise", false);
  if (j.contains("fastMath")) {
    auto level = codegen::parseFastMath(j.at("fastMath").get<std::string>());
    if (!level) throw std::invalid_argument("unknown fast-math level " + j.at("fastMath").dump());
    c.fastMath = *level;
  }
  if (j.contains("divToMul")) c.divToMul = j.at("divToMul").get<bool>();
  return c;
}

void applyFastMath(const Configuration &configuration, codegen::CodegenOptions &options) {
  options.fastMath = configuration.fastMath;
  options.divToMul = configuration.divToMul;
}

bool areNeighbours(const Configuration &a, const Configuration &b) {
  int differences = (a.recipe != b.recipe) + (a.tile != b.tile) + (a.fastMath != b.fastMath) + (a.divToMul != b.divToMul) +
                    (a.specialise != b.specialise);
  for (int d = 0; d < 3; ++d) differences += a.local[d] != b.local[d];
  return differences == 1;
}

} // namespace liftcc::explore
