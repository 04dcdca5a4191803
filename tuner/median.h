#pragma once
// The one median of the project: every kernel time the tuner, `liftc run`,
// `liftc bench` and the copy-bandwidth probes report is the median of their
// samples, because it is robust against the occasional run delayed by
// another process (caches, clocks, a busy host on CPU devices).

#include <algorithm>
#include <concepts>
#include <ranges>
#include <stdexcept>
#include <vector>

namespace liftcc::tuner {

/// Median of `samples` (the mean of the two middle ones for an even count);
/// std::invalid_argument when there are none.
template <std::ranges::input_range R>
requires std::is_arithmetic_v<std::ranges::range_value_t<R>>
double median(const R &samples) {
  std::vector<double> sorted;
  for (const auto &s : samples) sorted.push_back(static_cast<double>(s));
  if (sorted.empty()) throw std::invalid_argument("median of no samples");
  std::sort(sorted.begin(), sorted.end());
  const size_t mid = sorted.size() / 2;
  return sorted.size() % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
}

} // namespace liftcc::tuner
