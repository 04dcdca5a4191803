#pragma once
// The rules liftc and the exploration know by name, with the parameter
// values worth trying (split factors, tile sizes, dimensions).

#include "rewrite/rule.h"

#include <optional>
#include <string>
#include <vector>

namespace liftcc::rewrite {

/// Every rule instance, algorithmic rules first, then tiling, then lowering.
std::vector<Rule> ruleCatalog();
/// The semantics-changing-free subset used by random walks over high-level
/// programs (algorithmic and tiling rules).
std::vector<Rule> algorithmicCatalog();
std::optional<Rule> findRule(const std::string &name);

} // namespace liftcc::rewrite
