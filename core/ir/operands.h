#pragma once
// Named operands of primitives: the only place that knows at which position
// of sizes() / funs() / args() an operand sits (the positions follow the field
// lists of core/ir/op.h). Every accessor checks that its node is a primitive
// that has the operand and throws InternalError otherwise, so a pass that
// confuses primitives fails loudly instead of reading the wrong operand.

#include "core/ir/expr.h"

#include <string>

namespace liftcc {

// ---- data and function operands ------------------------------------------------
/// The "in" operand of a primitive with one data input (map-like, reduce-like,
/// split, join, slide, pad, padConstant, transpose, iterate, at, get, toX, slideSeq).
const Expr &inputOf(const Expr &prim);
/// The "in" operands of zip and tuple.
const std::vector<Expr> &inputsOf(const Expr &prim);
/// The "f" operand (map-like, reduce-like, iterate, generate, toX, slideSeq).
const Expr &funOf(const Expr &prim);
/// The initial accumulator of a reduce-like primitive.
const Expr &reduceInit(const Expr &reduce);
/// The padding value of padConstant.
const Expr &padValue(const Expr &padConstant);
/// The int index operand of atDynamic.
const Expr &dynamicIndexOf(const Expr &atDynamic);

// ---- size and integer operands ---------------------------------------------------
const arith::Expr &splitSize(const Expr &split);
const arith::Expr &vectorWidthOf(const Expr &asVector);
/// The number of elements take keeps.
const arith::Expr &takeCount(const Expr &take);
/// slide and slideSeq.
const arith::Expr &slideSize(const Expr &slide);
const arith::Expr &slideStep(const Expr &slide);
/// pad and padConstant.
const arith::Expr &padLeft(const Expr &pad);
const arith::Expr &padRight(const Expr &pad);
const arith::Expr &iterateCount(const Expr &iterate);
const arith::Expr &atIndex(const Expr &at);
const arith::Expr &generateSize(const Expr &generate);
/// The size expression whose value sizeValue is.
const arith::Expr &sizeValueOf(const Expr &sizeValue);
/// The thread-hierarchy dimension of mapGlb / mapWrg / mapLcl.
int mapDim(const Expr &parallelMap);
/// The tuple component get selects.
int getIndex(const Expr &get);

/// The JSON pointer segment(s) of data operand `i` relative to its node
/// ("/in", "/init", "/in/2" for variadic operands).
std::string argPath(const Expr &prim, size_t i);

} // namespace liftcc
