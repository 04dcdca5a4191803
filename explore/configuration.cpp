#include "explore/configuration.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace liftcc::explore {

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

bool areNeighbours(const Configuration &a, const Configuration &b) {
  int differences = (a.recipe != b.recipe) + (a.tile != b.tile) + (a.fastMath != b.fastMath) +
                    (a.divToMul != b.divToMul) + (a.specialise != b.specialise) +
                    (a.noinlineBorder != b.noinlineBorder) + (a.splitBorder != b.splitBorder);
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
  program.specialise = program.noinlineBorder = program.splitBorder = program.divToMul = false;
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
