// The fraction of the copy roof over rounds (search/roof_rounds.h): each round's
// row time against that round's copy, the median and spread, and a median
// above 1.0 flagged rather than reported.

#include "search/roof_rounds.h"

#include <doctest/doctest.h>

using namespace liftcc::search;

TEST_SUITE("bench roof rounds") {

TEST_CASE("bench roof rounds: each round's time is compared with that round's copy") {
  // 1e6 outputs of 8 compulsory bytes: 8 MB per run. At 1 ms that is 8 GB/s.
  RoofFraction f = roofFraction({1e6, 2e6, 1e6}, {16e9, 16e9, 8e9}, 1000000, 8.0);
  REQUIRE(f.perRound.size() == 3);
  CHECK(f.perRound[0] == doctest::Approx(0.5));
  CHECK(f.perRound[1] == doctest::Approx(0.25));
  CHECK(f.perRound[2] == doctest::Approx(1.0)); // slow copy phase: the same kernel is at the roof
  CHECK(f.median == doctest::Approx(0.5));
  CHECK(f.low == doctest::Approx(0.25));
  CHECK(f.high == doctest::Approx(1.0));
  CHECK_FALSE(f.aboveRoof);
}

TEST_CASE("bench roof rounds: a median above 1.0 is a measurement problem") {
  RoofFraction f = roofFraction({1e6, 1e6, 1e6}, {4e9, 4e9, 16e9}, 1000000, 8.0);
  CHECK(f.median == doctest::Approx(2.0));
  CHECK(f.aboveRoof);
}

TEST_CASE("bench roof rounds: rounds without a copy or a time are left out; a peer timed once has one round") {
  RoofFraction f = roofFraction({1e6, 1e6, 1e6}, {16e9, 0, 8e9}, 1000000, 8.0);
  REQUIRE(f.perRound.size() == 2);
  CHECK(f.median == doctest::Approx(0.75));
  RoofFraction once = roofFraction({1e6}, {16e9, 16e9, 16e9}, 1000000, 8.0);
  REQUIRE(once.perRound.size() == 1);
  CHECK(once.median == doctest::Approx(0.5));
  RoofFraction none = roofFraction({}, {16e9}, 1000000, 8.0);
  CHECK(none.perRound.empty());
  CHECK(none.median == 0);
  CHECK_FALSE(none.aboveRoof);
}

} // TEST_SUITE("bench roof rounds")
