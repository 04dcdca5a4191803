// Randomised property tests: the smart constructors must agree with a naive
// evaluation of the unsimplified tree on every assignment that satisfies the
// variable ranges, and canonical forms must be stable (idempotent
// simplification, print/parse round trip, hash consistency, sound bounds).

#include "core/arith/expr.h"

#include <doctest/doctest.h>

#include <random>

using namespace liftcc::arith;

namespace {

// ---- A test-only raw expression tree mirroring the operations -------------

struct Raw {
  enum Op { Const, Var, Add, Sub, Mul, Div, Mod, Neg, Min, Max, Sel } op = Const;
  int64_t value = 0; // Const
  int var = 0;       // Var: index into Vars
  CmpOp cmp = CmpOp::Lt;
  std::vector<Raw> kids;
};

/// Raw evaluation failed: division by zero (undefined in C) or a value that
/// left the range where the test arithmetic is exact.
struct Undefined {};

struct Vars {
  // N, M: sizes; i, j: indices of N, M; k: window offset; w: index of a
  // step-2 slide over N; x, s: may be negative.
  std::vector<std::string> names{"N", "M", "i", "j", "k", "w", "x", "s"};
  std::vector<Expr> exprs;
  std::map<std::string, Range> ranges;

  Vars() {
    const Expr N = Expr::size("N");
    const Expr M = Expr::size("M");
    exprs = {N,
             M,
             Expr::index("i", N),
             Expr::index("j", M),
             Expr::var("k", Range::between(0, 2)),
             Expr::index("w", (N - 3 + 2) / 2),
             Expr::var("x"),
             Expr::var("s", Range::between(-4, 4))};
    for (const Expr &e : exprs) ranges.emplace(e.varName(), e.varRange());
  }

  /// A random assignment satisfying all ranges (nullopt when w's range is
  /// empty for the drawn N).
  std::optional<std::map<std::string, int64_t>> assign(std::mt19937 &rng) const {
    auto uni = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
    const int64_t N = uni(1, 12), M = uni(1, 12);
    const int64_t wCount = (N - 3 + 2) / 2;
    if (wCount < 1) return std::nullopt;
    return std::map<std::string, int64_t>{{"N", N},
                                          {"M", M},
                                          {"i", uni(0, N - 1)},
                                          {"j", uni(0, M - 1)},
                                          {"k", uni(0, 2)},
                                          {"w", uni(0, wCount - 1)},
                                          {"x", uni(-15, 15)},
                                          {"s", uni(-4, 4)}};
  }
};

int64_t checked(int64_t v) {
  // Far below overflow of products of two such values: the raw evaluation
  // and the canonical one then compute with exact integers.
  if (v > (int64_t(1) << 30) || v < -(int64_t(1) << 30)) throw Undefined{};
  return v;
}

int64_t evalRaw(const Raw &r, const std::vector<int64_t> &values) {
  auto kid = [&](size_t n) { return evalRaw(r.kids[n], values); };
  switch (r.op) {
  case Raw::Const: return r.value;
  case Raw::Var: return values[static_cast<size_t>(r.var)];
  case Raw::Add: return checked(kid(0) + kid(1));
  case Raw::Sub: return checked(kid(0) - kid(1));
  case Raw::Mul: return checked(kid(0) * kid(1));
  case Raw::Neg: return -kid(0);
  case Raw::Div:
  case Raw::Mod: {
    const int64_t a = kid(0), b = kid(1);
    if (b == 0) throw Undefined{};
    return r.op == Raw::Div ? a / b : a % b;
  }
  case Raw::Min: return std::min(kid(0), kid(1));
  case Raw::Max: return std::max(kid(0), kid(1));
  case Raw::Sel: {
    const int64_t a = kid(0), b = kid(1);
    bool c = false;
    switch (r.cmp) {
    case CmpOp::Lt: c = a < b; break;
    case CmpOp::Le: c = a <= b; break;
    case CmpOp::Eq: c = a == b; break;
    case CmpOp::Ne: c = a != b; break;
    case CmpOp::Ge: c = a >= b; break;
    case CmpOp::Gt: c = a > b; break;
    }
    return c ? kid(2) : kid(3);
  }
  }
  return 0;
}

Expr build(const Raw &r, const Vars &vars) {
  auto kid = [&](size_t n) { return build(r.kids[n], vars); };
  switch (r.op) {
  case Raw::Const: return Expr(r.value);
  case Raw::Var: return vars.exprs[static_cast<size_t>(r.var)];
  case Raw::Add: return kid(0) + kid(1);
  case Raw::Sub: return kid(0) - kid(1);
  case Raw::Mul: return kid(0) * kid(1);
  case Raw::Neg: return -kid(0);
  case Raw::Div: return kid(0) / kid(1);
  case Raw::Mod: return kid(0) % kid(1);
  case Raw::Min: return min(kid(0), kid(1));
  case Raw::Max: return max(kid(0), kid(1));
  case Raw::Sel: return select(kid(0), r.cmp, kid(1), kid(2), kid(3));
  }
  return Expr();
}

class Generator {
public:
  Generator(std::mt19937 &rng, const Vars &vars) : rng_(rng), vars_(vars) {}

