#pragma once
// Every option of every liftc verb that takes a count, a factor, a duration
// or a size, as a command line with VALUE where the value goes: the table the
// option-range and option-fuzz suites share, so that a new numeric option is
// added to both at once.

#include "tests/liftc_process.h"
#include "tests/test_support.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::test {

struct NumericOption {
  std::string args;         ///< liftc's arguments, quoted, with VALUE for the value
  std::string named;        ///< what the option's error names
  bool zeroAllowed = false; ///< 0 means something (a seed, no warm-ups, never explore)
  /// For options whose value is one integer checked by a range (not a list,
  /// not a word such as auto): the range accepted, which a fuzz can predict;
  /// nullopt for the others.
  std::optional<std::pair<uint64_t, uint64_t>> range = std::nullopt;

  std::string withValue(const std::string &quotedValue) const {
    std::string out = args;
    out.replace(out.find("VALUE"), 5, quotedValue);
    return out;
  }
};

/// The table. `early` is the program file of the verbs that check their
/// numeric options before reading it (eval, run, variants, explore, tune): a
/// fuzz gives a missing file there, so that an accepted value ends with that
/// file's error instead of running the verb.
inline std::vector<NumericOption> everyNumericOption(const std::string &early) {
  auto example = [](const std::string &name) {
    return shellQuote((sourceDir() / "examples" / "json" / (name + ".json")).string());
  };
  const std::string p2 = example("jacobi2d_5pt");
  const std::string compile = "compile " + p2 + " --size N=64,M=64 ";
  const std::string explore = "explore " + early + " --size N=64 --out results --quiet ";
  const std::string tune = "tune " + early + " --size N=64 --opt plain --out results ";
  const std::string bench = "bench --examples jacobi1d_3pt --quiet ";
  const std::string exporter = "export " + p2 + " --size N=64,M=64 --out exported ";
  const std::pair<uint64_t, uint64_t> seeds{0, UINT64_MAX}, runs{1, 1000};
  return {
      {"check " + p2 + " --size N=VALUE,M=8", "size N"},
      {"rewrite " + p2 + " --list --size N=8,M=VALUE", "size M"},
      {compile + "--opt tiled --tile=VALUE", "--tile"},
      {compile + "--opt tiled --tile=8,VALUE", "--tile"},
      {compile + "--opt tiled --local=VALUE", "--local"},
      {compile + "--opt coarsened --coarsen=VALUE", "--coarsen"},
      {compile + "--opt plain --vector=VALUE", "--vector"},
      {compile + "--opt plain --time-tile=VALUE", "--time-tile", false, {{1, 64}}},
      {"eval " + early + " --size N=16 --seed=VALUE", "--seed", true, seeds},
      {"run " + early + " --size N=16 --seed=VALUE", "--seed", true, seeds},
      {"run " + early + " --size N=16 --repeat=VALUE", "--repeat", false, runs},
      {"run " + early + " --size N=16 --opt plain --target cuda --device=VALUE", "--device", true},
      {explore + "--budget=VALUE", "--budget"},
      {explore + "--timeout=VALUE", "--timeout"},
      {explore + "--evals=VALUE", "--evals", false, {{1, 1000000}}},
      {explore + "--seed=VALUE", "--seed", true, seeds},
      {explore + "--runs=VALUE", "--runs", false, runs},
      {explore + "--prepare-threads=VALUE", "--prepare-threads", true},
      {explore + "--min-groups-per-sm=VALUE", "--min-groups-per-sm", true, {{0, 32}}},
      {explore + "--shard=VALUE/65536", "--shard", true, {{0, 65535}}},
      {explore + "--shard=0/VALUE", "--shard"},
      {explore + "--prune=VALUE", "--prune"},
      {explore + "--param tile=VALUE", "--param"},
      {tune + "--runs=VALUE", "--runs", false, runs},
      {tune + "--timeout=VALUE", "--timeout"},
      {bench + "--size-scale=VALUE", "--size-scale"},
      {bench + "--runs=VALUE", "--runs", false, {{1, 10000}}},
      {bench + "--warmups=VALUE", "--warmups", true, {{0, 1000}}},
      {bench + "--rounds=VALUE", "--rounds", false, {{1, 100}}},
      {bench + "--min-time=VALUE", "--min-time", true},
      {bench + "--seed=VALUE", "--seed", true, seeds},
      {bench + "--copy-mib=VALUE", "--copy-mib", false, {{1, 65536}}},
      {bench + "--tiles=VALUE", "--tiles"},
      {bench + "--explore=VALUE", "--explore", true, {{0, 1000000}}},
      {bench + "--explore-budget=VALUE", "--explore-budget"},
      {exporter + "--opt tiled --tile=VALUE", "--tile"},
      {exporter + "--opt tiled --local=VALUE", "--local"},
  };
}

} // namespace liftcc::test
