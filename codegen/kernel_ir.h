#pragma once
// The kernel IR: the statements of a kernel body between lowering (the
// Generator, which decides what to compute where) and text (the printer,
// kernel_ir_print.h, which spells it in a dialect). Statements are immutable
// values; passes (kernel_ir_passes.h) map statement lists to new ones.
//
// Expressions stay C text in this step: indices are already simplified by
// core/arith when they get here, and user-function calls are C already.

#include "core/scalar.h"

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace liftcc::codegen::kir {

struct Stmt;
/// A statement list, printed one statement a line, in order.
using Stmts = std::vector<Stmt>;

/// `{ body }`: a nested scope.
struct Block {
  Stmts body;
  bool operator==(const Block &) const = default;
};

/// `[const ]type name = init;`
struct Let {
  std::string type, name, init;
  bool constant = true;
  bool operator==(const Let &) const = default;
};

/// `target = value;`, or `if (guard) target = value;` on one line when a
/// guard (take's bound on a written element) is given.
struct Assign {
  std::string target, value, guard;
  bool operator==(const Assign &) const = default;
};

/// The `width` consecutive elements of `buffer` from `offset` (a multiple of
/// the width where the dialect needs alignment) take the vector `value` in
/// one store: vstoreN in OpenCL C, one aligned access of `vectorType` in CUDA.
struct VectorStore {
  std::string vectorType;
  int width = 0;
  std::string buffer, offset, value;
  bool operator==(const VectorStore &) const = default;
};

/// `if (condition) { then } [else { otherwise }]`.
struct If {
  std::string condition;
  Stmts then;
  std::optional<Stmts> otherwise;
  bool operator==(const If &) const = default;
};

/// `for (type var = start; var < bound; var += step) { body }` (`var++` for a step of "1").
struct For {
  std::string type, var, start, bound, step;
  Stmts body;
  bool operator==(const For &) const = default;
};

/// A barrier on local memory for the whole work-group.
struct Barrier {
  bool operator==(const Barrier &) const = default;
};

enum class ArraySpace { Private, Local };

/// An array of `count` scalars of `kind`: in the work-item's private memory,
/// or in the work-group's local memory (declared at the kernel's top).
struct ArrayDecl {
  ArraySpace space = ArraySpace::Private;
  ScalarKind kind = ScalarKind::Float;
  std::string name, count;
  bool operator==(const ArrayDecl &) const = default;
};

/// A statement kept as text, printed as given. Used only where a typed node
/// is not worth it yet: nowhere in the Generator today; tests and callers
/// outside codegen may emit one.
struct Raw {
  std::string text;
  bool operator==(const Raw &) const = default;
};

struct Stmt {
  std::variant<Block, Let, Assign, VectorStore, If, For, Barrier, ArrayDecl, Raw> node;
  bool operator==(const Stmt &) const = default;

  template <typename T> const T *as() const { return std::get_if<T>(&node); }
  /// Let and ArrayDecl: the name this statement declares in its scope.
  std::optional<std::string> declaredName() const;
};

/// Builds a statement list in emission order: the Generator's one way of
/// emitting code. Nested statements (forLoop, ifThen, scope) take the code
/// that emits their body, so a scope is always closed.
class Builder {
public:
  void let(std::string type, std::string name, std::string init, bool constant = true);
  void assign(std::string target, std::string value, std::string guard = "");
  void vectorStore(VectorStore store);
  void barrier();
  void privateArray(ScalarKind kind, std::string name, std::string count);
  void raw(std::string text);
  void forLoop(std::string type, std::string var, std::string start, std::string bound, std::string step,
               const std::function<void()> &body);
  void ifThen(std::string condition, const std::function<void()> &then);
  void scope(const std::function<void()> &body);

  /// The statements emitted so far (outside every open scope).
  const Stmts &statements() const { return open_.front(); }

private:
  void append(Stmt statement) { open_.back().push_back(std::move(statement)); }
  /// Runs `emit` into a fresh statement list and returns it.
  Stmts nested(const std::function<void()> &emit);

  std::vector<Stmts> open_{Stmts{}};
};

} // namespace liftcc::codegen::kir
