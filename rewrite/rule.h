#pragma once
// Rewrite rules: named, semantics-preserving partial rewrites lhs -> rhs with
// side conditions. A rule looks at one node and either returns the rewritten
// node or nullopt (the left-hand side does not match or a side condition
// fails). Rules read types where they need them (side conditions on lengths),
// so they are applied to type-checked programs; applying a rule to a program
// (rewrite/apply.h) re-type-checks the result, which is what makes a rule
// application trustworthy beyond the rule's own checks.

#include "core/ir/expr.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::rewrite {

struct Rule {
  std::string name;    ///< e.g. "splitJoin(4)": unique, parameters included
  std::string summary; ///< the rule in the functional notation of the papers
  std::function<std::optional<Expr>(const Expr &)> apply;
};

// ---- algorithmic rules (rules_algorithmic.cpp) ------------------------------
Rule mapFusion();              ///< map(f, map(g, x)) -> map(f . g, x)
Rule mapFission();             ///< map(\y. P(Q(y)), x) -> map(\z. P(z), map(\y. Q(y), x))
Rule splitJoin(arith::Expr n); ///< map(f, x) -> join(map(map(f), split(n, x)))
Rule joinSplit();              ///< join(split(n, x)) -> x
Rule splitJoinCancel();        ///< split(n, join(x)) -> x when x: [[T]n]m
Rule transposeTranspose();     ///< transpose(transpose(x)) -> x
Rule reduceMapFusion();        ///< reduce(f, z, map(g, x)) -> reduce(\(a, y). f(a, g(y)), z, x)
/// iterate(n, f, x) -> at(0, reduce(\(a, i). f(a), x, generate(n, \i. i))) for x a scalar or a tuple of
/// scalars: an iteration of one element's value (inside a per-element function) as a sequential loop in the kernel.
Rule iterateAsReduction();
/// map(\x. P(iterate(n, f, Q(x))), X) -> map(\s. P(s), iterate(n, \Y. map(f, Y), map(\x. Q(x), X))) for an
/// array state: each element's array iterated on its own (a row) as one host loop over all; where f or P reads
/// x, it maps over zip(Y, X) (resp. zip(the loop, X)) and reads x as the pair's second component.
Rule iterateOutOfMap();

// ---- stencil rules (rules_tiling.cpp) ---------------------------------------
/// Overlapped tiling in `dims` dimensions with `outputs` results per tile and
/// dimension: mapN(f, slideN(n, s, x)) -> untileN(mapN(\t. mapN(f, slideN(n, s, t)), slideN(u, v, x)))
/// with v = outputs*s and u - v = n - s. Extra inputs zipped with the
/// neighbourhoods (zipN(slideN(n, s, x), y, ...)) are tiled along with them,
/// without overlap, so Hotspot/SRAD/Acoustic tile with the same rule.
/// Partial tiles: where `outputs` does not divide a constant output extent
/// L, the extent is rounded up to whole tiles T: the inputs are extended at
/// the end (pad(0, (T-L)*s, clamp), unslid inputs by T-L) and the result is
/// take(L, untileN(...)), so the last tile's surplus writes are guarded.
/// With TileFit::WithinOutput (the catalogue's instances, which exploration
/// and derivation searches enumerate) a tile wider than the output in some
/// dimension does not match: one partial tile of mostly surplus outputs is
/// never a useful choice. The recipes tile with what the user asked for, at
/// any size (TileFit::AnySize).
enum class TileFit { AnySize, WithinOutput };
Rule overlappedTiling(int dims, int64_t outputs, TileFit fit = TileFit::AnySize);
/// The same with one tile extent per dimension, innermost first (x, y, z; as
/// `--local`); an extent of 1 leaves that dimension's tiles one output wide
/// (coarsening along x by 8 in 2D is {8, 1}). Equal extents are exactly
/// overlappedTiling(dims, k), name included; others are named
/// "overlappedTiling2D(8,1)".
Rule overlappedTiling(const std::vector<int64_t> &extents, TileFit fit = TileFit::AnySize);

