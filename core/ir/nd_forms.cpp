#include "core/ir/nd_forms.h"

#include "core/ir/operands.h"

#include <functional>
#include <stdexcept>

namespace liftcc::nd {

namespace {

// The same parameter name as the C++ API's fn(), so programs built either way
// write the same JSON.
Expr lambda(const std::function<Expr(Expr)> &body) {
  Expr x = Expr::param("x");
  return Expr::lambda({x}, body(x));
}

Expr map(Expr f, Expr in) { return Expr::prim(Op::Map, {{}, 0, PadMode::Clamp, {std::move(f)}, {std::move(in)}}); }
Expr transpose(Expr in) { return Expr::prim(Op::Transpose, {{}, 0, PadMode::Clamp, {}, {std::move(in)}}); }
Expr get(int index, Expr in) { return Expr::prim(Op::Get, {{}, index, PadMode::Clamp, {}, {std::move(in)}}); }
Expr zip(std::vector<Expr> ins) { return Expr::prim(Op::Zip, {{}, 0, PadMode::Clamp, {}, std::move(ins)}); }
Expr slide(arith::Expr size, arith::Expr step, Expr in) {
  return Expr::prim(Op::Slide, {{std::move(size), std::move(step)}, 0, PadMode::Clamp, {}, {std::move(in)}});
}
Expr pad(arith::Expr left, arith::Expr right, PadMode mode, Expr in) {
  return Expr::prim(Op::Pad, {{std::move(left), std::move(right)}, 0, mode, {}, {std::move(in)}});
}

bool isUnaryLambda(const Expr &e) { return e.is(ExprKind::Lambda) && e.params().size() == 1; }

// Bounds the work of the largest* recognisers on deeply nested programs; no
// stencil has more dimensions.
constexpr int kMaxRecognisedDims = 16;

} // namespace

Expr mapN(int dims, Expr f, Expr in) {
  if (dims < 1) throw std::invalid_argument("mapN: dims must be >= 1");
  if (dims == 1) return map(std::move(f), std::move(in));
  return map(lambda([&](Expr row) { return mapN(dims - 1, f, row); }), std::move(in));
}

Expr padN(std::vector<arith::Expr> left, std::vector<arith::Expr> right, std::vector<PadMode> modes, Expr in) {
  if (left.empty() || left.size() != right.size() || left.size() != modes.size())
    throw std::invalid_argument("padN: one left, right and mode per dimension");
  Expr outer = pad(left[0], right[0], modes[0], std::move(in));
  if (left.size() == 1) return outer;
  left.erase(left.begin());
  right.erase(right.begin());
  modes.erase(modes.begin());
  return map(lambda([&](Expr row) { return padN(left, right, modes, row); }), outer);
}

Expr slideN(int dims, arith::Expr size, arith::Expr step, Expr in) {
  if (dims < 1) throw std::invalid_argument("slideN: dims must be >= 1");
  if (dims == 1) return slide(std::move(size), std::move(step), std::move(in));
  // Slide the inner dimensions of every row, then the rows themselves:
  // [count][size][p1..p(d-1)][w1..w(d-1)]. Moving the outer window extent
  // `size` past the d-1 inner window positions gives
  // [count][p1..p(d-1)][size][w1..w(d-1)].
  Expr slid =
      slide(size, step, map(lambda([&](Expr row) { return slideN(dims - 1, size, step, row); }), std::move(in)));
  Expr reorder = lambda([&](Expr window) {
    for (int k = 0; k < dims - 1; ++k)
      window = k == 0 ? transpose(window) : mapN(k, lambda([](Expr w) { return transpose(w); }), window);
    return window;
  });
  return map(reorder, slid);
}

Expr slideN(std::vector<arith::Expr> sizes, std::vector<arith::Expr> steps, Expr in) {
  if (sizes.empty() || sizes.size() != steps.size())
    throw std::invalid_argument("slideN: one window size and step per dimension");
  int dims = static_cast<int>(sizes.size());
  if (dims == 1) return slide(sizes[0], steps[0], std::move(in));
  // The shape of slideN(dims, size, step, in) above, with each dimension's own window.
  arith::Expr outerSize = sizes[0], outerStep = steps[0];
  sizes.erase(sizes.begin());
  steps.erase(steps.begin());
  Expr slid =
      slide(outerSize, outerStep, map(lambda([&](Expr row) { return slideN(sizes, steps, row); }), std::move(in)));
  Expr reorder = lambda([&](Expr window) {
    for (int k = 0; k < dims - 1; ++k)
      window = k == 0 ? transpose(window) : mapN(k, lambda([](Expr w) { return transpose(w); }), window);
    return window;
  });
  return map(reorder, slid);
}

Expr zipN(int dims, std::vector<Expr> ins) {
  if (dims < 1) throw std::invalid_argument("zipN: dims must be >= 1");
  if (dims == 1) return zip(std::move(ins));
  size_t n = ins.size();
  return map(lambda([&](Expr t) {
               std::vector<Expr> rows;
               for (size_t i = 0; i < n; ++i) rows.push_back(get(static_cast<int>(i), t));
               return zipN(dims - 1, rows);
             }),
             zip(std::move(ins)));
}

std::optional<MapNParts> matchMapN(const Expr &e, int dims) {
  if (dims < 1 || !e.isPrim(Op::Map)) return std::nullopt;
  const Expr *cur = &e;
  for (int k = 1; k < dims; ++k) {
    const Expr &f = funOf(*cur);
    if (!isUnaryLambda(f) || !f.body().isPrim(Op::Map)) return std::nullopt;
    cur = &f.body();
  }
  MapNParts m{dims, funOf(*cur), inputOf(e)};
  if (dims > 1 && !(mapN(dims, m.f, m.in) == e)) return std::nullopt;
  return m;
}

std::optional<MapNParts> largestMapN(const Expr &e) {
  int depth = 0;
  for (const Expr *cur = &e; cur->isPrim(Op::Map) && depth < kMaxRecognisedDims;) {
    ++depth;
    const Expr &f = funOf(*cur);
    if (!isUnaryLambda(f)) break;
    cur = &f.body();
  }
  for (int dims = depth; dims >= 2; --dims)
    if (auto m = matchMapN(e, dims)) return m;
  return std::nullopt;
}

std::optional<PadNParts> largestPadN(const Expr &e) {
  PadNParts parts{{}, {}, {}, e};
  const Expr *cur = &e;
  for (int level = 0; level < kMaxRecognisedDims; ++level) {
    bool last = cur->isPrim(Op::Pad);
    const Expr *padNode = last ? cur : nullptr;
    if (!last) {
      if (!cur->isPrim(Op::Map) || !inputOf(*cur).isPrim(Op::Pad) || !isUnaryLambda(funOf(*cur))) return std::nullopt;
      padNode = &inputOf(*cur);
    }
    parts.left.push_back(padLeft(*padNode));
    parts.right.push_back(padRight(*padNode));
    parts.modes.push_back(padNode->padMode());
    if (level == 0) parts.in = inputOf(*padNode);
    if (last) break;
    cur = &funOf(*cur).body();
  }
  if (parts.left.size() < 2 || !(padN(parts.left, parts.right, parts.modes, parts.in) == e)) return std::nullopt;
  return parts;
}

std::optional<SlideNParts> matchSlideN(const Expr &e, int dims) {
  if (dims == 1) {
    if (!e.isPrim(Op::Slide)) return std::nullopt;
    return SlideNParts{1, slideSize(e), slideStep(e), inputOf(e)};
  }
  // map(reorder, slide(n, s, map(\row. slideN(dims-1, n, s, row), in)))
  if (dims < 1 || !e.isPrim(Op::Map) || !inputOf(e).isPrim(Op::Slide)) return std::nullopt;
  const Expr &outer = inputOf(e);
  if (!inputOf(outer).isPrim(Op::Map)) return std::nullopt;
  SlideNParts m{dims, slideSize(outer), slideStep(outer), inputOf(inputOf(outer))};
  if (!(slideN(dims, m.size, m.step, m.in) == e)) return std::nullopt;
  return m;
}

std::optional<SlideNPerDimensionParts> matchSlideNPerDimension(const Expr &e, int dims) {
  if (dims < 1 || dims > kMaxRecognisedDims) return std::nullopt;
  if (dims == 1) {
    if (!e.isPrim(Op::Slide)) return std::nullopt;
    return SlideNPerDimensionParts{{slideSize(e)}, {slideStep(e)}, inputOf(e)};
  }
  // map(reorder, slide(n0, s0, map(\row. slideN(rest, row), in)))
  if (!e.isPrim(Op::Map) || !inputOf(e).isPrim(Op::Slide)) return std::nullopt;
  const Expr &outer = inputOf(e);
  const Expr &rows = inputOf(outer);
  if (!rows.isPrim(Op::Map) || !isUnaryLambda(funOf(rows))) return std::nullopt;
  auto inner = matchSlideNPerDimension(funOf(rows).body(), dims - 1);
  if (!inner) return std::nullopt;
  SlideNPerDimensionParts m{{slideSize(outer)}, {slideStep(outer)}, inputOf(rows)};
  m.sizes.insert(m.sizes.end(), inner->sizes.begin(), inner->sizes.end());
  m.steps.insert(m.steps.end(), inner->steps.begin(), inner->steps.end());
  if (!(slideN(m.sizes, m.steps, m.in) == e)) return std::nullopt;
  return m;
}

std::optional<SlideNParts> largestSlideN(const Expr &e) {
  int depth = 0;
  for (const Expr *cur = &e; depth < kMaxRecognisedDims;) {
    if (cur->isPrim(Op::Slide)) {
      ++depth;
      break;
    }
    if (!cur->isPrim(Op::Map) || !inputOf(*cur).isPrim(Op::Slide)) break;
    const Expr &rows = inputOf(inputOf(*cur));
    if (!rows.isPrim(Op::Map) || !isUnaryLambda(funOf(rows))) break;
    ++depth;
    cur = &funOf(rows).body();
  }
  for (int dims = depth; dims >= 2; --dims)
    if (auto m = matchSlideN(e, dims)) return m;
  return std::nullopt;
}

std::optional<ZipNParts> matchZipN(const Expr &e, int dims) {
  if (dims == 1) {
    if (!e.isPrim(Op::Zip)) return std::nullopt;
    return ZipNParts{1, inputsOf(e)};
  }
  if (dims < 1 || !e.isPrim(Op::Map) || !inputOf(e).isPrim(Op::Zip)) return std::nullopt;
  ZipNParts m{dims, inputsOf(inputOf(e))};
  if (!(zipN(dims, m.ins) == e)) return std::nullopt;
  return m;
}

std::optional<ZipNParts> largestZipN(const Expr &e) {
  int depth = 0;
  for (const Expr *cur = &e; depth < kMaxRecognisedDims;) {
    if (cur->isPrim(Op::Zip)) {
      ++depth;
      break;
    }
    if (!cur->isPrim(Op::Map) || !inputOf(*cur).isPrim(Op::Zip) || !isUnaryLambda(funOf(*cur))) break;
    ++depth;
    cur = &funOf(*cur).body();
  }
  for (int dims = depth; dims >= 2; --dims)
    if (auto m = matchZipN(e, dims)) return m;
  return std::nullopt;
}

} // namespace liftcc::nd
