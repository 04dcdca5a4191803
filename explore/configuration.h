#pragma once
// What the explorer asks of a configuration (driver/configuration.h): its
// search features, its low-level program group and its neighbours.

#include "driver/configuration.h"

#include <string>
#include <vector>

namespace liftcc::explore {

using driver::Configuration;

/// The configuration's parameter values as categorical features for model
/// search (search/search_model.h): the recipe first, then each token of key()
/// ("k=8x1x1", "spec", ...), the work-group also per dimension ("wg.x=32"),
/// and explicit defaults ("wg=runtime", "map=default") so that they have effects too;
/// last the outputs per work-item ("work=8x1x1": coarsening times vector
/// width) alone and paired with the work-group shape ("work=8x1x1|wg=16x2x16").
std::vector<std::string> searchFeatures(const Configuration &configuration);

/// The low-level program a configuration launches (its key without the
/// work-group shape, boundary specialisation and build choices): the group
/// that search pruning (search::Pruning) judges as a whole.
std::string programGroupKey(const Configuration &configuration);

/// Each configuration's low-level program as a dense id (equal ids: equal
/// programGroupKey), numbered in order of first appearance.
std::vector<size_t> programGroupIds(const std::vector<Configuration> &configurations);

/// Parameters differing in exactly one of recipe, tile, one coarsening
/// factor, the window copy, one work-group extent, the fast-math level,
/// division by multiplication or the mapping.
bool areNeighbours(const Configuration &a, const Configuration &b);

} // namespace liftcc::explore