  Raw expr(int depth) {
    if (depth <= 0 || pick(0, 9) < 2) return leaf();
    Raw r;
    const int op = pick(0, 19);
    if (op < 5)
      r.op = Raw::Add;
    else if (op < 8)
      r.op = Raw::Sub;
    else if (op < 11)
      r.op = Raw::Mul;
    else if (op < 14)
      r.op = Raw::Div;
    else if (op < 16)
      r.op = Raw::Mod;
    else if (op < 17)
      r.op = Raw::Neg;
    else if (op < 18)
      r.op = Raw::Min;
    else if (op < 19)
      r.op = Raw::Max;
    else
      r.op = Raw::Sel;
    switch (r.op) {
    case Raw::Neg: r.kids = {expr(depth - 1)}; break;
    case Raw::Div:
    case Raw::Mod:
      if (pick(0, 2) == 0) {
        // (a*k + b) op k and (a/k)*k + a%k shapes, which the range rules target.
        Raw k = pick(0, 1) ? constant(1, 5) : variable(pick(0, 1));
        Raw scaled{Raw::Mul, 0, 0, CmpOp::Lt, {expr(depth - 1), k}};
        Raw numerator{Raw::Add, 0, 0, CmpOp::Lt, {scaled, expr(depth - 1)}};
        if (pick(0, 3) == 0) {
          Raw q{Raw::Div, 0, 0, CmpOp::Lt, {numerator, k}};
          Raw back{Raw::Mul, 0, 0, CmpOp::Lt, {q, k}};
          Raw rem{Raw::Mod, 0, 0, CmpOp::Lt, {numerator, k}};
          r.op = Raw::Add;
          r.kids = {back, rem};
        } else {
          r.kids = {numerator, k};
        }
        break;
      }
      r.kids = {expr(depth - 1), divisor(depth - 1)};
      break;
    case Raw::Mul:
      // Mostly scale by a constant or a size, like index arithmetic does.
      r.kids = {expr(depth - 1), pick(0, 2) == 0 ? expr(depth - 1) : scale()};
      break;
    case Raw::Sel:
      r.cmp = static_cast<CmpOp>(pick(0, 5));
      r.kids = {expr(depth - 1), expr(depth - 1), expr(depth - 1), expr(depth - 1)};
      break;
    case Raw::Add:
    case Raw::Sub:
    case Raw::Min:
    case Raw::Max: r.kids = {expr(depth - 1), expr(depth - 1)}; break;
    case Raw::Const:
    case Raw::Var: break;
    }
    return r;
  }

private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  Raw constant(int64_t lo, int64_t hi) {
    Raw r;
    r.value = std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
    return r;
  }

  Raw variable(int index) {
    Raw r;
    r.op = Raw::Var;
    r.var = index;
    return r;
  }

  Raw leaf() {
    if (pick(0, 2) == 0) return constant(-6, 6);
    return variable(pick(0, static_cast<int>(vars_.names.size()) - 1));
  }

  Raw scale() { return pick(0, 1) ? constant(-4, 4) : variable(pick(0, 1)); }

  Raw divisor(int depth) {
    switch (pick(0, 5)) {
    case 0:
    case 1: return constant(1, 5);
    case 2: return constant(-4, 4); // includes 0: undefined, skipped
    case 3: return variable(pick(0, 1));
    default: return expr(std::min(depth, 1));
    }
  }

