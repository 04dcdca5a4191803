#pragma once
// Helpers for passes that rebuild expressions. Rebuilt nodes lose their
// types: a transformed program must be type-checked again (which every
// rewrite does anyway, to prove the result well-typed).

#include "core/ir/expr.h"

#include <functional>
#include <string>
#include <unordered_map>

namespace liftcc {

/// The node with every child replaced by f(child); the node itself when no
/// child changed (so unchanged subtrees keep their identity and types).
Expr mapChildren(const Expr &e, const std::function<Expr(const Expr &)> &f);

/// Rebuilds bottom-up: children first, then f on the rebuilt node.
Expr transformBottomUp(const Expr &e, const std::function<Expr(const Expr &)> &f);

/// `e` as primitive `op` with the same operands (e.g. map -> mapGlb(dim),
/// mapSeq -> mapSeqUnroll); `attr` is the new primitive's attribute.
Expr withOp(const Expr &e, Op op, int attr = 0);

/// True when some subexpression satisfies `pred` (pre-order, stops early).
bool containsNode(const Expr &e, const std::function<bool(const Expr &)> &pred);

/// Whether `e` reads the parameter `param` (the node itself, not a namesake).
bool readsParam(const Expr &e, const Expr &param);

/// `e` with the parameter `param` (the node itself) replaced by `by`
/// everywhere: a lambda's body applied to an argument.
Expr withParamReplaced(const Expr &e, const Expr &param, const Expr &by);

/// The body of `program` with each of its inputs replaced by what `byName`
/// maps that input's name to (a lowered program put back over the nodes of
/// another: lowering rebuilds a program's parameters). Every input read must
/// have an entry.
Expr bodyOver(const Program &program, const std::unordered_map<std::string, Expr> &byName);

} // namespace liftcc
