#include "core/ir/operands.h"

#include "core/error.h"

#include <algorithm>

namespace liftcc {

namespace {

[[noreturn]] void misuse(const char *accessor, const Expr &e) {
  throw InternalError(
      std::string(accessor) + " on " +
      (e.is(ExprKind::Prim) ? "primitive " + std::string(e.info().name) : std::string("a non-primitive node")));
}

/// Position of `field` in `fields`, or misuse.
size_t position(const std::vector<std::string_view> &fields, std::string_view field, const char *accessor,
                const Expr &e) {
  auto it = std::find(fields.begin(), fields.end(), field);
  if (it == fields.end()) misuse(accessor, e);
  return static_cast<size_t>(it - fields.begin());
}

const Expr &argField(const Expr &e, std::string_view field, const char *accessor, bool applies) {
  if (!applies || !e.is(ExprKind::Prim) || e.info().variadicArgs) misuse(accessor, e);
  return e.args()[position(e.info().argFields, field, accessor, e)];
}

const arith::Expr &sizeField(const Expr &e, std::string_view field, const char *accessor, bool applies) {
  if (!applies) misuse(accessor, e);
  return e.sizes()[position(e.info().sizeFields, field, accessor, e)];
}

bool isPad(const Expr &e) { return e.isPrim(Op::Pad) || e.isPrim(Op::PadConstant); }

} // namespace

const Expr &inputOf(const Expr &prim) { return argField(prim, "in", "inputOf", prim.is(ExprKind::Prim)); }

const std::vector<Expr> &inputsOf(const Expr &prim) {
  if (!prim.is(ExprKind::Prim) || !prim.info().variadicArgs) misuse("inputsOf", prim);
  return prim.args();
}

const Expr &funOf(const Expr &prim) {
  if (!prim.is(ExprKind::Prim)) misuse("funOf", prim);
  return prim.funs()[position(prim.info().funFields, "f", "funOf", prim)];
}

const Expr &reduceInit(const Expr &reduce) {
  return argField(reduce, "init", "reduceInit", reduce.is(ExprKind::Prim) && isReduceLike(reduce.op()));
}
const Expr &padValue(const Expr &padConstant) {
  return argField(padConstant, "value", "padValue", padConstant.isPrim(Op::PadConstant));
}

const Expr &dynamicIndexOf(const Expr &atDynamic) {
  return argField(atDynamic, "index", "dynamicIndexOf", atDynamic.isPrim(Op::AtDynamic));
}

const arith::Expr &splitSize(const Expr &split) { return sizeField(split, "n", "splitSize", split.isPrim(Op::Split)); }
const arith::Expr &vectorWidthOf(const Expr &asVector) {
  return sizeField(asVector, "width", "vectorWidthOf", asVector.isPrim(Op::AsVector));
}
const arith::Expr &takeCount(const Expr &take) { return sizeField(take, "n", "takeCount", take.isPrim(Op::Take)); }
const arith::Expr &slideSize(const Expr &slide) {
  return sizeField(slide, "size", "slideSize", slide.isPrim(Op::Slide) || slide.isPrim(Op::SlideSeq));
}
const arith::Expr &slideStep(const Expr &slide) {
  return sizeField(slide, "step", "slideStep", slide.isPrim(Op::Slide) || slide.isPrim(Op::SlideSeq));
}
const arith::Expr &padLeft(const Expr &pad) { return sizeField(pad, "left", "padLeft", isPad(pad)); }
const arith::Expr &padRight(const Expr &pad) { return sizeField(pad, "right", "padRight", isPad(pad)); }
const arith::Expr &iterateCount(const Expr &iterate) {
  return sizeField(iterate, "n", "iterateCount", iterate.isPrim(Op::Iterate));
}
const arith::Expr &atIndex(const Expr &at) { return sizeField(at, "index", "atIndex", at.isPrim(Op::At)); }
const arith::Expr &generateSize(const Expr &generate) {
  return sizeField(generate, "size", "generateSize", generate.isPrim(Op::Generate));
}
const arith::Expr &sizeValueOf(const Expr &sizeValue) {
  return sizeField(sizeValue, "of", "sizeValueOf", sizeValue.isPrim(Op::SizeValue));
}

int mapDim(const Expr &parallelMap) {
  if (!parallelMap.is(ExprKind::Prim) || parallelMap.info().attr != AttrKind::Dim) misuse("mapDim", parallelMap);
  return parallelMap.attr();
}

int getIndex(const Expr &get) {
  if (!get.isPrim(Op::Get)) misuse("getIndex", get);
  return get.attr();
}

std::string argPath(const Expr &prim, size_t i) {
  const OpInfo &info = prim.info();
  if (info.variadicArgs) return "/" + std::string(info.argFields.front()) + "/" + std::to_string(i);
  if (i >= info.argFields.size()) misuse("argPath", prim);
  return "/" + std::string(info.argFields[i]);
}

} // namespace liftcc
