#pragma once
// The index semantics of the view primitives, written once: which element of
// which operand an element of a view's result is. Both readers of views use
// these rules: the code generator with symbolic indices (arith::Expr, the
// index expressions of the kernel) and the point interpreter with concrete
// ones (int64_t). A rule is a template over an index algebra:
//
//   struct Algebra {
//     using Index = ...;                                   // arith::Expr or int64_t
//     Index size(const arith::Expr &sizeExpr) const;       // a size operand or length, as an index
//     static Index min(const Index &, const Index &);
//     static Index max(const Index &, const Index &);
//     static Index select(const Index &lhs, arith::CmpOp, const Index &rhs, const Index &then, const Index &otherwise);
//   };
//   plus + - * / % (C semantics) on Index and with int.
//
// indexRule(op) classifies every primitive (the switch names each one, so a
// new primitive does not compile until it is classified), and a static_assert
// below makes a view primitive (opflag::View) without a rule a compile error:
// a reader can never fall back to evaluating a view's whole operand because
// its rule was forgotten.
//
// The writing direction (writeThrough: where an element of a layout view's
// operand lands in its result, when a computed array is written through
// join, split, transpose, take or asScalar) is here too, beside the reading
// rule it inverts; the code generator writes through it.

#include "core/arith/expr.h"
#include "core/error.h"
#include "core/ir/operands.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace liftcc::views {

/// One step of a path into a value: an array index or a tuple component.
template <class I> struct Step {
  bool isTuple = false;
  I index{};         ///< array index (when !isTuple)
  int component = 0; ///< tuple component (when isTuple)

  static Step arrayIndex(I i) { return {false, std::move(i), 0}; }
  static Step tupleComponent(int k) { return {true, I{}, k}; }
};

/// A path into a value, outermost step first.
template <class I> using Path = std::vector<Step<I>>;

/// What an element of a primitive's result is made of.
enum class RuleKind {
  Reindex,  ///< an element of one of its data operands (the rule: reindex() below)
  Function, ///< f applied to an element of `in` (map-like) or to the index (generate): the reader applies f
  Scalar,   ///< a scalar (sizeValue): nothing to index
  /// an element of `in` at the index its int operand `index` holds, clamped
  /// into [0, n) (atDynamic): the reader evaluates the operand, then reads
  /// `in` at [clamped index] followed by the rest of the path
  DataIndex,
  Computed, ///< computed as a whole by the interpreter's rules (reduce, iterate, toX, slideSeq)
};

/// The leading steps of a path into the result that a Reindex rule reads
/// (true: a tuple component, false: an array index).
struct IndexRule {
  RuleKind kind = RuleKind::Computed;
  size_t steps = 0;
  std::array<bool, 2> tupleStep{false, false};
};

constexpr IndexRule indexRule(Op op) {
  constexpr IndexRule array1{RuleKind::Reindex, 1, {false, false}}, array2{RuleKind::Reindex, 2, {false, false}};
  switch (op) {
  case Op::Split:
  case Op::Slide:
  case Op::Transpose:
  case Op::AsVector: return array2; // [i, j]
  case Op::Join:
  case Op::Pad:
  case Op::PadConstant:
  case Op::Reverse:
  case Op::Take:
  case Op::AsScalar: return array1; // [i]
  case Op::At:
  case Op::Get: return {RuleKind::Reindex, 0, {false, false}};  // picks a part: reads no step
  case Op::Zip: return {RuleKind::Reindex, 2, {false, true}};   // [i, component]
  case Op::Tuple: return {RuleKind::Reindex, 1, {true, false}}; // [component]
  case Op::Map:
  case Op::MapGlb:
  case Op::MapWrg:
  case Op::MapLcl:
  case Op::MapSeq:
  case Op::MapSeqUnroll:
  case Op::Generate: return {RuleKind::Function, 1, {false, false}};
  case Op::SizeValue: return {RuleKind::Scalar, 0, {false, false}};
  case Op::AtDynamic: return {RuleKind::DataIndex, 0, {false, false}};
  case Op::Reduce:
  case Op::ReduceSeq:
  case Op::ReduceSeqUnroll:
  case Op::Iterate:
  case Op::ToGlobal:
  case Op::ToLocal:
  case Op::ToPrivate:
  case Op::SlideSeq: return {RuleKind::Computed, 0, {false, false}};
  }
  return {RuleKind::Computed, 0, {false, false}};
}

