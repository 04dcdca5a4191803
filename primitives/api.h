#pragma once
// The C++ API for building liftcc programs.
//
//   auto N = size("N");
//   auto A = input("A", array(f32(), N));
//   auto sumNbh = fn([](Expr nbh) { return reduce(add, lit(0.0f), nbh); });
//   Program p = program({A}, join(map(sumNbh, slide(3, 1, pad(1, 1, clamp, A)))));
//
// Functions passed to primitives are IR functions (lambdas or user
// functions); `fn` turns a C++ callable over Exprs into an IR lambda, and
// every primitive also accepts a C++ callable directly.
// Multi-dimensional helpers (mapN, padN, slideN, zipN) are compositions of
// the 1D primitives, never primitives of their own.

#include "core/ir/expr.h"
#include "core/types.h"

#include <concepts>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace liftcc::api {

using liftcc::array;
using liftcc::Expr;
using liftcc::f32;
using liftcc::f64;
using liftcc::i32;
using liftcc::Program;
using liftcc::Type;
using Size = arith::Expr;

inline constexpr PadMode clamp = PadMode::Clamp;
inline constexpr PadMode mirror = PadMode::Mirror;
inline constexpr PadMode wrap = PadMode::Wrap;

/// A size variable with range [minimum, +inf).
Size size(const std::string &name, int64_t minimum = 1);
/// A typed program input.
Expr input(const std::string &name, Type type);
/// A program over its inputs; the size variables are those of the input
/// types, in order of first appearance.
Program program(std::vector<Expr> inputs, Expr body);

Expr lit(float v);
Expr lit(double v);
Expr lit(int32_t v);

/// A user function: `userFun("add", {{"a", Float}, {"b", Float}}, Float, "return a + b;")`.
/// Throws cfun::CFunError when the body is not in the supported C subset.
Expr userFun(const std::string &name, std::vector<cfun::Param> params, ScalarKind result, const std::string &body);

// ---- lambdas ---------------------------------------------------------------
Expr fn(const std::function<Expr(Expr)> &body, const std::string &name = "x");
Expr fn2(const std::function<Expr(Expr, Expr)> &body, const std::string &a = "x", const std::string &b = "y");
Expr fn3(const std::function<Expr(Expr, Expr, Expr)> &body);

template <typename F>
concept UnaryBuilder = std::invocable<F, Expr> && std::same_as<std::invoke_result_t<F, Expr>, Expr>;
template <typename F>
concept BinaryBuilder = std::invocable<F, Expr, Expr> && std::same_as<std::invoke_result_t<F, Expr, Expr>, Expr>;

/// Applies a function (lambda or user function) to arguments.
Expr apply(Expr f, std::vector<Expr> args);
/// Composition of unary functions, applied right to left: compose({f, g})(x) == f(g(x)).
Expr compose(std::vector<Expr> functions);

// ---- high-level primitives ---------------------------------------------------
Expr map(Expr f, Expr in);
Expr reduce(Expr f, Expr init, Expr in);
Expr zip(std::vector<Expr> ins);
inline Expr zip(Expr a, Expr b) { return zip(std::vector<Expr>{std::move(a), std::move(b)}); }
Expr split(Size n, Expr in);
/// The first n elements of in (n at most its length).
Expr take(Size n, Expr in);
Expr join(Expr in);
Expr slide(Size size, Size step, Expr in);
Expr pad(Size left, Size right, PadMode mode, Expr in);
Expr padConstant(Size left, Size right, Expr value, Expr in);
Expr transpose(Expr in);
Expr iterate(Size n, Expr f, Expr in);
Expr at(Size index, Expr in);
/// The element of `in` at the int value `index`, clamped into the array.
Expr atDynamic(Expr index, Expr in);
/// [T]n -> [T<width>](n/width); asScalar is its inverse.
Expr asVector(Size width, Expr in);
Expr asScalar(Expr in);
Expr get(int index, Expr in);
Expr tuple(std::vector<Expr> elements);
Expr generate(Size n, Expr f);
/// The value of a size expression as an int (lets user functions see N).
Expr sizeValue(Size s);

template <UnaryBuilder F> Expr map(F f, Expr in) { return map(fn(f), std::move(in)); }
template <BinaryBuilder F> Expr reduce(F f, Expr init, Expr in) {
  return reduce(fn2(f), std::move(init), std::move(in));
}
template <UnaryBuilder F> Expr iterate(Size n, F f, Expr in) { return iterate(std::move(n), fn(f), std::move(in)); }
template <UnaryBuilder F> Expr generate(Size n, F f) { return generate(std::move(n), fn(f, "i")); }

