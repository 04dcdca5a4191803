#pragma once
// The semantics of the primitives, one family per file (primitives/<family>.cpp):
// each family defines its type rule and its interpreter case side by side,
// and core/ir/op.h's list registers them in the table below. The type checker
// (core/typecheck) and the interpreters (core/interp) handle the node kinds
// and dispatch every primitive through typePrimitive / evalPrimitive, which
// they declare with the two small interfaces the rules reach back into them
// through (core/typecheck/type_context.h, core/interp/eval_context.h) and
// which are defined here: the dependency is inverted, so nothing in core/
// includes a header of primitives/.

#include "core/interp/eval_context.h"
#include "core/interp/interpreter.h"
#include "core/interp/value.h"
#include "core/ir/operands.h"
#include "core/typecheck/type_context.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace liftcc::rules {

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
