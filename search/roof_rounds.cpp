#include "search/roof_rounds.h"

#include "tuner/median.h"

#include <algorithm>

namespace liftcc::search {

RoofFraction roofFraction(const std::vector<double> &rowRoundNs, const std::vector<double> &roofRoundBytesPerSecond,
                          int64_t outputElements, double bytesPerElement) {
  RoofFraction f;
  const double bytes = static_cast<double>(outputElements) * bytesPerElement;
  const size_t rounds = std::min(rowRoundNs.size(), roofRoundBytesPerSecond.size());
  for (size_t k = 0; k < rounds; ++k) {
    if (rowRoundNs[k] <= 0 || roofRoundBytesPerSecond[k] <= 0) continue;
    // The row's compulsory bytes per second over the copy's.
    f.perRound.push_back(bytes / (rowRoundNs[k] * 1e-9) / roofRoundBytesPerSecond[k]);
  }
  if (f.perRound.empty()) return f;
  f.median = tuner::median(f.perRound);
  auto [lo, hi] = std::minmax_element(f.perRound.begin(), f.perRound.end());
  f.low = *lo;
  f.high = *hi;
  f.aboveRoof = f.median > 1.0;
  return f;
}

} // namespace liftcc::search
