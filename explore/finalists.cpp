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
                    const std::function<bool()> &stop) {
  Rounds out;
  out.figures.resize(entrants);
  out.failures.resize(entrants);
  for (unsigned round = 0; round < rounds; ++round) {
    if (stop && stop()) break;
    for (size_t n = 0; n < entrants; ++n) {
      size_t entrant = (n + round) % entrants;
      if (!out.failures[entrant].empty()) continue;
      try {
        out.figures[entrant].push_back(time(entrant, round == 0));
      } catch (const std::exception &e) {
        out.failures[entrant] = e.what();
        out.figures[entrant].clear();
      }
    }
    // A round cut short by `stop` (a launch past the deadline) does not count.
    if (stop && stop()) {
      for (std::vector<double> &f : out.figures) f.resize(std::min<size_t>(f.size(), out.completed));
      break;
    }
    ++out.completed;
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
