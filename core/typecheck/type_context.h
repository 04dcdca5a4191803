#pragma once
// What the primitives' type rules (primitives/<family>.cpp) may ask of the
// type checker, and the one entry point through which the checker types a
// primitive. The checker declares the interface and the primitives implement
// it, so this folder includes nothing above core/: typePrimitive is defined
// beside the rules (primitives/rules.cpp), in the library this folder is
// built into (liftcc_primitives, see core/CMakeLists.txt).

#include "core/ir/expr.h"
#include "core/typecheck/type_error.h"

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

/// Types primitive node `prim` at `path` by its family's rule: the node with
/// typed operands and its type.
Expr typePrimitive(TypeContext &checker, const Expr &prim, const std::string &path);

} // namespace liftcc::rules
