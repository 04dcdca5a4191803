#pragma once
// Symbolic integer arithmetic: array sizes, indices and tuning parameters.
//
// An arith::Expr is an immutable, structurally hashed expression in canonical
// form. Every operator below is a *smart constructor*: it returns the
// simplified canonical form, so `simplify(e) == e` holds for any Expr built
// through this API and simplification is idempotent by construction.
//
// Division and remainder have C semantics (truncation toward zero), because
// the expressions are emitted verbatim as OpenCL/CUDA index arithmetic.
// Simplifications that are only valid for non-negative operands (e.g.
// `(a*k+b)/k -> a`) are applied only when the ranges of the variables prove it.

#include "core/error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace liftcc::arith {

class Node;
class Expr;

enum class Kind {
  Constant, ///< 64-bit integer literal
  Variable, ///< named size / index / tuning parameter with a range
  Sum,      ///< sum of >= 2 terms, sorted canonically, at most one constant
  Product,  ///< product of >= 2 factors, sorted canonically, at most one constant
  Div,      ///< a / b, C semantics
  Mod,      ///< a % b, C semantics
  Min,
  Max,
  Select, ///< cond ? a : b where cond is a comparison of two Exprs
};

enum class CmpOp { Lt, Le, Eq, Ne, Ge, Gt };

/// Inclusive symbolic range of a variable. A missing bound is unbounded.
struct Range {
  std::shared_ptr<const Expr> lo; ///< nullptr: -infinity
  std::shared_ptr<const Expr> hi; ///< nullptr: +infinity
  static Range unbounded();
  static Range between(Expr lo, Expr hi); ///< lo <= v <= hi
  static Range atLeast(Expr lo);          ///< lo <= v
};

class Expr {
public:
  Expr();                                                      ///< the constant 0
  Expr(int64_t constant);                                      // NOLINT: implicit so that `n + 1` reads naturally
  Expr(int constant) : Expr(static_cast<int64_t>(constant)) {} // NOLINT

  /// A variable. Variables are identified by name: two Vars with the same name
  /// are the same variable (and must be created with the same range).
  static Expr var(std::string name, Range range = Range::unbounded());
  /// A size variable: range [1, +inf).
  static Expr size(std::string name);
  /// An index variable i with 0 <= i <= extent - 1.
  static Expr index(std::string name, const Expr &extent);

  Kind kind() const;
  bool isConstant() const { return kind() == Kind::Constant; }
  bool isConstant(int64_t value) const;
  int64_t constant() const; ///< precondition: isConstant()

  const std::string &varName() const; ///< precondition: Variable
  const Range &varRange() const;      ///< precondition: Variable
  /// Operands: Sum terms, Product factors, {a, b} of Div/Mod/Min/Max,
  /// {cmp.lhs, cmp.rhs, then, else} of Select.
  const std::vector<Expr> &operands() const;
  CmpOp selectCmp() const; ///< precondition: Select

  size_t hash() const;
  /// Structural equality of the canonical forms.
  friend bool operator==(const Expr &a, const Expr &b);
  friend bool operator!=(const Expr &a, const Expr &b) { return !(a == b); }
  /// A strict total order on canonical forms (used for sorting operands).
  friend bool operator<(const Expr &a, const Expr &b);

  /// C syntax with minimal parentheses; parse(e.str()) == e.
  std::string str() const;
  /// The same with `callPrefix` before every min and max call
  /// (`liftcc_min(...)`: kernels with 64-bit indices call their own).
  std::string str(std::string_view callPrefix) const;

  const Node *node() const { return node_.get(); }

private:
  explicit Expr(std::shared_ptr<const Node> node) : node_(std::move(node)) {}
  std::shared_ptr<const Node> node_;
  friend class Node;
  friend struct Builder;
};

Expr operator+(const Expr &a, const Expr &b);
Expr operator-(const Expr &a, const Expr &b);
Expr operator-(const Expr &a);
Expr operator*(const Expr &a, const Expr &b);
Expr operator/(const Expr &a, const Expr &b);
Expr operator%(const Expr &a, const Expr &b);
Expr min(const Expr &a, const Expr &b);
Expr max(const Expr &a, const Expr &b);
/// lhs `op` rhs ? then : otherwise. Folded when the comparison is provable.
Expr select(const Expr &lhs, CmpOp op, const Expr &rhs, const Expr &then, const Expr &otherwise);

/// Re-canonicalises (useful after substitution); identity on any Expr built by
/// the smart constructors.
Expr simplify(const Expr &e);

/// Replaces variables (by name). Unmentioned variables stay.
Expr substitute(const Expr &e, const std::map<std::string, Expr> &bindings);

/// Names of the free variables, sorted.
std::vector<std::string> freeVariables(const Expr &e);

/// Concrete evaluation with C semantics. Throws EvalError on an unbound
/// variable or a division by zero.
int64_t evaluate(const Expr &e, const std::map<std::string, int64_t> &values);

struct EvalError : Error {
  using Error::Error;
};
struct ParseError : Error {
  using Error::Error;
};

/// Parses C-like integer syntax: integers, identifiers, + - * / %, unary -,
/// parentheses, min(a,b), max(a,b), (a < b ? c : d). Identifiers become
/// variables whose range is looked up in `ranges` (unbounded if absent).
Expr parse(const std::string &text, const std::map<std::string, Range> &ranges = {});

// ---- Range reasoning -------------------------------------------------------
// Bounds are derived from variable ranges (recursively: a range bound may
// mention other variables, e.g. i in [0, N-1] with N in [1, inf)).

/// Best constant lower/upper bound, nullopt if unbounded / unknown.
std::optional<int64_t> constantLowerBound(const Expr &e);
std::optional<int64_t> constantUpperBound(const Expr &e);
/// Symbolic bounds: expressions over size variables only (index variables are
/// replaced by their range ends according to monotonicity).
std::optional<Expr> symbolicLowerBound(const Expr &e);
std::optional<Expr> symbolicUpperBound(const Expr &e);

bool provablyNonNegative(const Expr &e);           ///< e >= 0
bool provablyPositive(const Expr &e);              ///< e > 0
bool provablyLess(const Expr &a, const Expr &b);   ///< a < b
bool provablyLessEq(const Expr &a, const Expr &b); ///< a <= b
bool provablyEqual(const Expr &a, const Expr &b);  ///< canonical forms equal
/// a % k == 0 for all values of the variables (e.g. (4*N) % 4, (N*M) % N).
bool provablyDivisible(const Expr &a, const Expr &k);

} // namespace liftcc::arith

template <> struct std::hash<liftcc::arith::Expr> {
  size_t operator()(const liftcc::arith::Expr &e) const { return e.hash(); }
};