  std::mt19937 &rng_;
  const Vars &vars_;
};

std::vector<int64_t> ordered(const Vars &vars, const std::map<std::string, int64_t> &a) {
  std::vector<int64_t> out;
  for (const std::string &n : vars.names) out.push_back(a.at(n));
  return out;
}

} // namespace

TEST_CASE("arith property: smart constructors preserve C semantics") {
  const Vars vars;
  std::mt19937 rng(20240611);
  Generator gen(rng, vars);
  constexpr int kExpressions = 5000;
  constexpr int kAssignments = 24;
  int compared = 0, skipped = 0;
  for (int n = 0; n < kExpressions; ++n) {
    const Raw raw = gen.expr(1 + n % 4);
    const Expr e = build(raw, vars);
    INFO("expression #" << n << ": " << e.str());
    const std::optional<int64_t> lo = constantLowerBound(e);
    const std::optional<int64_t> hi = constantUpperBound(e);
    for (int a = 0; a < kAssignments; ++a) {
      const auto assignment = vars.assign(rng);
      if (!assignment) continue;
      int64_t expected = 0;
      try {
        expected = evalRaw(raw, ordered(vars, *assignment));
      } catch (const Undefined &) {
        ++skipped;
        continue;
      }
      ++compared;
      int64_t actual = 0;
      REQUIRE_NOTHROW(actual = evaluate(e, *assignment));
      if (actual != expected) {
        std::string values;
        for (const auto &[name, v] : *assignment) values += name + "=" + std::to_string(v) + " ";
        FAIL_CHECK("value mismatch: " << values << "expected " << expected << " got " << actual);
      }
      if (lo && actual < *lo) FAIL_CHECK("lower bound " << *lo << " violated by " << actual);
      if (hi && actual > *hi) FAIL_CHECK("upper bound " << *hi << " violated by " << actual);
    }
  }
  MESSAGE(compared << " evaluations compared, " << skipped << " undefined skipped");
  CHECK(compared > kExpressions * kAssignments / 2);
}

TEST_CASE("arith property: canonical forms are stable") {
  const Vars vars;
  std::mt19937 rng(7);
  Generator gen(rng, vars);
  std::vector<Expr> all;
  for (int n = 0; n < 5000; ++n) {
    const Expr e = build(gen.expr(1 + n % 4), vars);
    INFO("expression #" << n << ": " << e.str());
    CHECK(simplify(e) == e);
    CHECK(simplify(substitute(e, {})) == e);
    const Expr back = parse(e.str(), vars.ranges);
    CHECK(back == e);
    CHECK(back.hash() == e.hash());
    CHECK(provablyEqual(e, back));
    all.push_back(e);
  }
  // a == b implies equal hashes; operator< is a strict total order.
  std::mt19937 pairs(11);
  std::uniform_int_distribution<size_t> idx(0, all.size() - 1);
  for (int n = 0; n < 20000; ++n) {
    const Expr &a = all[idx(pairs)];
    const Expr &b = all[idx(pairs)];
    if (a == b) {
      CHECK(a.hash() == b.hash());
      CHECK_FALSE(a < b);
    } else {
      CHECK((a < b) != (b < a));
    }
  }
}

TEST_CASE("arith property: proofs are sound") {
  const Vars vars;
  std::mt19937 rng(99);
  Generator gen(rng, vars);
  int proven = 0;
  for (int n = 0; n < 3000; ++n) {
    const Raw ra = gen.expr(1 + n % 3);
    const Raw rb = gen.expr(1 + n % 2);
    const Expr a = build(ra, vars), b = build(rb, vars);
    const bool lt = provablyLess(a, b), le = provablyLessEq(a, b), eq = provablyEqual(a, b);
    proven += lt || le || eq;
    if (!lt && !le && !eq) continue;
    INFO(a.str() << "  vs  " << b.str());
    for (int k = 0; k < 16; ++k) {
      const auto assignment = vars.assign(rng);
      if (!assignment) continue;
      try {
        const int64_t va = evalRaw(ra, ordered(vars, *assignment));
        const int64_t vb = evalRaw(rb, ordered(vars, *assignment));
        if (lt) CHECK(va < vb);
        if (le) CHECK(va <= vb);
        if (eq) CHECK(va == vb);
      } catch (const Undefined &) {}
    }
  }
  MESSAGE(proven << " provable relations checked");
}
