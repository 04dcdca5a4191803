#pragma once
// The semantics of the primitives, one family per file (primitives/<family>.cpp):
// each family defines its type rule and its interpreter case side by side,
// and core/ir/op.h's list registers them in the table below. The type checker
// (core/typecheck) and the interpreter (core/interp) handle the node kinds
// and dispatch every primitive through primitiveRules(op); the rules reach
// back into them through the two small interfaces here.

#include "core/interp/interpreter.h"
#include "core/interp/value.h"
#include "core/ir/operands.h"
#include "core/typecheck/type_error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace liftcc::rules {

/// A function operand after type checking, with its result type.
struct TypedFun {
  Expr fun; ///< typed Lambda or UserFun
  Type result;
};

/// What a type rule may ask of the type checker. `path` arguments are JSON
/// pointers of the node being checked.
class TypeContext {
public:
  /// The typed form of a value operand at `path`.
  virtual Expr check(const Expr &e, const std::string &path) = 0;
  /// Checks a function operand applied to arguments of the given types.
  virtual TypedFun checkFun(const Expr &f, const std::vector<Type> &argTypes, const std::string &path,
                            std::string_view context) = 0;

  /// A TypeError at `path`.
  [[noreturn]] static void fail(const std::string &path, const std::string &message) { throw TypeError(path, message); }
  /// The typed form of `operand` of primitive `e`, at `operandPath`; it must be an array.
  Expr checkArray(const Expr &operand, const std::string &operandPath, const Expr &e);
  void requirePositive(const arith::Expr &v, const std::string &path, std::string_view what, const Expr &e);
  void requireNonNegative(const arith::Expr &v, const std::string &path, std::string_view what, const Expr &e);
  /// `e` with typed operands and its type.
  static Expr rebuild(const Expr &e, std::vector<Expr> funs, std::vector<Expr> args, Type type);
  static std::string field(const std::string &path, std::string_view name) { return path + "/" + std::string(name); }

protected:
  ~TypeContext() = default;
};

/// What an interpreter case may ask of the interpreter.
class EvalContext {
public:
  virtual Value eval(const Expr &e) = 0;
  virtual Value call(const Expr &f, const std::vector<Value> &args) = 0;
  /// The value of a size expression at the interpreted sizes.
  virtual int64_t size(const arith::Expr &s) const = 0;

protected:
  ~EvalContext() = default;
};

/// Types a primitive node at `path`: the node with typed operands and its type.
using TypeRule = Expr (*)(TypeContext &checker, const Expr &e, const std::string &path);
/// Evaluates a typed primitive node.
using EvalRule = Value (*)(EvalContext &interpreter, const Expr &e);

struct PrimitiveRules {
  TypeRule type;
  EvalRule eval;
};

/// The rules of `op`, from the family named in its row of LIFTCC_PRIMITIVES.
const PrimitiveRules &primitiveRules(Op op);

/// The windows of a node with the slide operands (size, step, in): slide and
/// slideSeq, which share them (primitives/layout.cpp). The checked input and
/// the type of the windows, [[T]size]((n-size+step)/step).
struct CheckedWindows {
  Expr in;
  Type windows;
};
CheckedWindows checkWindows(TypeContext &checker, const Expr &e, const std::string &path);
/// The windows of such a node over the value `in`.
std::vector<Value> slideWindows(EvalContext &interpreter, const Expr &e, const Value &in);

// Every family's rules: type<Family> and eval<Family>, defined in primitives/<family>.cpp.
#define LIFTCC_DECLARE_RULES(op_, name_, family, ...)                                                                  \
  Expr type##family(TypeContext &checker, const Expr &prim, const std::string &path);                                  \
  Value eval##family(EvalContext &interpreter, const Expr &prim);
LIFTCC_PRIMITIVES(LIFTCC_DECLARE_RULES)
#undef LIFTCC_DECLARE_RULES

} // namespace liftcc::rules
