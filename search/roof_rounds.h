#pragma once
// A row's fraction of the copy roof, measured in the same rounds as the row.
//
// The copy bandwidth of a shared machine drifts (up to 1.6x within an hour on
// the 2-core build machine), so a roof measured once and a kernel timed in
// later rounds can fall in different phases: one run reported a kernel at
// 1.15 "of roof". The bench (bench/benchmark.cpp) and the explorer's
// finalists (explore/finalists.h) therefore time the copy inside every round,
// next to the kernels, and a row's fraction is the median over rounds of (its
// time vs that round's copy), with the spread. A median above 1.0 cannot be
// a kernel beating the copy of its own compulsory traffic; it is flagged as a
// measurement problem instead of being reported.

#include <cstdint>
#include <vector>

namespace liftcc::search {

struct RoofFraction {
  /// The row's fraction of each round's roof, for every round in which both
  /// were measured (a row's k-th round median belongs to round k).
  std::vector<double> perRound;
  double median = 0; ///< over perRound; 0 when it is empty
  double low = 0;    ///< the smallest and largest of perRound
  double high = 0;
  bool aboveRoof = false; ///< median > 1.0: a measurement problem, not a figure
};

/// `rowRoundNs[k]`: the row's median kernel time in round k;
/// `roofRoundBytesPerSecond[k]`: round k's copy roof (read + write bytes per
/// second; 0 or less where that round's copy failed). The row moves
/// `outputElements * bytesPerElement` compulsory bytes per run.
RoofFraction roofFraction(const std::vector<double> &rowRoundNs, const std::vector<double> &roofRoundBytesPerSecond,
                          int64_t outputElements, double bytesPerElement);

} // namespace liftcc::search
