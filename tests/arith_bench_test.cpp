// Micro-benchmark: building (and re-simplifying) typical stencil index
// expressions must stay far below 100 microseconds each. Only a generous
// sanity bound is asserted (sanitizer builds are slow); the measured time is
// reported with MESSAGE.

#include "core/arith/expr.h"

#include <doctest/doctest.h>

#include <chrono>
#include <functional>

using namespace liftcc::arith;

TEST_CASE("arith bench: typical stencil index expressions") {
  const Expr N = Expr::size("N");
  const Expr M = Expr::size("M");
  const Expr i = Expr::index("i", N);
  const Expr j = Expr::index("j", M);
  const Expr size = 3, step = 2;
  const Expr w = Expr::index("w", (N - size + step) / step); // slide window
  const Expr k = Expr::index("k", size);                     // inside a window
  const Expr t = Expr::index("t", N / 4);                    // tile
  const Expr l = Expr::index("l", 4);                        // inside a tile

  const std::vector<std::function<Expr()>> builders = {
      [&] { return (i + 1) * M + j + 2; },
      [&] { return w * step + k; },
      [&] { return (N - size + 1) / 1; },
      [&] { return ((w * step + k) / 4) * 4 + (w * step + k) % 4; },
      [&] { return (i * M + j) / M + (i * M + j) % M; },
      [&] { return ((t * 4 + l) * M + j) % M + ((t * 4 + l) * M + j) / M * M; },
      [&] { return min(w * step + k, N - 1) + max(i - 1, Expr(0)); },
      [&] { return select(i + k, CmpOp::Lt, N, (i + k) * M + j, Expr(0)); },
      [&] { return ((i * 2 + 1) * (M + 2) + j + 1 - (M + 2)) / 2; },
      [&] { return (N * M * 4 + 4 * j) / 4 - j; },
  };

  std::vector<Expr> built;
  for (const auto &b : builders) built.push_back(b());
  CHECK(built[2] == N - 2);
  CHECK(built[3] == w * 2 + k);
  CHECK(built[4] == i + j);
  CHECK(built[5] == (t * 4 + l) * M + j);
  CHECK(built[6] == w * 2 + k + max(i - 1, Expr(0)));
  CHECK(built[9] == N * M);

  constexpr int kRounds = 200;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  size_t sink = 0;
  for (int r = 0; r < kRounds; ++r)
    for (const auto &b : builders) sink += b().hash();
  const double buildUs =
      std::chrono::duration<double, std::micro>(Clock::now() - start).count() / (kRounds * builders.size());

  const auto start2 = Clock::now();
  for (int r = 0; r < kRounds; ++r)
    for (const Expr &e : built) sink += simplify(e).hash();
  const double simplifyUs =
      std::chrono::duration<double, std::micro>(Clock::now() - start2).count() / (kRounds * built.size());

  for (const Expr &e : built) MESSAGE(e.str());
  MESSAGE("build+simplify " << buildUs << " us/expr, re-simplify " << simplifyUs << " us/expr (checksum "
                            << (sink & 0xff) << ")");
  CHECK(buildUs < 1000.0);
  CHECK(simplifyUs < 1000.0);
}
