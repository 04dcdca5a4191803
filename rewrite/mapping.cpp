#include "rewrite/mapping.h"

#include "rewrite/apply.h"

#include <algorithm>
#include <numeric>

namespace liftcc::rewrite {

char dimensionLetter(int dim) { return dim == 0 ? 'x' : dim == 1 ? 'y' : dim == 2 ? 'z' : '?'; }

std::optional<int> Mapping::ndrangeDimensionOf(int dim) const {
  if (ndrange.empty()) return dim;
  auto it = std::find(ndrange.begin(), ndrange.end(), dim);
  if (it == ndrange.end()) return std::nullopt;
  return static_cast<int>(it - ndrange.begin());
}

std::string Mapping::text() const {
  std::string out;
  for (int d : ndrange) out += (out.empty() ? "" : ",") + std::string(1, dimensionLetter(d));
  return out;
}

void Mapping::checkFor(int depth) const {
  if (ndrange.empty()) return;
  std::vector<bool> mapped(static_cast<size_t>(std::max(depth, 3)), false);
  for (int d : ndrange) {
    if (d < 0 || d >= depth)
      throw RewriteError("mapping " + text() + " names dimension " + std::string(1, dimensionLetter(d)) +
                         " but the map nest has " + std::to_string(depth) + " dimension(s) (" +
                         defaultMappingText(depth) + ")");
    if (mapped[static_cast<size_t>(d)])
      throw RewriteError("mapping " + text() + " names dimension " + std::string(1, dimensionLetter(d)) + " twice");
    mapped[static_cast<size_t>(d)] = true;
  }
  // Sequential dimensions run inside a work-item, so they must lie inside
  // every parallel one: the unmapped dimensions are the innermost.
  for (int d = 1; d < depth; ++d)
    if (!mapped[static_cast<size_t>(d)] && mapped[static_cast<size_t>(d - 1)])
      throw RewriteError("mapping " + text() + " leaves " + std::string(1, dimensionLetter(d)) +
                         " sequential outside the parallel " + std::string(1, dimensionLetter(d - 1)) +
                         ": only the innermost dimensions can stay sequential");
}

std::string defaultMappingText(int depth) {
  Mapping identity;
  for (int d = 0; d < depth; ++d) identity.ndrange.push_back(d);
  return identity.text();
}

std::vector<Mapping> alternativeMappings(int depth) {
  std::vector<Mapping> out;
  for (int parallel = depth; parallel >= 1; --parallel) {
    // The outermost `parallel` dimensions, in every order.
    std::vector<int> dims(static_cast<size_t>(parallel));
    std::iota(dims.begin(), dims.end(), depth - parallel);
    do {
      Mapping m{dims};
      if (!canonicalMapping(m).isDefault()) out.push_back(m);
    } while (std::next_permutation(dims.begin(), dims.end()));
  }
  return out;
}

Mapping canonicalMapping(Mapping mapping) {
  for (size_t k = 0; k < mapping.ndrange.size(); ++k)
    if (mapping.ndrange[k] != static_cast<int>(k)) return mapping;
  return {};
}

} // namespace liftcc::rewrite
