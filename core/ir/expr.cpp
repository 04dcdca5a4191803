#include "core/ir/expr.h"

#include "core/error.h"

#include <functional>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace liftcc {

struct Expr::Node {
  ExprKind kind;
  std::optional<Type> type;
  std::string name;                   // Param
  Scalar literal;                     // Literal
  std::vector<Expr> params;           // Lambda
  std::optional<Expr> body;           // Lambda
  std::optional<cfun::Function> ufun; // UserFun
  std::optional<Expr> fun;            // Apply
  Op op = Op::Map;                    // Prim
  std::vector<arith::Expr> sizes;     // Prim
  int attr = 0;                       // Prim
  PadMode padMode = PadMode::Clamp;   // Prim
  std::vector<Expr> funs;             // Prim
  std::vector<Expr> args;             // Prim, Apply
  size_t hash = 0;
};

namespace {
size_t combine(size_t seed, size_t value) { return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)); }

size_t hashScalar(const Scalar &s) { return combine(static_cast<size_t>(s.kind()), std::hash<double>{}(s.toDouble())); }
} // namespace

Expr Expr::param(std::string name, std::optional<Type> type) {
  auto n = std::make_shared<Node>();
  n->kind = ExprKind::Param;
  n->name = std::move(name);
  n->type = std::move(type);
  // Parameter identity is deliberately not hashed (alpha-equivalence).
  n->hash = 0x51;
  return Expr(std::move(n));
}

Expr Expr::literal(Scalar value) {
  auto n = std::make_shared<Node>();
  n->kind = ExprKind::Literal;
  n->literal = value;
  n->type = Type::scalar(value.kind());
  n->hash = combine(0x52, hashScalar(value));
  return Expr(std::move(n));
}

Expr Expr::lambda(std::vector<Expr> params, Expr body) {
  for (const Expr &p : params)
    if (!p.is(ExprKind::Param)) throw std::invalid_argument("lambda parameters must be Param nodes");
  auto n = std::make_shared<Node>();
  n->kind = ExprKind::Lambda;
  n->hash = combine(combine(0x53, params.size()), body.hash());
  n->params = std::move(params);
  n->body = std::move(body);
  return Expr(std::move(n));
}

Expr Expr::userFun(cfun::Function fun) {
  auto n = std::make_shared<Node>();
  n->kind = ExprKind::UserFun;
  size_t h = combine(0x54, std::hash<std::string>{}(fun.name()));
  h = combine(h, std::hash<std::string>{}(fun.body()));
  for (const cfun::Param &p : fun.params()) h = combine(h, static_cast<size_t>(p.kind));
  n->hash = combine(h, static_cast<size_t>(fun.result()));
  n->ufun = std::move(fun);
  return Expr(std::move(n));
}

Expr Expr::apply(Expr fun, std::vector<Expr> args) {
  auto n = std::make_shared<Node>();
  n->kind = ExprKind::Apply;
  size_t h = combine(0x55, fun.hash());
  for (const Expr &a : args) h = combine(h, a.hash());
  n->hash = h;
  n->fun = std::move(fun);
  n->args = std::move(args);
  return Expr(std::move(n));
}

Expr Expr::prim(Op op, PrimOperands o) {
  const OpInfo &info = opInfo(op);
  auto fail = [&](const std::string &what) { throw std::invalid_argument(std::string(info.name) + ": " + what); };
  if (o.sizes.size() != info.sizeFields.size())
    fail("expected " + std::to_string(info.sizeFields.size()) + " size operands");
  if (o.funs.size() != info.funFields.size())
    fail("expected " + std::to_string(info.funFields.size()) + " function operands");
  if (info.variadicArgs ? o.args.empty() : o.args.size() != info.argFields.size())
    fail("expected " + std::string(info.variadicArgs ? "at least one" : std::to_string(info.argFields.size())) +
         " data operands");
  auto n = std::make_shared<Node>();
  n->kind = ExprKind::Prim;
  size_t h = combine(0x56, static_cast<size_t>(op));
  for (const arith::Expr &s : o.sizes) h = combine(h, s.hash());
  h = combine(combine(h, static_cast<size_t>(o.attr)), static_cast<size_t>(o.padMode));
  for (const Expr &f : o.funs) h = combine(h, f.hash());
  for (const Expr &a : o.args) h = combine(h, a.hash());
  n->hash = h;
  n->op = op;
  n->sizes = std::move(o.sizes);
  n->attr = info.attr == AttrKind::None ? 0 : o.attr;
  n->padMode = info.hasPadMode ? o.padMode : PadMode::Clamp;
  n->funs = std::move(o.funs);
  n->args = std::move(o.args);
  return Expr(std::move(n));
}

