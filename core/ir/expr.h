#pragma once
// The liftcc IR: immutable expression nodes with structural hashing.
//
// Node kinds:
//   Param    a variable bound by a Lambda (identity = the node itself; the
//            name is only a hint for printing and serialisation)
//   Literal  a scalar constant
//   Lambda   \params. body
//   UserFun  a scalar function with a C body (see core/cfun)
//   Apply    a function (Lambda or UserFun) applied to arguments
//   Prim     a primitive (see core/ir/op.h)
//
// A node carries its Type once the type checker has produced it
// (typeCheck() returns a fully typed copy of a program). Equality is
// structural and modulo renaming of bound parameters (alpha-equivalence);
// the cached hash is consistent with it because it never looks at parameter
// identity.

#include "core/arith/expr.h"
#include "core/cfun/function.h"
#include "core/ir/op.h"
#include "core/scalar.h"
#include "core/types.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace liftcc {

enum class ExprKind { Param, Literal, Lambda, UserFun, Apply, Prim };

class Expr;

/// One operand of a node together with its JSON-pointer path segment(s)
/// relative to the node ("/f", "/in", "/in/2", "/body", "/args/0").
struct Child {
  std::string path;
  const Expr *expr;
};

class Expr {
public:
  // ---- construction (no checking beyond arity; see typeCheck) -------------
  static Expr param(std::string name, std::optional<Type> type = std::nullopt);
  static Expr literal(Scalar value);
  static Expr lambda(std::vector<Expr> params, Expr body);
  static Expr userFun(cfun::Function fun);
  static Expr apply(Expr fun, std::vector<Expr> args);
  struct PrimOperands {
    std::vector<arith::Expr> sizes;
    int attr = 0;
    PadMode padMode = PadMode::Clamp;
    std::vector<Expr> funs;
    std::vector<Expr> args;
  };
  /// Throws std::invalid_argument when operand counts do not match opInfo(op).
  static Expr prim(Op op, PrimOperands operands);

  ExprKind kind() const;
  bool is(ExprKind k) const { return kind() == k; }
  bool isPrim(Op op) const;

  /// The type, present on nodes produced by the type checker.
  const std::optional<Type> &type() const;
  /// Precondition: typed. Throws InternalError otherwise.
  const Type &typeOrThrow() const;
  /// Same node with a type attached (used by the type checker).
  Expr withType(Type type) const;

  // Param
  const std::string &name() const;
  // Literal
  const Scalar &literal() const;
  // Lambda
  const std::vector<Expr> &params() const;
  const Expr &body() const;
  // UserFun
  const cfun::Function &userFun() const;
  // Apply
  const Expr &fun() const;
  // Prim
  Op op() const;
  const OpInfo &info() const { return opInfo(op()); }
  const std::vector<arith::Expr> &sizes() const;
  int attr() const;
  PadMode padMode() const;
  const std::vector<Expr> &funs() const;
  /// Prim data operands, or Apply arguments.
  const std::vector<Expr> &args() const;

  /// Expression operands in a fixed order with their path segments (Lambda
  /// parameters are binders, not children).
  std::vector<Child> children() const;
  /// Same node with new children (in the order of children()).
  Expr withChildren(std::vector<Expr> children) const;

  size_t hash() const;
  /// Structural equality modulo renaming of bound parameters; types ignored.
  friend bool operator==(const Expr &a, const Expr &b);
  friend bool operator!=(const Expr &a, const Expr &b) { return !(a == b); }
  /// Node identity (same object), as needed for parameters.
  bool sameNode(const Expr &other) const { return node_ == other.node_; }
  const void *id() const { return node_.get(); }

private:
  struct Node;
  explicit Expr(std::shared_ptr<const Node> node) : node_(std::move(node)) {}
  std::shared_ptr<const Node> node_;
};

/// A whole program: named size variables and a lambda whose parameters are
/// the typed inputs.
struct Program {
  std::vector<arith::Expr> sizes; ///< arith variables, in declaration order
  Expr fun;                       ///< Lambda; every parameter has a type

  const std::vector<Expr> &inputs() const { return fun.params(); }
  const Expr &body() const { return fun.body(); }
};

} // namespace liftcc

template <> struct std::hash<liftcc::Expr> {
  size_t operator()(const liftcc::Expr &e) const { return e.hash(); }
};
