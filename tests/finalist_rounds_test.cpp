// The finalists' interleaved rounds (explore/finalists.h) under a time
// budget: a round the budget cuts does not count but the rounds before it
// stay (on NVIDIA's OpenCL a launch cut by the deadline used to throw every
// round away), no round starts that the deadline would cut, and an entrant
// whose timing fails leaves the rounds alone.

#include "explore/finalists.h"

#include <doctest/doctest.h>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace liftcc {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

TEST_SUITE("finalist rounds") {
TEST_CASE("finalist rounds: a round cut by the budget ends the rounds and keeps the ones completed") {
  size_t calls = 0;
  auto time = [&](size_t entrant, bool) -> double {
    // 3 entrants a round: the 8th call is the second timing of round 2.
    if (++calls == 8) throw explore::RoundCut("the time budget ended");
    return 10.0 + static_cast<double>(entrant);
  };
  explore::Rounds rounds = explore::timeInRounds(3, 5, time, [] { return false; });
  CHECK(rounds.completed == 2);
  for (size_t e = 0; e < 3; ++e) {
    CAPTURE(e);
    CHECK(rounds.figures[e].size() == 2); // the cut round's figures are dropped, nobody left
    CHECK(rounds.failures[e].empty());
  }
}

TEST_CASE("finalist rounds: an entrant whose timing fails leaves; the others go on") {
  auto time = [](size_t entrant, bool) -> double {
    if (entrant == 1) throw std::runtime_error("launch failed");
    return 1.0;
  };
  explore::Rounds rounds = explore::timeInRounds(3, 4, time, [] { return false; });
  CHECK(rounds.completed == 4);
  CHECK(rounds.figures[0].size() == 4);
  CHECK(rounds.figures[1].empty());
  CHECK(rounds.failures[1] == "launch failed");
  CHECK(rounds.figures[2].size() == 4);
}

TEST_CASE("finalist rounds: no round starts that the deadline would cut at the pace of the slowest so far") {
  auto slow = [](size_t, bool) {
    std::this_thread::sleep_for(5ms);
    return 1.0;
  };
  // The first round always runs; at 10 ms a round, a deadline 1 ms away
  // leaves no room for a second.
  explore::Rounds tight = explore::timeInRounds(
      2, 5, slow, [] { return false; }, Clock::now() + 1ms);
  CHECK(tight.completed == 1);
  CHECK(tight.figures[0].size() == 1);
  CHECK(tight.figures[1].size() == 1);
  // A far deadline takes every round.
  explore::Rounds roomy = explore::timeInRounds(
      2, 5, slow, [] { return false; }, Clock::now() + 1h);
  CHECK(roomy.completed == 5);
}
} // TEST_SUITE("finalist rounds")

} // namespace
} // namespace liftcc
