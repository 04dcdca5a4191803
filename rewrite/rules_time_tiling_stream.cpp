// Temporal blocking through streaming (issue #33 item 2, 3D): a time tile of
// D steps of an iterated stencil in which every step streams its planes
// through local memory, each intermediate step producing the planes the next
// one streams (no step's tile is ever whole in local memory: each holds a
// ring of n planes).
//
// Tiled as timeTileThroughLocal tiles (time_tile_chain.h: the chunk of
// output planes along the outermost dimension and the plane tile along the
// others, each step's tile extended by its halo), the tile's steps are
//
//   S_0 = map(\p. toLocal(mapLclN-1(id), p), t)                 the input's planes
//   S_k = slideSeq(n, 1, \w. toLocal(mapLclN-1(g), nbh(w)), S_k-1)   (k = 1 .. D-1)
//   out = slideSeq(n, 1, \w. mapLclN-1(g, nbh(w)), S_D-1)
//
// nbh(w) the neighbourhoods of the window's n planes, shrinking by n-1 in
// every inner dimension per step; the code generator runs a stream whose
// planes another stream produces as one pipeline, each step of the consumer
// pulling one plane from its producer (codegen/generator_slide_seq_local.cpp).
//
// The boundary beyond the grid, per step as in timeTileThroughLocal: wrap is
// exact as it is; constant keeps each step's value inside the grid (the
// in-grid mask of the output's plane); clamp and mirror compute a position
// beyond the grid at its source, in the inner dimensions from the window at
// the tiled offsets (windowsAtSources on the plane), and along the streamed
// dimension by reading, in the next step's window, each plane beyond the
// grid from its source plane: window slot dz becomes dz + offset (the
// offsets of the planes the window holds, a tiled part slid beside them).
// A source plane of an output inside the grid lies in the same window (one
// reflection at most, as matchChain requires), and the planes a step
// computes beyond the grid are never read but through their sources; their
// slots are clamped to the window (atDynamic clamps), so that they read
// only the ring.

#include "core/interp/components.h"
#include "primitives/api.h"
#include "rewrite/nd_patterns.h"
#include "rewrite/rule.h"
#include "rewrite/time_tile_chain.h"
#include "rewrite/time_tiled_local.h"

namespace liftcc::rewrite {

namespace {

using namespace time_tile;

/// The parts one step's stream zips beside its source planes: each an array
/// of planes (or of ints, one per plane), read at the output's plane (padded
/// by n-1 planes in front: window slot n-1) or, for the source planes'
/// offsets, slid with them.
struct StepParts {
  std::vector<Expr> arrays;
  int sourceOffsets = -1;        ///< the source planes' offsets along the stream, or -1
  int mask = -1;                 ///< a constant boundary's in-grid mask, or -1
  std::vector<int> innerOffsets; ///< clamp's and mirror's offsets in the inner dimensions
  std::vector<int> pointwise;    ///< the pointwise inputs
  int add(Expr array) {
    arrays.push_back(std::move(array));
    return static_cast<int>(arrays.size()); // component 0 is the source
  }
};

class StreamedSteps {
public:
  StreamedSteps(const Chain &chain, int dims, const std::vector<int64_t> &tile, const TileLayout &layout, const Expr &t)
      : chain_(chain), dims_(dims), inner_(dims - 1), tile_(tile), layout_(layout), t_(t),
        depth_(static_cast<int64_t>(chain.steps.size())), n_(chain.first().size) {}

  Expr build() const {
    Expr planes = stream(1, part(0));
    for (int64_t k = 2; k <= depth_; ++k) planes = stream(k, planes);
    return planes;
  }

private:
  Expr part(int index) const { return layout_.zipped() ? api::get(index, t_) : t_; }
  /// Planes read at the output's plane: window slot n-1.
  Expr atOutput(const Expr &planes) const {
    return api::pad(arith::Expr(n_ - 1), arith::Expr(0), PadMode::Clamp, planes);
  }

  StepParts partsOf(int64_t k) const {
    StepParts parts;
    const StepMatch &first = chain_.first();
    if (chain_.reindexing() && k > 1) {
      // The offsets along the stream of step k-1's planes, one int a plane.
      std::vector<Expr> origin(static_cast<size_t>(inner_), api::lit(int32_t(0)));
      Expr offsets = part(layout_.extra(k - 1, 0));
      parts.sourceOffsets =
          parts.add(api::map(api::fn([&](Expr p) { return elementAt(p, origin); }, "plane"), offsets));
    }
    if (k < depth_ && first.value) parts.mask = parts.add(atOutput(part(layout_.extra(k, 0))));
    if (k < depth_ && chain_.reindexing())
      for (int d = 1; d < dims_; ++d) parts.innerOffsets.push_back(parts.add(atOutput(part(layout_.extra(k, d)))));
    for (int64_t j = 0; j < layout_.pointwise; ++j)
      parts.pointwise.push_back(parts.add(atOutput(part(layout_.pointwiseAt(k, j)))));
    return parts;
  }