/// Slide widening: one slide becomes overlapping wide slides, each slid again:
/// slide(n, s, x) -> join(map(\t. slide(n, s, t), slide(u, v, x))), v = k*s,
/// u - v = n - s (the 1D core of overlapped tiling, for slides that are not
/// directly under a map).
Rule slideWidening(int64_t outputs);

// ---- sequential sliding windows (rules_streaming.cpp) -------------------------
/// map(f, slide(n, s, x)) -> slideSeq(n, s, f, x), for constant n and s and a
/// window element small enough for registers (at most 64 scalars).
Rule slideSeqIntroduction();
/// 2.5D streaming of a `dims`-dimensional stencil along its outermost
/// dimension: every position of the inner dimensions becomes a column that
/// slideSeq marches along, its window elements the inner-dimension
/// neighbourhoods of one plane (mapN(dims-1) over the columns, then the
/// result's dimensions moved back). Zipped plain inputs (Hotspot3D,
/// Acoustic) ride along in the column when the step is 1.
Rule streamOuterDimension(int dims);
/// 2.5D streaming through local memory, for the body of a work-group (a tile
/// of overlapped tiling whose outermost extent is the chunk of planes it
/// streams): slideSeq marches along the outermost dimension; each plane
/// (tile plus halo) is copied by the work-group to local memory as it enters
/// the window (toLocal of a mapLcl copy), and each work-item computes its
/// outputs of the plane from the window's planes (mapLcl). One slid input of
/// scalars, constant square window; the code keeps the window's planes in a
/// local ring (codegen/generator_slide_seq_local.cpp).
Rule streamPlanesThroughLocal(int dims);

// ---- vectorisation (rules_vectors.cpp) ----------------------------------------
/// Vectorises the innermost map of a `dims`-dimensional stencil with step 1:
/// each element computes `width` consecutive outputs along x as one vector,
/// every tap of the neighbourhood being the vector of `width` consecutive
/// inputs and f applied lane-wise (Lift's asVector / vectorize):
///   mapN(f, slideN(n, 1, x)) -> mapN(dims-1, asScalar, mapN(f, mapN(dims-1, vectorWindows(width), slideN(n, 1, x))))
/// where vectorWindows(w, r) = map(\c. mapN(dims, \v. at(0, asVector(w, v)), moveToBack(c)), split(w, r)).
/// The x extent must be provably divisible by `width`; the type checker
/// refuses user functions that do not run lane-wise (conditions on lanes).
Rule vectorizeStencil(int dims, int64_t width);
/// The same for outputs a work-group computes (a stream's plane, a local
/// tile): a mapLcl nest of `dims` (1 or 2) levels over windows of scalars,
/// or tuples of them and of scalars zipped beside them, each work-item
/// computing `width` consecutive outputs along x as one vector (its taps
/// read from local memory as vectors, vloadN where consecutive; a zipped
/// scalar the vector of its lanes):
///   mapLclN(f, W) -> mapN(dims-1, asScalar, mapLclN(f, mapN(dims-1, vectorWindows(width), W)))
/// The x extent must be provably divisible by `width`.
Rule vectorizeLocalOutputs(int dims, int64_t width);

// ---- lowering rules (rules_lowering.cpp) ------------------------------------
/// True for a map whose function computes values (applies a user function
/// or reduces), as opposed to a map that only rearranges data: only those
/// are lowered (mapToGlb ... mapToSeq); the others stay views.
bool mapComputes(const Expr &map);
Rule mapToGlb(int dim);
Rule mapToWrg(int dim);
Rule mapToLcl(int dim);
Rule mapToSeq();
Rule mapSeqToUnroll(); ///< for constant extents
Rule reduceToSeq();
Rule reduceSeqToUnroll(); ///< for constant extents
/// x -> toLocal(mapLclN(dims, id), x) on an array of scalars with `dims`
/// dimensions: the local-memory copy of a tile.
Rule localCopy(int dims);
/// x -> toPrivate(mapSeq(id), x) for a 1D array of scalars.
Rule privateCopy();
/// x -> toPrivate(mapSeqN(id), x) on an array of scalars with `dims`
/// dimensions ("privateCopy2D"; dims 1 is privateCopy()): the window of a
/// coarsened work-item, loaded once into private memory.
Rule privateCopy(int dims);

} // namespace liftcc::rewrite