namespace detail {
constexpr bool everyViewHasARule() {
  for (size_t i = 0; i < std::size(liftcc::detail::kOpFlags); ++i) {
    Op op = static_cast<Op>(i);
    bool view = hasFlag(op, opflag::View);
    RuleKind kind = indexRule(op).kind;
    if (view && kind == RuleKind::Computed) return false;                               // a view without a rule
    if (!view && (kind == RuleKind::Reindex || kind == RuleKind::Scalar)) return false; // a rule codegen skips
  }
  return true;
}
} // namespace detail
static_assert(
    detail::everyViewHasARule(),
    "every view primitive (opflag::View) needs its index rule in core/ir/view_index.h, and only views have one");

/// The first step of `path` that a Reindex or Function rule of `op` needs
/// and `path` lacks (too short, or an index where a component is needed or
/// the other way round), or nullopt when the path has them all.
template <class I> std::optional<size_t> missingStep(Op op, const Path<I> &path) {
  IndexRule rule = indexRule(op);
  for (size_t i = 0; i < rule.steps; ++i)
    if (i >= path.size() || path[i].isTuple != rule.tupleStep[i]) return i;
  return std::nullopt;
}

/// A pad's boundary: the index into the unpadded operand before any
/// reindexing, and the operand's length.
template <class I> struct Boundary {
  I index;
  I length;
  bool constant = false; ///< padConstant: outside [0, length) the element is the value operand
};

/// Where an element of a view comes from: element `path` of data operand
/// `operand` (the position in the view's args()).
template <class I> struct Reindexed {
  size_t operand = 0;
  Path<I> path;
  /// pad: path[0] is the boundary index reindexed into [0, length) (clamp,
  /// mirror, wrap); padConstant: path[0] is the boundary index itself, valid
  /// only inside [0, length).
  std::optional<Boundary<I>> boundary;
};

/// Pad's reindexing (see docs/program-format.md): the index into the
/// unpadded array of length n for index i, which may lie outside it.
template <class A> typename A::Index padReindex(PadMode mode, const typename A::Index &i, const typename A::Index &n) {
  using I = typename A::Index;
  switch (mode) {
  case PadMode::Clamp: return A::min(A::max(i, I(0)), n - 1);
  case PadMode::Mirror:
    return A::select(i, arith::CmpOp::Lt, I(0), -1 - i, A::select(i, arith::CmpOp::Ge, n, 2 * n - 1 - i, i));
  case PadMode::Wrap: return ((i % n) + n) % n;
  }
  return i;
}