  /// Step k's stream over `previous`, step k-1's planes (k = 1: the input's tile).
  Expr stream(int64_t k, const Expr &previous) const {
    const StepParts parts = partsOf(k);
    auto copied = [&](Expr p) {
      return api::toLocal(api::fn([&](Expr x) { return mapLclNest(inner_, api::id(chain_.kind), x); }, "x"), p);
    };
    if (parts.arrays.empty()) {
      const Expr input = k == 1 ? api::map(api::fn(copied, "plane"), previous) : previous;
      return api::slideSeq(arith::Expr(n_), arith::Expr(1), perStep(k, parts), input);
    }
    std::vector<Expr> zipped{previous};
    zipped.insert(zipped.end(), parts.arrays.begin(), parts.arrays.end());
    Expr input = api::map(api::fn(
                              [&](Expr p) {
                                std::vector<Expr> components{k == 1 ? copied(api::get(0, p)) : api::get(0, p)};
                                for (size_t c = 1; c < zipped.size(); ++c)
                                  components.push_back(api::get(static_cast<int>(c), p));
                                return api::tuple(components);
                              },
                              "planes"),
                          api::zip(zipped));
    return api::slideSeq(arith::Expr(n_), arith::Expr(1), perStep(k, parts), input);
  }

  Expr perStep(int64_t k, const StepParts &parts) const {
    return api::fn([this, k, parts](Expr w) { return outputsOf(k, parts, w); }, "window");
  }

  /// Step k's outputs on one plane from the window `w` of its input.
  Expr outputsOf(int64_t k, const StepParts &parts, const Expr &w) const {
    const bool zipped = !parts.arrays.empty();
    auto component = [&](int c) { return api::map(api::fn([c](Expr e) { return api::get(c, e); }, "slot"), w); };
    auto atOutputPlane = [&](int c) { return api::get(c, api::at(arith::Expr(n_ - 1), w)); };
    Expr planes = zipped ? component(0) : w;
    if (parts.sourceOffsets >= 0) {
      // Slot dz + offset (atDynamic clamps it into the window).
      Expr offsets = component(parts.sourceOffsets), moved = sourceIndex();
      planes = api::generate(arith::Expr(n_), api::fn(
                                                  [&](Expr slot) {
                                                    Expr offset = elementAt(offsets, {slot});
                                                    return elementAt(planes, {api::apply(moved, {slot, offset})});
                                                  },
                                                  "slot"));
    }
    Expr windows = moveFrontDimensionTo(
        inner_,
        api::map(api::fn([&](Expr p) { return api::slideN(inner_, arith::Expr(n_), arith::Expr(1), p); }, "plane"),
                 planes));
    if (!parts.innerOffsets.empty()) {
      std::vector<Expr> offsets;
      std::vector<int64_t> extents;
      for (int d = 1; d < dims_; ++d) {
        offsets.push_back(atOutputPlane(parts.innerOffsets[static_cast<size_t>(d - 1)]));
        extents.push_back(tile_[static_cast<size_t>(d)] + (depth_ - k) * (n_ - 1));
      }
      windows = windowsAtSources(windows, offsets, extents);
    }
    if (!parts.pointwise.empty()) {
      std::vector<Expr> beside{windows};
      for (int c : parts.pointwise) beside.push_back(atOutputPlane(c));
      windows = api::zipN(inner_, beside);
    }
    Expr g = stepOnWindow(chain_.first(), layout_.pointwise, chain_.steps[static_cast<size_t>(depth_ - k)].g);
    if (parts.mask >= 0) {
      const Expr keep = keepInside(chain_.kind), value = *chain_.first().value;
      g = api::fn(
          [&](Expr p) {
            return api::apply(keep, {api::get(1, p), api::apply(g, {api::get(0, p)}), value});
          },
          "p");
      windows = api::zipN(inner_, {windows, atOutputPlane(parts.mask)});
    }
    if (k == depth_) return mapLclNest(inner_, g, windows);
    return api::toLocal(api::fn([&](Expr x) { return mapLclNest(inner_, g, x); }, "x"), windows);
  }

  const Chain &chain_;
  int dims_, inner_;
  std::vector<int64_t> tile_;
  TileLayout layout_;
  Expr t_;
  int64_t depth_, n_;
};

} // namespace

Rule timeTileThroughStream(int64_t depth, const std::vector<int64_t> &extents) {
  return timeTileRule(
      "timeTileThroughStream",
      "D steps mapN(g, slideN(n, 1, pad_b(x))) composed, tiled as timeTileThroughLocal (the chunk along the "
      "outermost dimension) -> per tile S_k = slideSeq(n, 1, \\w. toLocal(mapLclN-1(g), nbh(w)), S_k-1), S_0 the "
      "input's planes copied to local memory, the last step's slideSeq writing out; boundaries as "
      "timeTileThroughLocal, clamp and mirror reading planes beyond the grid from their sources",
      2, depth, extents,
      [](const Chain &chain, const std::vector<int64_t> &tile, const TileLayout &layout, const Expr &t) {
        return StreamedSteps(chain, static_cast<int>(tile.size()), tile, layout, t).build();
      });
}

} // namespace liftcc::rewrite
