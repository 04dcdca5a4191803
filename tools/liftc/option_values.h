#pragma once
// The one family of parsers for the numbers on liftc's command line: counts,
// factors and durations. Every verb's numeric option goes through it, so each
// value is finite, inside a documented range, an integer where it must be,
// converted without overflow, and refused with one line that names the
// option, the value found and the range accepted (a UsageError: exit 2)
// before any work. The ranges of the options shared by several verbs are
// named here, so that the verbs, their tests and the README agree.

#include <cstdint>
#include <string>

namespace liftcc::cli {

/// An inclusive range of integers.
struct CountRange {
  uint64_t min, max;
};

/// An inclusive range of durations, in seconds.
struct DurationRange {
  double minSeconds, maxSeconds;
};

/// A range of real factors: above `above` (exclusive), at most `max`.
struct FactorRange {
  double above, max;
};

/// `text` as an integer in `range`: decimal digits only (no sign, no space,
/// no exponent). `what` names the option ("--runs") or the item ("size N").
uint64_t parseCount(const std::string &what, const std::string &text, CountRange range);

/// `text` as a finite decimal number (e.g. 3, 2.5, 1e3) in `range`.
double parseFactor(const std::string &what, const std::string &text, FactorRange range);

/// `text` as a duration in `range`: a finite decimal number followed by ms,
/// s, m or h, or plain seconds ("90s", "1.5m", "0.2"). Returns seconds.
double parseDuration(const std::string &what, const std::string &text, DurationRange range);

/// "90 s", "10 min", "2 h": a duration as the error messages show a range.
std::string describeSeconds(double seconds);

/// The seed of random inputs and searches: any 64-bit value.
inline constexpr CountRange kSeedRange{0, UINT64_MAX};
/// Timed runs per measurement (explore, tune: --runs; run: --repeat).
inline constexpr CountRange kTimedRunsRange{1, 1000};
/// New measurements of one exploration (explore --evals).
inline constexpr CountRange kEvaluationsRange{1, 1000000};
/// A launch's timeout (explore, tune --timeout): past a day a kernel is not
/// worth waiting for, and the bound keeps nanosecond clocks from overflowing.
inline constexpr DurationRange kKernelTimeoutRange{0.001, 86400};
/// An exploration's wall-time budget (explore --budget, bench
/// --explore-budget): up to 30 days.
inline constexpr DurationRange kExploreBudgetRange{0.001, 30 * 86400};

} // namespace liftcc::cli