/// The index rule of the Reindex primitive `view`: the operand element that
/// element `path` of its result is. Precondition: indexRule(op) is Reindex and
/// missingStep(op, path) is nullopt. The steps of `path` after those the rule
/// reads follow unchanged.
template <class A>
Reindexed<typename A::Index> reindex(const Expr &view, const Path<typename A::Index> &path, const A &algebra) {
  using I = typename A::Index;
  const Op op = view.op();
  const IndexRule rule = indexRule(op);
  if (rule.kind != RuleKind::Reindex || missingStep(op, path))
    throw InternalError("views::reindex: " + std::string(view.info().name) + " read with a path it cannot take");
  auto at = [&](size_t i) -> const I & { return path[i].index; };
  auto onto = [&](size_t operand, std::initializer_list<Step<I>> first) {
    Reindexed<I> r{operand, Path<I>(first), std::nullopt};
    r.path.insert(r.path.end(), path.begin() + static_cast<std::ptrdiff_t>(rule.steps), path.end());
    return r;
  };
  auto array = [](I i) { return Step<I>::arrayIndex(std::move(i)); };
  const size_t in = op == Op::PadConstant ? 1 : 0; // the position of "in" among the data operands
  auto inLength = [&] { return algebra.size(view.args()[in].typeOrThrow().arrayLength()); };
  switch (op) {
  case Op::Split: return onto(in, {array(at(0) * algebra.size(splitSize(view)) + at(1))});
  case Op::Slide: return onto(in, {array(at(0) * algebra.size(slideStep(view)) + at(1))});
  case Op::AsVector: return onto(in, {array(at(0) * algebra.size(vectorWidthOf(view)) + at(1))}); // [vector, lane]
  case Op::Join: {
    I inner = algebra.size(inputOf(view).typeOrThrow().arrayElement().arrayLength());
    return onto(in, {array(at(0) / inner), array(at(0) % inner)});
  }
  case Op::AsScalar: {
    I width(inputOf(view).typeOrThrow().arrayElement().vectorWidth());
    return onto(in, {array(at(0) / width), array(at(0) % width)}); // [vector, lane]
  }
  case Op::Transpose: return onto(in, {array(at(1)), array(at(0))});
  case Op::Reverse: return onto(in, {array(inLength() - 1 - at(0))});
  case Op::Take: return onto(in, {array(at(0))}); // the first elements, at the same indices
  case Op::At: return onto(in, {array(algebra.size(atIndex(view)))});
  case Op::Get: return onto(in, {Step<I>::tupleComponent(getIndex(view))});
  case Op::Zip: return onto(static_cast<size_t>(path[1].component), {array(at(0))});
  case Op::Tuple: return onto(static_cast<size_t>(path[0].component), {});
  case Op::Pad:
  case Op::PadConstant: {
    I n = inLength();
    I shifted = at(0) - algebra.size(padLeft(view));
    bool constant = op == Op::PadConstant;
    Reindexed<I> r = onto(in, {array(constant ? shifted : padReindex<A>(view.padMode(), shifted, n))});
    r.boundary = Boundary<I>{std::move(shifted), std::move(n), constant};
    return r;
  }
  default: break;
  }
  throw InternalError("views::reindex: no index rule for " + std::string(view.info().name));
}

/// The writing direction. A computed array can be written through the
/// layout primitives (opflag::LayoutOnly) and take: its element lands at a
/// path of the view's result, the inverse of reindex(). writeRuleSteps is the
/// number of leading steps of a path into the operand that the rule reads
/// (0: the primitive has no writing direction; a static_assert below holds
/// every layout primitive to having one).
constexpr size_t writeRuleSteps(Op op) {
  switch (op) {
  case Op::Join:
  case Op::Transpose: return 2; // [i, j]
  case Op::Split:
  case Op::Take:
  case Op::AsScalar: return 1; // [i] (asScalar: of a vector, written lane by lane)
  default: return 0;
  }
}

namespace detail {
constexpr bool everyLayoutHasAWriteRule() {
  for (size_t i = 0; i < std::size(liftcc::detail::kOpFlags); ++i) {
    Op op = static_cast<Op>(i);
    if (hasFlag(op, opflag::LayoutOnly) && writeRuleSteps(op) == 0) return false;
  }
  return true;
}
} // namespace detail
static_assert(detail::everyLayoutHasAWriteRule(),
              "every layout primitive (opflag::LayoutOnly) needs its write rule in core/ir/view_index.h");

/// Where an element of a view's operand lands in the view's result.
template <class I> struct Written {
  Path<I> path; ///< of the same element in the view's result
  /// take: the element is written only while bound->first < bound->second
  /// (its index and take's count); the elements beyond are dropped.
  std::optional<std::pair<I, I>> bound;
};