ExprKind Expr::kind() const { return node_->kind; }
bool Expr::isPrim(Op op) const { return kind() == ExprKind::Prim && node_->op == op; }

const std::optional<Type> &Expr::type() const { return node_->type; }

const Type &Expr::typeOrThrow() const {
  if (!node_->type) throw InternalError("expression has not been type-checked");
  return *node_->type;
}

Expr Expr::withType(Type type) const {
  auto n = std::make_shared<Node>(*node_);
  n->type = std::move(type);
  return Expr(std::move(n));
}

namespace {
[[noreturn]] void wrongKind(const char *accessor) {
  throw InternalError(std::string("Expr::") + accessor + " on a node of another kind");
}
} // namespace

const std::string &Expr::name() const {
  if (kind() != ExprKind::Param) wrongKind("name");
  return node_->name;
}
const Scalar &Expr::literal() const {
  if (kind() != ExprKind::Literal) wrongKind("literal");
  return node_->literal;
}
const std::vector<Expr> &Expr::params() const {
  if (kind() != ExprKind::Lambda) wrongKind("params");
  return node_->params;
}
const Expr &Expr::body() const {
  if (kind() != ExprKind::Lambda) wrongKind("body");
  return *node_->body;
}
const cfun::Function &Expr::userFun() const {
  if (kind() != ExprKind::UserFun) wrongKind("userFun");
  return *node_->ufun;
}
const Expr &Expr::fun() const {
  if (kind() != ExprKind::Apply) wrongKind("fun");
  return *node_->fun;
}
Op Expr::op() const {
  if (kind() != ExprKind::Prim) wrongKind("op");
  return node_->op;
}
const std::vector<arith::Expr> &Expr::sizes() const {
  if (kind() != ExprKind::Prim) wrongKind("sizes");
  return node_->sizes;
}
int Expr::attr() const {
  if (kind() != ExprKind::Prim) wrongKind("attr");
  return node_->attr;
}
PadMode Expr::padMode() const {
  if (kind() != ExprKind::Prim) wrongKind("padMode");
  return node_->padMode;
}
const std::vector<Expr> &Expr::funs() const {
  if (kind() != ExprKind::Prim) wrongKind("funs");
  return node_->funs;
}
const std::vector<Expr> &Expr::args() const {
  if (kind() != ExprKind::Prim && kind() != ExprKind::Apply) wrongKind("args");
  return node_->args;
}

std::vector<Child> Expr::children() const {
  std::vector<Child> out;
  switch (kind()) {
  case ExprKind::Param:
  case ExprKind::Literal:
  case ExprKind::UserFun: break;
  case ExprKind::Lambda: out.push_back({"/body", &*node_->body}); break;
  case ExprKind::Apply:
    out.push_back({"/apply", &*node_->fun});
    for (size_t i = 0; i < node_->args.size(); ++i) out.push_back({"/args/" + std::to_string(i), &node_->args[i]});
    break;
  case ExprKind::Prim: {
    const OpInfo &info = opInfo(node_->op);
    for (size_t i = 0; i < node_->funs.size(); ++i)
      out.push_back({"/" + std::string(info.funFields[i]), &node_->funs[i]});
    for (size_t i = 0; i < node_->args.size(); ++i) {
      std::string path = info.variadicArgs ? "/" + std::string(info.argFields[0]) + "/" + std::to_string(i)
                                           : "/" + std::string(info.argFields[i]);
      out.push_back({std::move(path), &node_->args[i]});
    }
    break;
  }
  }
  return out;
}

