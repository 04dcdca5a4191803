// Expr construction, accessors, hashing, structural equality and ordering.

#include "core/arith/internal.h"

#include <cassert>
#include <utility>

namespace liftcc::arith {

namespace {

size_t mix(size_t h, size_t v) {
  // boost::hash_combine with a 64-bit golden-ratio constant.
  return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

size_t finalize(size_t h) {
  // splitmix64 finalizer: spreads small integers over all bits.
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

bool isConstantBound(const std::shared_ptr<const Expr> &bound) { return !bound || bound->isConstant(); }

/// Rank of a kind in the total order. Variables come first among factors so
/// that products read `M*i*(j / 2)`.
int rank(Kind k) {
  switch (k) {
  case Kind::Constant: return 0;
  case Kind::Variable: return 1;
  case Kind::Div: return 2;
  case Kind::Mod: return 3;
  case Kind::Min: return 4;
  case Kind::Max: return 5;
  case Kind::Select: return 6;
  case Kind::Product: return 7;
  case Kind::Sum: return 8;
  }
  return 9;
}

const std::vector<Expr> kNoOperands;

} // namespace

// ---- Builder ----------------------------------------------------------------

namespace {

/// Range of the shared constant nodes: the constants index arithmetic builds
/// all the time (0, +-1, strides, offsets, tile and window sizes).
constexpr int64_t kSharedConstantMin = -64;
constexpr int64_t kSharedConstantMax = 1024;

} // namespace

Expr Builder::constant(int64_t value) {
  // Every sum, difference and product builds constants (a - b is a + -1*b):
  // sharing one immutable node per small value instead of allocating each
  // time took about a fifth of the allocations of code generation.
  if (value >= kSharedConstantMin && value <= kSharedConstantMax) {
    // One table per thread: the explorer generates kernels on several
    // threads, and one node per value for all of them made its reference
    // count a contended cache line (every kernel of Heat 256^3's space on
    // two threads: 19.2 s with one table, 13.6 s with one per thread).
    thread_local const std::vector<Expr> shared = [] {
      std::vector<Expr> nodes;
      nodes.reserve(static_cast<size_t>(kSharedConstantMax - kSharedConstantMin + 1));
      for (int64_t v = kSharedConstantMin; v <= kSharedConstantMax; ++v) nodes.push_back(newConstant(v));
      return nodes;
    }();
    return shared[static_cast<size_t>(value - kSharedConstantMin)];
  }
  return newConstant(value);
}

Expr Builder::newConstant(int64_t value) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Constant;
  n->value = value;
  n->hash = finalize(mix(static_cast<size_t>(Kind::Constant), static_cast<size_t>(value)));
  n->interval = nodeInterval(*n);
  return Expr(std::shared_ptr<const Node>(std::move(n)));
}

Expr Builder::variable(std::string name, Range range) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Variable;
  n->hash = finalize(mix(static_cast<size_t>(Kind::Variable), std::hash<std::string>{}(name)));
  n->name = std::move(name);
  // Index-like: bounded on both sides, or bounded by other variables. Sizes
  // ([1, inf)) and unbounded parameters stay symbolic in symbolic bounds.
  n->hasIndexVar = (range.lo && range.hi) || !isConstantBound(range.lo) || !isConstantBound(range.hi);
  n->range = std::move(range);
  n->interval = nodeInterval(*n);
  return Expr(std::shared_ptr<const Node>(std::move(n)));
}

Expr Builder::raw(Kind kind, std::vector<Expr> ops, CmpOp cmp) {
  assert(kind != Kind::Constant && kind != Kind::Variable);
  auto n = std::make_shared<Node>();
  n->kind = kind;
  n->cmp = cmp;
  size_t h = mix(static_cast<size_t>(kind), kind == Kind::Select ? static_cast<size_t>(cmp) : 0);
  for (const Expr &op : ops) {
    h = mix(h, op.hash());
    n->hasIndexVar = n->hasIndexVar || op.node()->hasIndexVar;
  }
  n->hash = finalize(h);
  n->ops = std::move(ops);
  n->interval = nodeInterval(*n);
  return Expr(std::shared_ptr<const Node>(std::move(n)));
}

// ---- Range ------------------------------------------------------------------

Range Range::unbounded() { return Range{}; }

Range Range::between(Expr lo, Expr hi) {
  return Range{std::make_shared<const Expr>(std::move(lo)), std::make_shared<const Expr>(std::move(hi))};
}

Range Range::atLeast(Expr lo) { return Range{std::make_shared<const Expr>(std::move(lo)), nullptr}; }

// ---- Expr -------------------------------------------------------------------

Expr::Expr() : Expr(Builder::constant(0)) {}
Expr::Expr(int64_t constant) : Expr(Builder::constant(constant)) {}

Expr Expr::var(std::string name, Range range) { return Builder::variable(std::move(name), std::move(range)); }

Expr Expr::size(std::string name) { return var(std::move(name), Range::atLeast(1)); }

Expr Expr::index(std::string name, const Expr &extent) { return var(std::move(name), Range::between(0, extent - 1)); }

Kind Expr::kind() const { return node_->kind; }

bool Expr::isConstant(int64_t value) const { return isConstant() && node_->value == value; }

int64_t Expr::constant() const {
  assert(isConstant());
  return node_->value;
}

const std::string &Expr::varName() const {
  assert(kind() == Kind::Variable);
  return node_->name;
}

const Range &Expr::varRange() const {
  assert(kind() == Kind::Variable);
  return node_->range;
}

const std::vector<Expr> &Expr::operands() const {
  return node_->kind == Kind::Constant || node_->kind == Kind::Variable ? kNoOperands : node_->ops;
}

CmpOp Expr::selectCmp() const {
  assert(kind() == Kind::Select);
  return node_->cmp;
}

size_t Expr::hash() const { return node_->hash; }

bool operator==(const Expr &a, const Expr &b) {
  const Node *x = a.node();
  const Node *y = b.node();
  if (x == y) return true;
  if (x->hash != y->hash || x->kind != y->kind) return false;
  switch (x->kind) {
  case Kind::Constant: return x->value == y->value;
  case Kind::Variable: return x->name == y->name; // variables are identified by name
  case Kind::Select:
    if (x->cmp != y->cmp) return false;
    [[fallthrough]];
  case Kind::Sum:
  case Kind::Product:
  case Kind::Div:
  case Kind::Mod:
  case Kind::Min:
  case Kind::Max: return x->ops == y->ops;
  }
  return false;
}

namespace {

/// Three-way structural comparison; a single recursion per level (two calls
/// to operator< per operand would be exponential in the depth).
int compare(const Node *x, const Node *y) {
  if (x == y) return 0;
  if (x->kind != y->kind) return rank(x->kind) < rank(y->kind) ? -1 : 1;
  switch (x->kind) {
  case Kind::Constant: return x->value < y->value ? -1 : (x->value > y->value ? 1 : 0);
  case Kind::Variable: return x->name.compare(y->name) < 0 ? -1 : (x->name == y->name ? 0 : 1);
  case Kind::Select:
    if (x->cmp != y->cmp) return x->cmp < y->cmp ? -1 : 1;
    [[fallthrough]];
  case Kind::Sum:
  case Kind::Product:
  case Kind::Div:
  case Kind::Mod:
  case Kind::Min:
  case Kind::Max: {
    // Lexicographic; shorter lists first on a common prefix.
    const size_t n = std::min(x->ops.size(), y->ops.size());
    for (size_t i = 0; i < n; ++i)
      if (int c = compare(x->ops[i].node(), y->ops[i].node())) return c;
    return x->ops.size() < y->ops.size() ? -1 : (x->ops.size() > y->ops.size() ? 1 : 0);
  }
  }
  return 0;
}

} // namespace

bool operator<(const Expr &a, const Expr &b) { return compare(a.node(), b.node()) < 0; }

int compareExprs(const Expr &a, const Expr &b) { return compare(a.node(), b.node()); }

} // namespace liftcc::arith
