#include "bench/sizes.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace liftcc::bench {

std::optional<SizePreset> parseSizePreset(const std::string &name) {
  if (name == "default") return SizePreset::Default;
  if (name == "paper") return SizePreset::Paper;
  return std::nullopt;
}

Sizes benchSizes(const examples::Example &example, SizePreset preset, double scale) {
  if (!(scale > 0)) throw std::invalid_argument("the size scale must be positive");
  Sizes sizes;
  if (preset == SizePreset::Paper)
    sizes = example.paperSizes;
  else {
    const int64_t extent = example.dims == 1 ? int64_t{1} << 22 : example.dims == 2 ? 2048 : 128;
    for (const std::string &name : example.sizeNames) sizes[name] = extent;
  }
  if (scale != 1.0)
    for (auto &[name, extent] : sizes)
      extent = std::max<int64_t>(32, std::llround(static_cast<double>(extent) * scale / 32.0) * 32);
  return sizes;
}

Sizes verificationSizes(const examples::Example &example, int64_t multiple) {
  if (multiple < 1) throw std::invalid_argument("verificationSizes: multiple must be positive");
  // The smallest k with k * multiple >= 24, and at least 2 tiles per extent
  // so that tiles meet inside the grid, not only at its borders.
  const int64_t k = std::max<int64_t>(2, (24 + multiple - 1) / multiple);
  Sizes sizes;
  for (size_t d = 0; d < example.sizeNames.size(); ++d)
    sizes[example.sizeNames[d]] = multiple * (k + static_cast<int64_t>(d));
  return sizes;
}

} // namespace liftcc::bench
