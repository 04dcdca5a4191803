// Issue #34's fuzz campaign, options slice: random values (numbers at the
// edges of their ranges, garbage, huge strings) for every numeric option of
// every verb (tests/liftc_numeric_options.h), through the liftc binary. Each
// run ends within its time limit, without a signal, with exit status 0 or
// one error line; an integer option is refused (exit 2, "--OPTION expects")
// exactly when its value is outside the range it documents. And every verb
// that prints, with random valid options, fails on a full standard output.
//
// LIFTCC_FUZZ_SCALE (default 1) multiplies the number of cases; LIFTCC_FUZZ_SEED
// (default 34) chooses them, and every failure names it.

#include "tests/explore_test_support.h"
#include "tests/liftc_batch.h"
#include "tests/liftc_numeric_options.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <random>

namespace liftcc {
namespace {

using test::shellQuote;

uint64_t environmentNumber(const char *name, uint64_t fallback) {
  const char *text = std::getenv(name);
  if (!text || !*text) return fallback;
  char *end = nullptr;
  unsigned long long value = std::strtoull(text, &end, 10);
  if (*end != '\0') throw std::invalid_argument(std::string(name) + " must be a non-negative integer");
  return value;
}

/// A value for a numeric option: near the edges of the ranges liftc uses,
/// plain and odd numbers with and without units, garbage and huge strings.
std::string randomValue(std::mt19937_64 &rng) {
  auto pick = [&](const std::vector<std::string> &from) { return from[rng() % from.size()]; };
  auto digits = [&](size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i) s += char('0' + rng() % 10);
    return s;
  };
  switch (rng() % 8) {
  case 0:
    return pick({"0",
                 "1",
                 "2",
                 "4",
                 "16",
                 "63",
                 "64",
                 "65",
                 "100",
                 "101",
                 "1000",
                 "1001",
                 "1024",
                 "1025",
                 "4096",
                 "4097",
                 "10000",
                 "10001",
                 "65535",
                 "65536",
                 "65537",
                 "1000000",
                 "1000001",
                 "9223372036854775807",
                 "9223372036854775808",
                 "18446744073709551615",
                 "18446744073709551616",
                 "-1",
                 "-0",
                 "00",
                 "007"});
  case 1: return digits(1 + rng() % 25);
  case 2: return digits(1 + rng() % 4) + pick({"", "ms", "s", "m", "h", "d", "x", "S", "mm", "sec"});
  case 3:
    return pick({"",       "0.",    ".5",    "0.5",   "1.5",    "2.0",   "1e3",  "1E3",  "1e-3",
                 "1e10",   "1e10s", "1e300", "1e309", "1e-400", "-1e-5", "720h", "721h", "24h",
                 "24.01h", "86400", "86401", "0.001", "0.0009", "1ms",   "0.9ms"});
  case 4:
    return pick({"nan", "NaN", "-nan", "inf", "-inf", "infinity", "INF", "nans", "0x10", "0x1p3", "+3",
                 " 8",  "8 ",  "\t8",  "8\n", "1,2",  "8,",       ",8",  "1/2",  "auto", "off"});
  case 5: {
    std::string s;
    for (size_t n = rng() % 24; n > 0; --n) s += char(32 + rng() % 95);
    return s;
  }
  case 6: return std::string(1 + rng() % 5000, "9.e-s"[rng() % 5]);
  default: return digits(1 + rng() % 3) + "." + digits(rng() % 3) + pick({"", "e", "e5", "e-2", "s", "m"});
  }
}

/// Whether liftc must accept `value` for an integer option of `range`:
/// decimal digits only, within the range.
bool inRange(const std::string &value, std::pair<uint64_t, uint64_t> range) {
  if (value.empty() || value.size() > 40) return false;
  unsigned __int128 number = 0;
  for (char c : value) {
    if (c < '0' || c > '9') return false;
    number = number * 10 + unsigned(c - '0');
  }
  return number >= range.first && number <= range.second;
}

TEST_CASE("fuzz options: random values for every numeric option of every verb") {
  const uint64_t seed = environmentNumber("LIFTCC_FUZZ_SEED", 34);
  const uint64_t scale = environmentNumber("LIFTCC_FUZZ_SCALE", 1);
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  // Verbs that read their program after their options get a missing one: an
  // accepted value ends there, instead of exploring or running.
  const std::vector<test::NumericOption> options = test::everyNumericOption("nope.json");
  std::vector<test::BatchCase> cases;
  std::vector<std::pair<size_t, std::string>> drawn; // option, value
  for (uint64_t i = 0; i < 60 * scale; ++i) {
    size_t option = rng() % options.size();
    std::string value = randomValue(rng);
    std::string args = options[option].withValue(shellQuote(value));
    // bench has no program: an unknown --target, checked after every number, ends it.
    if (args.rfind("bench ", 0) == 0) args += " --target none";
    cases.push_back({args});
    drawn.emplace_back(option, value);
  }
  std::vector<test::ProcessRun> runs = test::runLiftcBatch(cases, dir.path(), 8, 30);
  for (size_t i = 0; i < runs.size(); ++i) {
    const test::NumericOption &option = options[drawn[i].first];
    CAPTURE(seed);
    CAPTURE(cases[i].args.substr(0, 300));
    REQUIRE_MESSAGE((runs[i].status == 0 || runs[i].status == 1 || runs[i].status == 2), runs[i].output);
    if (runs[i].status != 0) CHECK_MESSAGE(test::isOneErrorLine(runs[i].output), runs[i].output.substr(0, 400));
    bool refused = runs[i].status == 2 && runs[i].output.find(option.named + " expects") != std::string::npos;
    if (option.range) CHECK_MESSAGE(refused != inRange(drawn[i].second, *option.range), runs[i].output);
    if (!option.zeroAllowed && drawn[i].second == "0") CHECK_MESSAGE(runs[i].status == 2, runs[i].output);
  }
}

TEST_CASE("fuzz options: every verb that prints fails on a full standard output, whatever its valid options") {
  const uint64_t seed = environmentNumber("LIFTCC_FUZZ_SEED", 34);
  const uint64_t scale = environmentNumber("LIFTCC_FUZZ_SCALE", 1);
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  const std::string p2 = shellQuote((test::sourceDir() / "examples" / "json" / "jacobi2d_5pt.json").string());
  const std::string p1 = shellQuote((test::sourceDir() / "examples" / "json" / "jacobi1d_3pt.json").string());
  auto number = [&](uint64_t lo, uint64_t hi) { return std::to_string(lo + rng() % (hi - lo + 1)); };
  std::vector<test::BatchCase> cases;
  for (uint64_t i = 0; i < scale; ++i) {
    const std::string sizes = " --size N=" + number(8, 300) + ",M=" + number(8, 300);
    cases.push_back({"check " + p2 + sizes, true});
    cases.push_back({"rewrite " + p2 + " --json" + (rng() % 2 ? " --expanded" : ""), true});
    cases.push_back({"rewrite " + p2 + " --list" + sizes, true});
    cases.push_back({"compile " + p2 + sizes + " --opt tiled --tile " + number(1, 16), true});
    cases.push_back({"compile " + p2 + sizes + " --opt coarsened --coarsen " + number(1, 8), true});
    cases.push_back({"eval " + p1 + " --size N=" + number(3, 5000) + " --seed " + number(0, 1000000) +
                         (rng() % 2 ? " --print" : ""),
                     true});
    cases.push_back({"export " + p2 + sizes + " --opt plain --out exported" + std::to_string(i), true});
    cases.push_back({rng() % 2 ? "schema" : "schema --markdown", true});
    cases.push_back({rng() % 2 ? "--help" : "--version", true});
  }
  std::vector<test::ProcessRun> runs = test::runLiftcBatch(cases, dir.path(), 8, 60);
  for (size_t i = 0; i < runs.size(); ++i) {
    CAPTURE(seed);
    CAPTURE(cases[i].args);
    CHECK_MESSAGE(runs[i].status == 1, runs[i].output);
    CHECK_MESSAGE(test::isOneErrorLine(runs[i].output), runs[i].output);
    CHECK_MESSAGE(runs[i].output.find("cannot write standard output") != std::string::npos, runs[i].output);
  }
}

} // namespace
} // namespace liftcc
