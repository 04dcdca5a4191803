#pragma once
// Finalists re-timed (issue #36 item 2): at the end of a search, the fastest
// few variants are timed again in interleaved rounds, and the winner is the
// best median of its rounds. A single timing on a shared machine can be one
// lucky sample (one kernel was seen at 3.6 and 7.0 ms a minute apart); a
// slow phase shorter than a round slows one round of every finalist instead
// of every run of one of them.
//
// Round r times each entrant once (starting one entrant further on each
// round), the first round after one warm-up run each. The explorer's
// entrants are the finalists' kernels, re-used as compiled and verified
// (explore/variant_evaluation.h, timeVariantAgain), and, with
// ExploreOptions::measureRoof, the device's copy roof, so that the winner's
// fraction of the roof is the median over rounds of its time against that
// round's copy (search/roof_rounds.h).

#include "search/result_store.h"

#include <chrono>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace liftcc::explore {

struct Evaluation;

/// The evaluations to re-time: the `count` fastest Ok ones (by medianNs,
/// ties in evaluation order), and `always` (the plain default baseline) when
/// it ran successfully, so that the winner is never slower than it in the
/// same rounds. Empty when count is 0.
std::vector<size_t> chooseFinalists(const std::vector<Evaluation> &evaluations, size_t count,
                                    std::optional<size_t> always);

struct Rounds {
  /// Per entrant, its figure of each completed round (empty for an entrant
  /// whose timing failed: it left the rounds).
  std::vector<std::vector<double>> figures;
  std::vector<std::string> failures; ///< per entrant, why it left the rounds (empty: it did not)
  unsigned completed = 0;            ///< rounds every remaining entrant took part in
};

/// Thrown by a `time` callback of timeInRounds when the time budget, not
/// the entrant, cut its timing short: the round does not count, the
/// entrant stays, and the rounds end.
struct RoundCut : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Times `entrants` in `rounds` interleaved rounds: `time(entrant, warmup)`
/// gives one figure (a median kernel time, a copy's bandwidth), with one
/// warm-up run first when `warmup`; an exception drops that entrant from
/// the rounds (RoundCut ends them instead). `stop` is checked before every
/// round: true ends the rounds (those completed stay). With a `deadline`,
/// no round starts that would end past it at the pace of the slowest round
/// so far: a round cut short is time spent for nothing.
Rounds timeInRounds(size_t entrants, unsigned rounds, const std::function<double(size_t entrant, bool warmup)> &time,
                    const std::function<bool()> &stop,
                    std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);

/// `timed` re-timed: its roundsNs, medianNs their median, a new timestamp.
search::Record retimedRecord(const search::Record &timed, const std::vector<double> &roundsNs);

} // namespace liftcc::explore