/// The write rule of `view` (writeRuleSteps(op) > 0): element `path` of its
/// operand -> the same element in its result, so that
/// reindex(view, writeThrough(view, p).path) reads p back. asScalar writes a
/// vector of its operand one `lane` at a time (required there, ignored
/// elsewhere). The steps of `path` after those the rule reads follow
/// unchanged.
template <class A>
Written<typename A::Index> writeThrough(const Expr &view, const Path<typename A::Index> &path, const A &algebra,
                                        std::optional<int> lane = std::nullopt) {
  using I = typename A::Index;
  const size_t steps = writeRuleSteps(view.op());
  bool complete = steps > 0 && path.size() >= steps;
  for (size_t i = 0; complete && i < steps; ++i) complete = !path[i].isTuple;
  if (!complete || (view.isPrim(Op::AsScalar) && !lane))
    throw InternalError("views::writeThrough: " + std::string(view.info().name) +
                        " written with a path it cannot take (a partial write through a layout)");
  auto at = [&](size_t i) -> const I & { return path[i].index; };
  auto onto = [&](std::initializer_list<Step<I>> first) {
    Written<I> w{Path<I>(first), std::nullopt};
    w.path.insert(w.path.end(), path.begin() + static_cast<std::ptrdiff_t>(steps), path.end());
    return w;
  };
  auto array = [](I i) { return Step<I>::arrayIndex(std::move(i)); };
  switch (view.op()) {
  case Op::Join: {
    I inner = algebra.size(inputOf(view).typeOrThrow().arrayElement().arrayLength());
    return onto({array(at(0) * inner + at(1))});
  }
  case Op::Split: {
    I k = algebra.size(splitSize(view));
    return onto({array(at(0) / k), array(at(0) % k)});
  }
  case Op::Transpose: return onto({array(at(1)), array(at(0))});
  case Op::Take: {
    Written<I> w = onto({array(at(0))}); // the first elements keep their indices
    w.bound = std::pair<I, I>{at(0), algebra.size(takeCount(view))};
    return w;
  }
  case Op::AsScalar: {
    I width(inputOf(view).typeOrThrow().arrayElement().vectorWidth());
    return onto({array(at(0) * width + I(*lane))});
  }
  default: break;
  }
  throw InternalError("views::writeThrough: no write rule for " + std::string(view.info().name));
}

/// The index algebra of the code generator: symbolic index expressions.
struct SymbolicIndices {
  using Index = arith::Expr;
  Index size(const arith::Expr &s) const { return s; }
  static Index min(const Index &a, const Index &b) { return arith::min(a, b); }
  static Index max(const Index &a, const Index &b) { return arith::max(a, b); }
  static Index select(const Index &lhs, arith::CmpOp cmp, const Index &rhs, const Index &then, const Index &otherwise) {
    return arith::select(lhs, cmp, rhs, then, otherwise);
  }
};

/// The operations of a concrete index algebra (int64_t, C semantics); the
/// reader adds size(), which evaluates a size expression at its sizes.
struct ConcreteIndexOps {
  using Index = int64_t;
  static Index min(Index a, Index b) { return a < b ? a : b; }
  static Index max(Index a, Index b) { return a < b ? b : a; }
  static Index select(Index lhs, arith::CmpOp cmp, Index rhs, Index then, Index otherwise) {
    switch (cmp) {
    case arith::CmpOp::Lt: return lhs < rhs ? then : otherwise;
    case arith::CmpOp::Le: return lhs <= rhs ? then : otherwise;
    case arith::CmpOp::Eq: return lhs == rhs ? then : otherwise;
    case arith::CmpOp::Ne: return lhs != rhs ? then : otherwise;
    case arith::CmpOp::Ge: return lhs >= rhs ? then : otherwise;
    case arith::CmpOp::Gt: return lhs > rhs ? then : otherwise;
    }
    return otherwise;
  }
};

} // namespace liftcc::views