Expr Expr::withChildren(std::vector<Expr> children) const {
  size_t expected = this->children().size();
  if (children.size() != expected) throw std::invalid_argument("withChildren: wrong number of children");
  switch (kind()) {
  case ExprKind::Param:
  case ExprKind::Literal:
  case ExprKind::UserFun: return *this;
  case ExprKind::Lambda: return lambda(node_->params, std::move(children[0]));
  case ExprKind::Apply: {
    Expr f = std::move(children[0]);
    children.erase(children.begin());
    return apply(std::move(f), std::move(children));
  }
  case ExprKind::Prim: {
    PrimOperands o{node_->sizes, node_->attr, node_->padMode, {}, {}};
    size_t nf = node_->funs.size();
    o.funs.assign(children.begin(), children.begin() + static_cast<std::ptrdiff_t>(nf));
    o.args.assign(children.begin() + static_cast<std::ptrdiff_t>(nf), children.end());
    return prim(node_->op, std::move(o));
  }
  }
  return *this;
}

size_t Expr::hash() const { return node_->hash; }

namespace {
// Parameters of `a` bound to parameters of `b` by enclosing lambdas, and the
// parameters of `b` bound so far.
struct Binding {
  std::unordered_map<const void *, const void *> aToB;
  std::unordered_set<const void *> boundInB;
};

bool alphaEqual(const Expr &a, const Expr &b, Binding &bound) {
  // A shared subtree is equal to itself only while no lambda has bound
  // anything: under a binding, the same subtree may use a parameter that is
  // bound on one side and free on the other (e.g. map(\row. map(f, row))
  // against a rebuilt map(\x. map(f, x)) where f uses `row`).
  if (a.sameNode(b) && bound.aToB.empty()) return true;
  if (a.hash() != b.hash() || a.kind() != b.kind()) return false;
  switch (a.kind()) {
  case ExprKind::Param: {
    auto it = bound.aToB.find(a.id());
    if (it != bound.aToB.end()) return it->second == b.id();
    return a.sameNode(b) && !bound.boundInB.count(b.id()); // the same free parameter
  }
  case ExprKind::Literal: return a.literal() == b.literal();
  case ExprKind::UserFun: {
    const cfun::Function &f = a.userFun(), &g = b.userFun();
    if (f.name() != g.name() || f.body() != g.body() || f.result() != g.result() ||
        f.params().size() != g.params().size())
      return false;
    for (size_t i = 0; i < f.params().size(); ++i)
      if (f.params()[i].name != g.params()[i].name || f.params()[i].kind != g.params()[i].kind) return false;
    return true;
  }
  case ExprKind::Lambda: {
    if (a.params().size() != b.params().size()) return false;
    for (size_t i = 0; i < a.params().size(); ++i) {
      bound.aToB[a.params()[i].id()] = b.params()[i].id();
      bound.boundInB.insert(b.params()[i].id());
    }
    return alphaEqual(a.body(), b.body(), bound);
  }
  case ExprKind::Apply:
  case ExprKind::Prim: {
    if (a.kind() == ExprKind::Prim &&
        (a.op() != b.op() || a.sizes() != b.sizes() || a.attr() != b.attr() || a.padMode() != b.padMode()))
      return false;
    auto ca = a.children(), cb = b.children();
    if (ca.size() != cb.size()) return false;
    for (size_t i = 0; i < ca.size(); ++i)
      if (!alphaEqual(*ca[i].expr, *cb[i].expr, bound)) return false;
    return true;
  }
  }
  return false;
}
} // namespace

bool operator==(const Expr &a, const Expr &b) {
  Binding bound;
  return alphaEqual(a, b, bound);
}

} // namespace liftcc
