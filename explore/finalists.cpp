#include "explore/finalists.h"

#include "explore/explorer.h"
#include "tuner/median.h"

#include <algorithm>
#include <exception>

namespace liftcc::explore {

std::vector<size_t> chooseFinalists(const std::vector<Evaluation> &evaluations, size_t count,
                                    std::optional<size_t> always) {
  if (count == 0) return {};
  std::vector<size_t> ok;
  for (size_t i = 0; i < evaluations.size(); ++i)
    if (evaluations[i].record.outcome == search::Outcome::Ok) ok.push_back(i);
  std::stable_sort(ok.begin(), ok.end(),
                   [&](size_t a, size_t b) { return evaluations[a].record.medianNs < evaluations[b].record.medianNs; });
  if (ok.size() > count) ok.resize(count);
  if (always && *always < evaluations.size() && evaluations[*always].record.outcome == search::Outcome::Ok &&
      std::find(ok.begin(), ok.end(), *always) == ok.end())
    ok.push_back(*always);
  return ok;
}

Rounds timeInRounds(size_t entrants, unsigned rounds, const std::function<double(size_t entrant, bool warmup)> &time,
                    const std::function<bool()> &stop, std::optional<std::chrono::steady_clock::time_point> deadline) {
  using Clock = std::chrono::steady_clock;
  Rounds out;
  out.figures.resize(entrants);
  out.failures.resize(entrants);
  Clock::duration slowestRound{0};
  for (unsigned round = 0; round < rounds; ++round) {
    if (stop && stop()) break;
    const Clock::time_point start = Clock::now();
    if (deadline && round > 0 && start + slowestRound > *deadline) break;
    bool cut = false;
    for (size_t n = 0; n < entrants && !cut; ++n) {
      size_t entrant = (n + round) % entrants;
      if (!out.failures[entrant].empty()) continue;
      try {
        out.figures[entrant].push_back(time(entrant, round == 0));
      } catch (const RoundCut &) {
        cut = true;
      } catch (const std::exception &e) {
        out.failures[entrant] = e.what();
        out.figures[entrant].clear();
      }
    }
    // A round cut short (by RoundCut, or `stop` after a launch past the
    // deadline) does not count.
    if (cut || (stop && stop())) {
      for (std::vector<double> &f : out.figures) f.resize(std::min<size_t>(f.size(), out.completed));
      break;
    }
    ++out.completed;
    slowestRound = std::max(slowestRound, Clock::now() - start);
  }
  return out;
}

search::Record retimedRecord(const search::Record &timed, const std::vector<double> &roundsNs) {
  search::Record record = timed;
  record.roundsNs = roundsNs;
  record.medianNs = std::max(tuner::median(roundsNs), 1.0);
  record.timestamp = search::isoTimestamp();
  return record;
}

} // namespace liftcc::explore
