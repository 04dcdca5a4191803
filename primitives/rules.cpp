#include "primitives/rules.h"

namespace liftcc::rules {

namespace {
// Indexed by the enum: rows come from LIFTCC_PRIMITIVES, in its order (checked in core/ir/op.cpp).
constexpr PrimitiveRules kRules[] = {
#define LIFTCC_RULES_ROW(op_, name_, family, ...) {&type##family, &eval##family},
    LIFTCC_PRIMITIVES(LIFTCC_RULES_ROW)
#undef LIFTCC_RULES_ROW
};
} // namespace

const PrimitiveRules &primitiveRules(Op op) { return kRules[static_cast<size_t>(op)]; }

Expr typePrimitive(TypeContext &checker, const Expr &prim, const std::string &path) {
  return primitiveRules(prim.op()).type(checker, prim, path);
}

Value evalPrimitive(EvalContext &interpreter, const Expr &prim) {
  return primitiveRules(prim.op()).eval(interpreter, prim);
}

Expr TypeContext::checkArray(const Expr &operand, const std::string &operandPath, const Expr &e) {
  Expr typed = check(operand, operandPath);
  if (!typed.typeOrThrow().isArray())
    fail(operandPath, std::string(e.info().name) + ": expected an array, found " + typed.typeOrThrow().str());
  return typed;
}

void TypeContext::requirePositive(const arith::Expr &v, const std::string &path, std::string_view what, const Expr &e) {
  if (!arith::provablyPositive(v))
    fail(path, std::string(e.info().name) + ": " + std::string(what) + " must be provably positive, found " + v.str());
}

void TypeContext::requireNonNegative(const arith::Expr &v, const std::string &path, std::string_view what,
                                     const Expr &e) {
  if (!arith::provablyNonNegative(v))
    fail(path,
         std::string(e.info().name) + ": " + std::string(what) + " must be provably non-negative, found " + v.str());
}

Expr TypeContext::rebuild(const Expr &e, std::vector<Expr> funs, std::vector<Expr> args, Type type) {
  return Expr::prim(e.op(), {e.sizes(), e.attr(), e.padMode(), std::move(funs), std::move(args)})
      .withType(std::move(type));
}

} // namespace liftcc::rules
