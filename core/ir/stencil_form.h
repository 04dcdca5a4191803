#pragma once
// The stencil form: a stencil written with its neighbours named by their
// offsets, `0.25f * (A[-1][0] + A[1][0] + A[0][-1] + A[0][1])`, instead of a
// user function applied to `at` chains into a window. It is not a primitive:
// build() expands it to the composition the C++ examples spell by hand,
//
//   mapN(d, \nbh. f(at(r+dx, at(r+dy, nbh)), ...), slideN(d, 2r+1, 1, padN(d, r, r, mode, A)))
//
// (several grids: zipN of one such neighbourhood per grid, `get(i, m)` in
// the function; a grid read only at its centre is zipped in as it is), with
// a generated user function f whose parameters are the neighbours used. The
// JSON reader and the C++ API (api::stencil) build it with build(); the JSON
// writer recognises it with match(), which rebuilds and compares, so a
// program reads back to the same IR whichever way it is written.

#include "core/ir/expr.h"

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace liftcc::stencil_form {

/// How a grid is read outside its borders: a pad mode (implicitly, so the
/// C++ API reads `{A, clamp}`), a constant, or not at all (point-wise).
struct Boundary {
  enum class Kind { Pad, Constant, PointWise };
  Kind kind = Kind::Pad;
  PadMode mode = PadMode::Clamp;         ///< Kind::Pad
  Scalar value = Scalar::ofFloat(0);     ///< Kind::Constant (converted to the grid's element type)
  Boundary(PadMode mode) : mode(mode) {} // NOLINT(google-explicit-constructor): {A, clamp}
  static Boundary pad(PadMode mode) { return Boundary(mode); }
  static Boundary constant(Scalar value) {
    Boundary b(PadMode::Clamp);
    b.kind = Kind::Constant;
    b.value = value;
    return b;
  }
  /// Read at the centre only (no padding, no window).
  static Boundary pointWise() {
    Boundary b(PadMode::Clamp);
    b.kind = Kind::PointWise;
    return b;
  }
};

/// One grid: the name the body uses, the array it reads and its boundary.
struct Grid {
  std::string name;
  Expr in;
  Boundary boundary;
  /// The element kind of an untyped grid (a lambda parameter) where the
  /// context tells it: the JSON reader knows it for the parameter of an
  /// `iterate` or of a lambda applied to arrays, from their arguments.
  /// Untyped and not given: float.
  std::optional<ScalarKind> kind;
  Grid(std::string name, Expr in, Boundary boundary) : name(std::move(name)), in(std::move(in)), boundary(boundary) {}
  /// A parameter (an input, a lambda parameter) under its own name.
  Grid(Expr param, Boundary boundary) : Grid(param.name(), param, boundary) {}
};

/// A scalar the body reads by name (an input of scalar type, e.g. a
/// coefficient given at run time): a parameter of the function, passed as it is.
struct ScalarParam {
  std::string name;
  Expr in;
  ScalarParam(std::string name, Expr in) : name(std::move(name)), in(std::move(in)) {}
  ScalarParam(Expr param) : ScalarParam(param.name(), param) {} // NOLINT(google-explicit-constructor)
};

inline constexpr std::string_view kDefaultFunctionName = "stencil";
/// The largest |offset| accepted (keeps a typo such as A[1000] from
/// building a huge window).
inline constexpr int kMaxRadius = 64;

struct Form {
  std::vector<Grid> grids;
  std::string body; ///< C-subset statements; a neighbour is GRID[o1][o2]... with integer literal offsets
  std::string function = std::string(kDefaultFunctionName); ///< the generated user function's name
  std::vector<ScalarParam> scalars;                         ///< parameters after the neighbours, as listed
  /// The function's result type; empty: the element type of the grid the
  /// body reads first, or, where that is int or bool, the widest floating
  /// kind the body returns, if any.
  std::optional<ScalarKind> returns;
};

/// A stencil form that cannot be built. `grid()` names the grid (or, when
/// `aboutScalar()`, the scalar) the error is about, or is empty when it is
/// about the body.
class FormError : public std::invalid_argument {
public:
  FormError(std::string grid, const std::string &message, bool aboutScalar = false)
      : std::invalid_argument(message), grid_(std::move(grid)), aboutScalar_(aboutScalar) {}
  const std::string &grid() const { return grid_; }
  bool aboutScalar() const { return aboutScalar_; }

private:
  std::string grid_;
  bool aboutScalar_;
};

/// The expansion (see the top of this file). Grids are zipped, and the
/// function's parameters ordered, by first appearance in the body; a
/// neighbour GRID[-1][0] becomes the parameter GRID_m1_0. The dimension is
/// the number of subscripts; the radius of a grid is its largest |offset|
/// (the same in every dimension, as the examples' windows). Parameters take
/// the grid's element type (float when the grid is an untyped parameter);
/// the function returns `returns`, else the first grid's (unless that is int
/// or bool and the body returns a floating value: then that value's kind,
/// double over float). The scalars follow the neighbours
/// as parameters of their own names and types. Throws FormError.
Expr build(const Form &form);

/// The generated user function of an expression build() returned.
Expr userFunction(const Expr &built);

/// The form `e` is, when build() of it gives `e` back; `nameOf` gives the
/// name under which a grid parameter is written (nullopt: not writable).
std::optional<Form> match(const Expr &e, const std::function<std::optional<std::string>(const Expr &)> &nameOf);

} // namespace liftcc::stencil_form