// ---- any primitive, by its row of the primitive list --------------------------
/// One operand of `primitive`, named as in the primitive's row of LIFTCC_PRIMITIVES (core/ir/op.h), which are
/// also its JSON field names: an integer (a size field, `dim` or a tuple `index`), a size, a pad mode (`mode`),
/// a function or data operand, or the list of a variadic data field (`zip`'s and `tuple`'s `in`).
struct Field {
  std::string_view name;
  std::variant<int64_t, Size, PadMode, Expr, std::vector<Expr>> value;
};
/// Builds any primitive from named operands, checked against its row of the primitive list, so a new primitive
/// needs no constructor here: `primitive(Op::Slide, {{"size", 3}, {"step", 1}, {"in", A}})`. `dim` defaults
/// to 0; every other field is required. Throws liftcc::Error naming the primitive and the field for an unknown,
/// repeated or missing field or an operand of the wrong kind. The named helpers above build the same nodes.
Expr primitive(Op op, std::vector<Field> fields);

// ---- multi-dimensional compositions (CGO'18, section 3) --------------------
/// map(map(...f)) over the `dims` outer dimensions.
Expr mapN(int dims, Expr f, Expr in);
/// padN(2) = map(pad(l, r, m), pad(l, r, m, x)).
Expr padN(int dims, Size left, Size right, PadMode mode, Expr in);
Expr padConstantN(int dims, Size left, Size right, Expr value, Expr in);
/// slide2 = map(transpose) . slide(n, s) . map(slide(n, s)); slideN by induction.
/// Result: [..[[..[T]size..]size]count..]count: dims window positions, then dims window extents.
Expr slideN(int dims, Size size, Size step, Expr in);
/// zip2(a, b) = map(\t. zip(get0 t, get1 t), zip(a, b)); zipN by induction.
Expr zipN(int dims, std::vector<Expr> ins);
/// Flattens the `dims` outer dimensions of a neighbourhood into one array (join applied dims-1 times).
Expr joinN(int dims, Expr in);

template <UnaryBuilder F> Expr mapN(int dims, F f, Expr in) { return mapN(dims, fn(f), std::move(in)); }

// ---- low-level primitives ------------------------------------------------------
Expr mapGlb(int dim, Expr f, Expr in);
Expr mapWrg(int dim, Expr f, Expr in);
Expr mapLcl(int dim, Expr f, Expr in);
Expr mapSeq(Expr f, Expr in);
Expr mapSeqUnroll(Expr f, Expr in);
Expr reduceSeq(Expr f, Expr init, Expr in);
Expr reduceSeqUnroll(Expr f, Expr init, Expr in);
Expr toGlobal(Expr f, Expr in);
Expr toLocal(Expr f, Expr in);
Expr toPrivate(Expr f, Expr in);
/// mapSeq(f, slide(size, step, in)) executed as a sequential sliding window:
/// the window stays in private memory and each element of `in` is loaded once.
Expr slideSeq(Size size, Size step, Expr f, Expr in);
/// The identity user function on a scalar kind (copies to memory).
Expr id(ScalarKind kind);

template <UnaryBuilder F> Expr mapGlb(int dim, F f, Expr in) { return mapGlb(dim, fn(f), std::move(in)); }
template <UnaryBuilder F> Expr mapWrg(int dim, F f, Expr in) { return mapWrg(dim, fn(f), std::move(in)); }
template <UnaryBuilder F> Expr mapLcl(int dim, F f, Expr in) { return mapLcl(dim, fn(f), std::move(in)); }
template <UnaryBuilder F> Expr mapSeq(F f, Expr in) { return mapSeq(fn(f), std::move(in)); }
template <UnaryBuilder F> Expr toLocal(F f, Expr in) { return toLocal(fn(f), std::move(in)); }
template <UnaryBuilder F> Expr toGlobal(F f, Expr in) { return toGlobal(fn(f), std::move(in)); }
template <UnaryBuilder F> Expr toPrivate(F f, Expr in) { return toPrivate(fn(f), std::move(in)); }
template <UnaryBuilder F> Expr slideSeq(Size size, Size step, F f, Expr in) {
  return slideSeq(std::move(size), std::move(step), fn(f), std::move(in));
}

} // namespace liftcc::api
