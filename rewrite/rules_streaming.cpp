// Sequential sliding windows (2.5D streaming): a map over the windows of a
// slide becomes slideSeq, which keeps the window in private memory and loads
// each element once (Lift's mapSeqSlide, TACO 2019; RISE's slideSeq).

#include "core/interp/components.h"
#include "core/ir/operands.h"
#include "primitives/api.h"
#include "rewrite/nd_patterns.h"
#include "rewrite/rule.h"

#include <algorithm>

namespace liftcc::rewrite {

namespace {

/// Scalars in one window element, when it is small enough for registers: a
/// scalar, an array nest of constant lengths, or a tuple of those.
constexpr int64_t kMaxElementScalars = 64;

std::optional<int64_t> scalarsOf(const Type &type) {
  if (type.isTuple()) {
    int64_t total = 0;
    for (const Type &t : type.tupleElements()) {
      if (t.isTuple()) return std::nullopt;
      auto n = scalarsOf(t);
      if (!n) return std::nullopt;
      total += *n;
    }
    return total;
  }
  int64_t count = 1;
  Type t = type;
  while (t.isArray()) {
    if (!t.arrayLength().isConstant()) return std::nullopt;
    count *= t.arrayLength().constant();
    if (count > kMaxElementScalars) return std::nullopt;
    t = t.arrayElement();
  }
  if (!t.isScalar()) return std::nullopt;
  return count;
}

bool fitsInRegisters(const Type &windowElement) {
  auto n = scalarsOf(windowElement);
  return n && *n <= kMaxElementScalars;
}

bool constantPositive(const arith::Expr &e) { return e.isConstant() && e.constant() > 0; }

/// A stencil whose windows have a constant size and step (see matchStencilN).
std::optional<StencilMatch> matchStream(const Expr &e, int dims) {
  auto match = matchStencilN(e, dims);
  if (!match) return std::nullopt;
  const StencilMatch &m = *match;
  if (!constantPositive(m.size) || !constantPositive(m.step)) return std::nullopt;
  // The streamed window is slideN's square one (non-square windows are not streamed).
  if (!m.square()) return std::nullopt;
  // An input zipped without a window is read at the output's position: the
  // streamed column offers it at window slot size-1 only when the windows
  // advance by one element.
  if (m.zipped && m.step.constant() != 1) return std::nullopt;
  return m;
}

/// Whether slideSeq can hold the streamed window of a `dims`-dimensional
/// input in registers: a window of a slid input is an array nest of its
/// elements (so they must not be tuples: no arrays of tuples in a window),
/// and zipped inputs make a tuple of the parts (so no tuples inside).
bool streamable(const Expr &input, int dims, bool slid, bool zipped) {
  if (!input.type()) return true; // untyped rewriting: the type checker has the last word
  Type element = *input.type();
  for (int d = 0; d < dims && element.isArray(); ++d) element = element.arrayElement();
  if ((slid && dims > 1) || zipped) return !hasTuple(element);
  return true;
}

} // namespace

Rule slideSeqIntroduction() {
  return {"slideSeqIntroduction", "map(f, slide(n, s, x)) -> slideSeq(n, s, f, x)",
          [](const Expr &e) -> std::optional<Expr> {
            if (!e.isPrim(Op::Map) || !inputOf(e).isPrim(Op::Slide) || !mapComputes(e)) return std::nullopt;
            const Expr &slide = inputOf(e);
            if (!constantPositive(slideSize(slide)) || !constantPositive(slideStep(slide))) return std::nullopt;
            const Expr &x = inputOf(slide);
            if (!x.type() || !x.type()->isArray() || !fitsInRegisters(x.type()->arrayElement())) return std::nullopt;
            return api::slideSeq(slideSize(slide), slideStep(slide), funOf(e), x);
          }};
}

Rule streamOuterDimension(int dims) {
  std::string name = "streamOuterDimension" + std::to_string(dims) + "D";
  return {
      name,
      "mapN(f, slideN(n, s, x)) -> moveToFront(mapN-1(\\c. slideSeq(n, s, f, c), moveToBack(map(slideN-1(n, s), x))))",
      [dims](const Expr &e) -> std::optional<Expr> {
        if (dims < 2) return std::nullopt;
        auto m = matchStream(e, dims);
        if (!m) return std::nullopt;
        for (size_t i = 0; i < m->inputs.size(); ++i)
          if (!streamable(m->inputs[i], dims, m->slid[i], m->zipped)) return std::nullopt;
        const int inner = dims - 1;
        // Each input as a column per position of the inner dimensions,
        // running along the streamed (outer) dimension: a neighbourhood
        // input gives its inner-dimension windows per plane
        // ([c2..cd][n1][size..size]), a zipped plain input its values ([c2..cd][c1]).
        std::vector<Expr> columns;
        for (size_t i = 0; i < m->inputs.size(); ++i) {
          Expr planes =
              m->slid[i]
                  ? api::map(api::fn([&](Expr plane) { return api::slideN(inner, m->size, m->step, plane); }, "plane"),
                             m->inputs[i])
                  : m->inputs[i];
          columns.push_back(moveFrontDimensionTo(inner, planes));
        }
        StencilMatch match = *m;
        Expr perColumn = api::fn(
            [match](Expr column) {
              if (!match.zipped) return api::slideSeq(match.size, match.step, match.f, column);
              // The zipped column: plain inputs padded by size-1 in front, so
              // window slot size-1 holds the value at the output's position.
              std::vector<Expr> parts;
              for (size_t i = 0; i < match.inputs.size(); ++i) {
                Expr part = api::get(static_cast<int>(i), column);
                parts.push_back(match.slid[i] ? part : api::pad(match.size - 1, 0, PadMode::Clamp, part));
              }
              Expr window = api::fn(
                  [match](Expr w) {
                    std::vector<Expr> components;
                    for (size_t i = 0; i < match.inputs.size(); ++i) {
                      int k = static_cast<int>(i);
                      components.push_back(match.slid[i]
                                               ? api::map(api::fn([k](Expr t) { return api::get(k, t); }, "t"), w)
                                               : api::get(k, api::at(match.size - 1, w)));
                    }
                    return api::apply(match.f, {api::tuple(components)});
                  },
                  "window");
              return api::slideSeq(match.size, match.step, window, api::zip(parts));
            },
            "column");
        Expr source = m->zipped ? api::zipN(inner, columns) : columns.front();
        return moveDimensionToFront(inner, api::mapN(inner, perColumn, source));
      }};
}

} // namespace liftcc::rewrite

namespace liftcc::rewrite {

namespace {

/// The planes of a stream through local memory: each plane of a slid input
/// (tile plus halo) copied by the work-group into local memory as it enters
/// the window (`kinds`: each input's scalar kind). With inputs zipped beside
/// the neighbourhoods, the planes are zipped: each slid input's copied into
/// a ring of its own, each input read at the output's position left in
/// global memory and padded by size-1 planes in front, so that window slot
/// size-1 holds the output's plane.
Expr planesThroughLocal(const StencilMatch &m, int inner, const std::vector<ScalarKind> &kinds) {
  auto copied = [inner](Expr plane, ScalarKind kind) {
    return api::toLocal(api::fn([inner, kind](Expr p) { return mapLclNest(inner, api::id(kind), p); }), plane);
  };
  if (!m.zipped) return api::map(api::fn([&](Expr plane) { return copied(plane, kinds[0]); }, "plane"), m.inputs[0]);
  std::vector<Expr> parts;
  for (size_t i = 0; i < m.inputs.size(); ++i)
    parts.push_back(m.slid[i] ? m.inputs[i] : api::pad(m.size - 1, 0, PadMode::Clamp, m.inputs[i]));
  return api::map(api::fn(
                      [&](Expr p) {
                        std::vector<Expr> components;
                        for (size_t i = 0; i < m.inputs.size(); ++i) {
                          Expr part = api::get(static_cast<int>(i), p);
                          components.push_back(m.slid[i] ? copied(part, kinds[i]) : part);
                        }
                        return api::tuple(components);
                      },
                      "planes"),
                  api::zip(parts));
}

/// The step's function: each output of the plane on a work-item, the
/// neighbourhoods of each slid input read from the window's n local planes
/// (and the other zipped inputs from the output's plane, window slot n-1).
Expr outputsOfPlane(const StencilMatch &m, int inner, const Expr &window) {
  auto neighbourhoods = [&](size_t i) {
    auto plane = [&](Expr t) { return m.zipped ? api::get(static_cast<int>(i), t) : t; };
    return moveFrontDimensionTo(
        inner,
        api::map(api::fn([&](Expr t) { return api::slideN(inner, m.size, m.step, plane(t)); }, "plane"), window));
  };
  if (!m.zipped) return mapLclNest(inner, m.f, neighbourhoods(0));
  std::vector<Expr> columns;
  for (size_t i = 0; i < m.inputs.size(); ++i)
    columns.push_back(m.slid[i] ? neighbourhoods(i) : api::get(static_cast<int>(i), api::at(m.size - 1, window)));
  Expr f = api::fn(
      [&](Expr q) {
        std::vector<Expr> components;
        for (size_t i = 0; i < m.inputs.size(); ++i) components.push_back(api::get(static_cast<int>(i), q));
        return api::apply(m.f, {api::tuple(components)});
      },
      "point");
  return mapLclNest(inner, f, api::zipN(inner, columns));
}

} // namespace

Rule streamPlanesThroughLocal(int dims) {
  std::string name = "streamPlanesThroughLocal" + std::to_string(dims) + "D";
  return {name,
          "mapN(f, slideN(n, s, x)) -> slideSeq(n, s, \\w. mapLclN-1(f, moveToBack(map(slideN-1(n, s), w))), "
          "map(\\p. toLocal(mapLclN-1(id), p), x)); several slid inputs each through a ring of its own, inputs zipped "
          "beside the neighbourhoods in global memory, read at window slot n-1",
          [dims](const Expr &e) -> std::optional<Expr> {
            if (dims < 2) return std::nullopt;
            auto m = matchStream(e, dims);
            // Slid inputs (each through a local ring of its own) and others
            // zipped beside them, read at the output's position.
            if (!m || std::count(m->slid.begin(), m->slid.end(), true) < 1) return std::nullopt;
            // Every input's planes must be arrays of scalars: the slid ones are
            // copied to local memory, the others read element by element.
            std::vector<ScalarKind> kinds;
            for (size_t i = 0; i < m->inputs.size(); ++i) {
              const Expr &x = m->inputs[i];
              if (!x.type()) return std::nullopt;
              Type element = *x.type();
              int rank = 0;
              for (; element.isArray(); element = element.arrayElement()) ++rank;
              if (rank != dims || !element.isScalar()) return std::nullopt;
              kinds.push_back(element.scalarKind());
            }
            const int inner = dims - 1;
            StencilMatch match = *m;
            Expr perStep =
                api::fn([match, inner](Expr window) { return outputsOfPlane(match, inner, window); }, "window");
            return api::slideSeq(m->size, m->step, perStep, planesThroughLocal(match, inner, kinds));
          }};
}

} // namespace liftcc::rewrite
