#include "rewrite/recipes.h"

#include <algorithm>
#include <functional>
#include <unordered_map>

#include "core/interp/components.h"
#include "core/ir/iterated_state.h"
#include "core/ir/nd_forms.h"
#include "core/ir/operands.h"
#include "core/ir/transform.h"
#include "core/typecheck/typecheck.h"
#include "primitives/api.h"
#include "rewrite/apply.h"
#include "rewrite/iterate_chain.h"
#include "rewrite/loop_split_lowering.h"
#include "rewrite/nd_patterns.h"
#include "rewrite/stages.h"
#include "rewrite/time_tiled_local.h"

namespace liftcc::rewrite {

namespace {

// ---- lowering: the lowering rules composed by strategies ----------------------
//
// A "parallel nest" is a map over an array whose function maps over its
// parameter again (the shape mapN produces), up to three deep. Lowering with
// levels {mapToGlb} turns the outermost nest into mapGlb(d-1) ... mapGlb(0)
// (dimension 0 innermost, so consecutive work-items touch consecutive
// elements); levels {mapToWrg, mapToLcl} turn the outermost nest into mapWrg
// and the next nest inside it into mapLcl. Every other map that computes
// values becomes mapSeq and every reduce becomes reduceSeq. Maps that only
// rearrange data (map(transpose), map(slide ...)) stay views.

using LevelRule = Rule (*)(int dim);

/// Inside a work-item: computing maps run sequentially, reductions too.
Strategy sequential() { return everywhere(choice(mapToSeq(), reduceToSeq())); }

/// Depth of the parallel nest starting at `e` (0 when `e` is not a computing map).
int nestDepth(const Expr &e) {
  int depth = 0;
  const Expr *cur = &e;
  while (depth < 3 && cur->isPrim(Op::Map) && mapComputes(*cur)) {
    ++depth;
    const Expr &f = funOf(*cur);
    if (!f.is(ExprKind::Lambda) || f.params().size() != 1) break;
    const Expr &next = f.body();
    // Only a map over the element itself continues the nest (mapN's shape).
    if (!next.isPrim(Op::Map) || !inputOf(next).is(ExprKind::Param) || !inputOf(next).sameNode(f.params().front()))
      break;
    cur = &next;
  }
  return depth;
}

Strategy lowerOnLevel(const std::vector<LevelRule> &levels, size_t level, const Mapping &mapping);

/// The nest whose outermost map has dimension `dim`, on thread level `level`:
/// that map by the level's rule on the NDRange dimension the mapping gives
/// it (mapToSeq where it stays sequential), its input sequentially, and
/// inside it the next map of the nest, or (innermost) the next level or
/// sequential code.
Strategy lowerNest(const std::vector<LevelRule> &levels, size_t level, int dim, const Mapping &mapping) {
  Strategy inside = dim > 0                     ? lowerNest(levels, level, dim - 1, mapping)
                    : level + 1 < levels.size() ? lowerOnLevel(levels, level + 1, mapping)
                                                : sequential();
  std::optional<int> ndrange = mapping.ndrangeDimensionOf(dim);
  Strategy map = ndrange ? Strategy(levels[level](*ndrange)) : Strategy(mapToSeq());
  // A user function has no body: attempt.
  return seq(map, seq(at("/in", sequential()), attempt(at("/f/body", inside))));
}

/// Lowers the outermost parallel nest of an expression on `levels[level]`,
/// looking through the layout primitives that wrap a result (e.g. the joins
/// of an untiled result), iterate (its function is the kernel, see codegen's
/// Kernel::Iteration) and lambda applications; everything else is sequential.
Strategy lowerOnLevel(const std::vector<LevelRule> &levels, size_t level, const Mapping &mapping) {
  return recursive("lowerOnLevel", [levels, level, mapping](Strategy self) {
    Strategy nest("mapNest", [levels, level, mapping](const Expr &e) -> std::optional<Expr> {
      int depth = nestDepth(e);
      if (depth == 0) return std::nullopt;
      mapping.checkFor(depth);
      // mapWrg/mapLcl cannot run inside a sequential loop.
      if (levels.size() > 1 && !mapping.isDefault() && static_cast<int>(mapping.ndrange.size()) < depth)
        throw RewriteError("mapping " + mapping.text() + " leaves dimensions sequential, but tiles on work-groups " +
                           "map every dimension (" + defaultMappingText(depth) + " in some order)");
      return lowerNest(levels, level, depth - 1, mapping)(e);
    });
    Strategy layout =
        seq(guard("isLayout",
                  [](const Expr &e) {
                    return e.is(ExprKind::Prim) && (e.info().has(opflag::LayoutOnly) || e.isPrim(Op::Take) ||
                                                    (e.isPrim(Op::Map) && !mapComputes(e)));
                  }),
            at("/in", self));
    Strategy iterate = seq(guard("isIterateOfLambda",
                                 [](const Expr &e) { return e.isPrim(Op::Iterate) && funOf(e).is(ExprKind::Lambda); }),
                           seq(at("/f/body", self), at("/in", sequential())));
    Strategy skipFunctions = guard("isLambda", [](const Expr &e) { return e.is(ExprKind::Lambda); });
    Strategy application = seq(
        guard("isApplyOfLambda", [](const Expr &e) { return e.is(ExprKind::Apply) && e.fun().is(ExprKind::Lambda); }),
        seq(all(choice(skipFunctions, sequential())), at("/apply/body", self)));
    return choice(nest, choice(layout, choice(iterate, choice(application, sequential()))));
  });
}

Program lowerOnLevels(const Program &typed, const std::vector<LevelRule> &levels, const Mapping &mapping = {}) {
  std::optional<Program> lowered = applyStrategy(typed, lowerOnLevel(levels, 0, mapping));
  if (!lowered) throw InternalError("lowering failed although its last alternative always succeeds");
  return *lowered;
}

int outputDimensions(const Program &typed);
std::string extentsText(const std::array<int64_t, 3> &extents, int dims);

/// Tiles the first stencil found, trying 3, 2 and then 1 dimensions.
std::pair<Program, int> tileStencil(const Program &typed, int64_t outputs) {
  for (int dims = 3; dims >= 1; --dims) {
    Rule rule = overlappedTiling(dims, outputs);
    std::vector<std::string> locations = applicableLocations(typed, rule);
    if (!locations.empty()) return {applyRule(typed, rule, locations.front()), dims};
  }
  throw RewriteError("no stencil to tile with " + std::to_string(outputs) +
                     " outputs per tile: overlapped tiling needs mapN over slideN of an input with constant output "
                     "extents, or extents divisible by the tile size (explicit split/join or other layouts around the "
                     "stencil are not tiled)");
}

/// Tiles the stencil with one extent per dimension of the output (x first).
std::pair<Program, int> tileStencilPerDimension(const Program &typed, const std::array<int64_t, 3> &extents) {
  int dims = outputDimensions(typed);
  for (int d = 0; d < 3; ++d) {
    int64_t k = extents[static_cast<size_t>(d)];
    if (k < 0 || (d < dims && k < 1))
      throw RewriteError("tile extents must be at least 1 in every dimension of the output, found " +
                         extentsText(extents, 3));
    if (d >= dims && k > 1)
      throw RewriteError("tile extent " + std::to_string(k) + " along dimension " + std::to_string(d) +
                         " but the output has " + std::to_string(dims) + " dimension(s)");
  }
  if (dims >= 1 && dims <= 3) {
    Rule rule = overlappedTiling(std::vector<int64_t>(extents.begin(), extents.begin() + dims));
    std::vector<std::string> locations = applicableLocations(typed, rule);
    if (!locations.empty()) return {applyRule(typed, rule, locations.front()), dims};
  }
  throw RewriteError("no " + std::to_string(dims) + "D stencil to tile by " + extentsText(extents, std::max(dims, 1)) +
                     " (x first): mapN over slideN must cover every output dimension, with constant output extents "
                     "or extents divisible by the tile's");
}

/// Whether `lambda` is a per-tile function of overlapped tiling:
/// \t. mapN(f, slideN(n, s, t)), or with zipped inputs
/// \t. mapN(f, zipN(.., slideN(n, s, get(i, t)), ..)).
bool isPerTileFunction(const Expr &lambda, int dims) {
  if (!lambda.is(ExprKind::Lambda) || lambda.params().size() != 1) return false;
  auto map = matchMapN(lambda.body(), dims);
  if (!map) return false;
  const Expr &tile = lambda.params()[0];
  auto readsTile = [&](const Expr &e) {
    auto slide = matchSlideN(e, dims);
    if (!slide) return false;
    const Expr &in = slide->in;
    return in.sameNode(tile) || (in.isPrim(Op::Get) && inputOf(in).sameNode(tile));
  };
  if (readsTile(map->in)) return true;
  auto zipped = matchZipN(map->in, dims);
  return zipped && std::any_of(zipped->begin(), zipped->end(), readsTile);
}

/// The tile parameters of the tiled program: only these are copied. Other
/// lambda parameters (e.g. the rows of a 2D stencil tiled in one dimension)
/// are views that must not be materialised per work-group.
std::vector<Expr> tileParameters(const Expr &body, int dims) {
  std::vector<Expr> tiles;
  transformBottomUp(body, [&](const Expr &e) -> Expr {
    if (isPerTileFunction(e, dims)) tiles.push_back(e.params()[0]);
    return e;
  });
  return tiles;
}

bool isTileAccess(const Expr &e, const std::vector<Expr> &tiles) {
  const Expr *param = e.is(ExprKind::Param)                                 ? &e
                      : e.isPrim(Op::Get) && inputOf(e).is(ExprKind::Param) ? &inputOf(e)
                                                                            : nullptr;
  return param && std::any_of(tiles.begin(), tiles.end(), [&](const Expr &t) { return t.sameNode(*param); });
}

/// The number of array dimensions of the program's result.
int outputDimensions(const Program &typed) {
  int dims = 0;
  for (Type t = typed.body().typeOrThrow(); t.isArray(); t = t.arrayElement()) ++dims;
  return dims;
}

/// The tiled program with every tile that a neighbourhood reads replaced by
/// `copy` of it (localCopy or privateCopy), and the number of copies made.
std::pair<Expr, int> copyTiles(const Program &tiled, int dims, const Rule &copy) {
  std::vector<Expr> tiles = tileParameters(tiled.body(), dims);
  int copies = 0;
  Expr body = transformBottomUp(tiled.body(), [&](const Expr &e) -> Expr {
    auto slide = matchSlideN(e, dims);
    if (!slide || !isTileAccess(slide->in, tiles)) return e;
    auto copied = copy.apply(slide->in);
    if (!copied) return e;
    ++copies;
    return slideNPerDimension(slide->sizes, slide->steps, *copied);
  });
  return {body, copies};
}

/// Copies each tile that a neighbourhood reads into local memory first.
/// Throws when no tile can be copied: a "local" variant without local memory
/// would silently duplicate the tiled one.
Program copyTilesToLocal(const Program &original, const Program &tiled, int dims) {
  auto [body, copies] = copyTiles(tiled, dims, localCopy(dims));
  if (copies == 0)
    throw RewriteError("local: the " + std::to_string(dims) +
                       "D tiles found hold neighbourhoods, not input elements, so "
                       "there is no tile to copy to local memory (tiling covered " +
                       std::to_string(dims) + " of the " + std::to_string(std::max(dims, outputDimensions(original))) +
                       " dimension(s): a symbolic output extent not divisible by the tile size, a wrap/mirror "
                       "boundary or a reduce over the window keeps the rest untiled); give concrete sizes, or use "
                       "--opt tiled or plain");
  return typeCheck(withBody(tiled, body));
}

// ---- coarsening: overlapped tiling on global work-items --------------------

std::string extentsText(const std::array<int64_t, 3> &extents, int dims) {
  std::string text;
  for (int d = 0; d < dims; ++d) text += (d ? "," : "") + std::to_string(extents[static_cast<size_t>(d)]);
  return text;
}

/// Tiles the stencil with the coarsening extents: in as many dimensions as
/// the program's output has, so that every dimension is on a global id.
std::pair<Program, int> tileForCoarsening(const Program &typed, const std::array<int64_t, 3> &extents) {
  int outputDims = outputDimensions(typed);
  for (int d = 0; d < 3; ++d)
    if (extents[static_cast<size_t>(d)] < 1) throw RewriteError("coarsened: the factors must be at least 1");
  for (int d = outputDims; d < 3; ++d)
    if (extents[static_cast<size_t>(d)] != 1)
      throw RewriteError("coarsened: factor " + std::to_string(extents[static_cast<size_t>(d)]) + " along dimension " +
                         std::to_string(d) + " but the output has " + std::to_string(outputDims) + " dimension(s)");
  if (outputDims >= 1 && outputDims <= 3) {
    Rule rule = overlappedTiling(std::vector<int64_t>(extents.begin(), extents.begin() + outputDims));
    std::vector<std::string> locations = applicableLocations(typed, rule);
    if (!locations.empty()) return {applyRule(typed, rule, locations.front()), outputDims};
  }
  throw RewriteError("coarsened: no " + std::to_string(outputDims) + "D stencil to coarsen by " +
                     extentsText(extents, std::max(outputDims, 1)) +
                     " (x first): mapN over slideN must cover every output dimension, with constant output extents "
                     "(partial tiles) or extents divisible by the factors");
}

/// Copies the window of every coarsened work-item (the tile its neighbourhoods
/// are slid from) to private memory, so each element is loaded once.
Program copyWindowsToPrivate(const Program &tiled, int dims) {
  auto [body, copies] = copyTiles(tiled, dims, privateCopy(dims));
  if (copies == 0) {
    std::vector<Expr> tiles = tileParameters(tiled.body(), dims);
    if (std::any_of(tiles.begin(), tiles.end(), [](const Expr &t) { return hasTuple(t.typeOrThrow()); }))
      throw RewriteError("coarsened: the windows hold tuples (an intermediate array of tuples), which are not copied "
                         "to private memory yet; use --window global");
    throw InternalError("coarsened: the " + std::to_string(dims) +
                        "D tiles hold no array of scalars to copy to private memory");
  }
  return typeCheck(withBody(tiled, body));
}

// ---- vectorisation of the innermost dimension ----------------------------------

/// A vector width the recipes accept, else refused naming `recipe`.
void checkVectorWidth(int64_t width, const std::string &recipe) {
  if (!isVectorWidth(width))
    throw RewriteError(recipe + ": --vector " + std::to_string(width) + ": the width must be 2, 4, 8 or 16");
}

/// Why `rule` applies nowhere in `typed` where it matches but its result
/// does not type-check (a user function that cannot run lane-wise): the
/// type checker's reason; empty otherwise.
std::string typeRefusal(const Program &typed, const Rule &rule) {
  try {
    applyStrategy(typed, topDown(rule));
  } catch (const TypeError &e) {
    return e.what();
  }
  return "";
}

/// Vectorises the first stencil found (3D, 2D, then 1D; in a coarsened
/// program, each work-item's tile) with vectors of `width` lanes.
Program vectorize(const Program &typed, int64_t width, const std::string &recipe) {
  checkVectorWidth(width, recipe);
  std::string refusal;
  for (int dims = 3; dims >= 1; --dims) {
    Rule rule = vectorizeStencil(dims, width);
    std::vector<std::string> locations = applicableLocations(typed, rule);
    if (!locations.empty()) return applyRule(typed, rule, locations.front());
    if (refusal.empty()) refusal = typeRefusal(typed, rule);
  }
  if (!refusal.empty()) throw RewriteError(recipe + ": cannot vectorise by " + std::to_string(width) + ": " + refusal);
  throw RewriteError(recipe + ": no stencil to vectorise by " + std::to_string(width) +
                     ": needs mapN over slideN with step 1 of one float or double input (nothing zipped) and an "
                     "innermost output extent that " +
                     std::to_string(width) + " divides or that is a constant (a partial last vector)");
}

Program coarsen(const Program &typed, const RecipeOptions &options) {
  if (containsNode(typed.body(), [](const Expr &e) { return e.isPrim(Op::Iterate); }))
    throw RewriteError("coarsened: programs with iterate are not coarsened yet; use --opt plain");
  if (options.vectorWidth > 0 && options.coarsen[0] % options.vectorWidth != 0)
    throw RewriteError("coarsened: --vector " + std::to_string(options.vectorWidth) +
                       " needs a coarsening factor along x that is a multiple of it, found " +
                       std::to_string(options.coarsen[0]));
  auto [tiled, dims] = tileForCoarsening(typed, options.coarsen);
  if (options.privateWindow) tiled = copyWindowsToPrivate(tiled, dims);
  if (options.vectorWidth > 0) tiled = vectorize(tiled, options.vectorWidth, "coarsened");
  // The tiles on global work-items; inside a work-item everything is
  // sequential, so the per-tile map nest becomes mapSeq (mapSeqUnroll below).
  return lowerOnLevels(tiled, {mapToGlb}, options.mapping);
}

/// Streams the first 3D, else 2D, stencil found along its outermost dimension.
Program streamStencil(const Program &typed) {
  for (int dims = 3; dims >= 2; --dims) {
    Rule rule = streamOuterDimension(dims);
    std::vector<std::string> locations = applicableLocations(typed, rule);
    if (!locations.empty()) return applyRule(typed, rule, locations.front());
  }
  throw RewriteError(
      "stream: no 2D or 3D stencil to stream: streaming needs mapN over slideN with a constant window "
      "size and step (and step 1 when other inputs are zipped with the neighbourhoods); use --opt plain");
}

/// The outputs of each streamed plane as vectors of `width` lanes along x
/// (vectorizeLocalOutputs on the step's mapLcl nest over the plane).
Program vectorizePlaneOutputs(const Program &streamed, int planeDims, int64_t width) {
  checkVectorWidth(width, "streamLocal");
  Rule rule = vectorizeLocalOutputs(planeDims, width);
  std::vector<std::string> locations = applicableLocations(streamed, rule);
  if (!locations.empty()) return applyRule(streamed, rule, locations.front());
  std::string reason = typeRefusal(streamed, rule);
  if (reason.empty())
    reason = "needs windows of float or double scalars (and float or double grids zipped beside them) and a plane "
             "tile whose x extent the width divides";
  throw RewriteError("streamLocal: cannot vectorise the plane's outputs by " + std::to_string(width) + ": " + reason);
}

/// 2.5D streaming through local memory: the first 3D, else 2D, stencil tiled
/// by the plane tile along its inner dimensions and by the chunk along the
/// outermost one (overlapped tiling, partial tiles where they do not divide),
/// then each tile streamed plane by plane through local memory
/// (streamPlanesThroughLocal inside the per-tile function).
Program streamStencilThroughLocal(const Program &typed, const RecipeOptions &options) {
  if (containsNode(typed.body(), [](const Expr &e) { return e.isPrim(Op::Iterate); }))
    throw RewriteError("streamLocal: programs with iterate are not streamed through local memory yet; use --opt "
                       "stream or plain");
  if (options.streamChunk < 1)
    throw RewriteError("streamLocal: the chunk must be at least 1 output plane, found " +
                       std::to_string(options.streamChunk));
  for (int dims = 3; dims >= 2; --dims) {
    std::vector<int64_t> extents;
    for (int d = 0; d < dims - 1; ++d) {
      int64_t k = options.tileExtents[static_cast<size_t>(d)];
      extents.push_back(k > 0 ? k : options.tileOutputs);
      if (extents.back() < 1) throw RewriteError("streamLocal: the plane tile must be at least 1 output wide");
    }
    extents.push_back(options.streamChunk);
    std::vector<std::string> tilings = applicableLocations(typed, overlappedTiling(extents));
    if (tilings.empty()) continue;
    // Tiling only the stencils that also stream (one slid input of scalars).
    if (applicableLocations(typed, streamPlanesThroughLocal(dims)).empty()) continue;
    Program tiled = applyRule(typed, overlappedTiling(extents), tilings.front());
    // The per-tile stencil is the deepest match (the map over the tiles may match too).
    std::vector<std::string> streams = applicableLocations(tiled, streamPlanesThroughLocal(dims));
    if (streams.empty()) continue;
    auto deepest = std::max_element(streams.begin(), streams.end(),
                                    [](const std::string &a, const std::string &b) { return a.size() < b.size(); });
    Program streamed = applyRule(tiled, streamPlanesThroughLocal(dims), *deepest);
    return options.vectorWidth > 0 ? vectorizePlaneOutputs(streamed, dims - 1, options.vectorWidth) : streamed;
  }
  throw RewriteError("streamLocal: no 2D or 3D stencil to stream through local memory: it needs mapN over slideN of "
                     "inputs of scalars, all by one constant square window and step (inputs without a window may be "
                     "zipped beside the neighbourhoods, with step 1), and constant output extents (or extents the "
                     "tile and chunk divide); use --opt stream or plain");
}

/// At most this many copies of a loop body after unrolling a loop nest:
/// unrolling every constant-length loop made kernels of tens of thousands of
/// statements from partial tiles far wider than the output (a 32^3 tile of
/// an 8^3 grid), taking minutes to generate. The recipes' own loops (e.g.
/// 8 x 8 x 8 coarsening, 5 x 5 windows) stay far below it.
constexpr int64_t unrollBudget = 4096;

/// At most this many private scalars (toPrivate) in the unrolled copies of a
/// loop: each copy declares its own array. Unrolling the sequential x loop of
/// a coarsened Jacobi2D row (mapGlb(y) with x sequential, 128 blocks of a
/// 30-float window at 1024^2) gave 3840 floats per work-item, and PoCL
/// overflowed its stack with the runtime's 512-work-item groups, killing the
/// whole exploration. A 3D coarsened window (8+2) x 3 x 3 = 90 stays unrolled.
constexpr int64_t unrolledPrivateBudget = 1024;

/// At most this many IR nodes in the unrolled copies of a loop's function
/// (its node count times the copies made): the copy budget alone let the
/// sequential x loop of a 7x7 box's rows (mapGlb(y) at 1024 wide) unroll into
/// 1024 copies of a 49-tap body, 2 MB of CUDA C that NVRTC compiled for
/// minutes, stalling an exploration past its budget. Coarsening 8x8x8 of a
/// 27-point box (512 copies of about 100 nodes) stays unrolled.
constexpr int64_t unrolledNodeBudget = 65536;

/// IR nodes of `e` (shared subexpressions counted at each use).
int64_t nodesOf(const Expr &e) {
  int64_t n = 0;
  containsNode(e, [&](const Expr &) {
    ++n;
    return false;
  });
  return n;
}

/// What unrollWithin returns for a subexpression.
struct Unrolled {
  Expr expr;
  int64_t copies = 1;         ///< copies of the innermost body
  int64_t privateScalars = 0; ///< scalars of the toPrivate arrays it declares (unrolled copies counted)
};

/// Scalars of a toPrivate node's value when its type is concrete, else 0.
int64_t privateScalarsOf(const Expr &e) {
  if (!e.isPrim(Op::ToPrivate) || !e.type()) return 0;
  try {
    return scalarCount(*e.type(), {});
  } catch (const std::exception &) {
    return 0; // a symbolic length: the code generator bounds it (kMaxPrivateScalars)
  }
}

/// Unrolls mapSeq and reduceSeq of constant length, innermost first, while
/// the copies of the innermost body stay within unrollBudget, their private
/// arrays within unrolledPrivateBudget and their nodes within
/// unrolledNodeBudget.
Unrolled unrollWithin(const Expr &e) {
  const bool loop = e.isPrim(Op::MapSeq) || e.isPrim(Op::ReduceSeq);
  // Copies and private scalars of the loop body (its function, run per
  // iteration) and of the rest (the operands, evaluated once).
  int64_t body = 1, rest = 1, bodyPrivate = 0, restPrivate = privateScalarsOf(e);
  Expr rebuilt = mapChildren(e, [&](const Expr &child) {
    Unrolled unrolled = unrollWithin(child);
    bool perIteration =
        loop && std::any_of(e.funs().begin(), e.funs().end(), [&](const Expr &f) { return f.sameNode(child); });
    int64_t &most = perIteration ? body : rest;
    most = std::max(most, unrolled.copies);
    (perIteration ? bodyPrivate : restPrivate) += unrolled.privateScalars;
    return unrolled.expr;
  });
  if (!loop) return {rebuilt, std::max(body, rest), bodyPrivate + restPrivate};
  // The original node is typed (rebuilt ones are not): its input's length.
  const Type &in = inputOf(e).typeOrThrow();
  int64_t length = in.isArray() && in.arrayLength().isConstant() ? in.arrayLength().constant() : 0;
  int64_t functionNodes = 0;
  for (const Expr &f : e.funs()) functionNodes += nodesOf(f);
  if (length < 1 || length > unrollBudget / body || length * bodyPrivate > unrolledPrivateBudget ||
      length * functionNodes > unrolledNodeBudget)
    return {rebuilt, std::max(body, rest), bodyPrivate + restPrivate};
  Op unrolled = e.isPrim(Op::MapSeq) ? Op::MapSeqUnroll : Op::ReduceSeqUnroll;
  return {withOp(rebuilt, unrolled), std::max(body * length, rest), length * bodyPrivate + restPrivate};
}

Program unrollAll(const Program &program) { return typeCheck(withBody(program, unrollWithin(program.body()).expr)); }

/// iterate(n, \x. B, A) over a program input: B lowered by the recipe as a
/// program over x and the program's inputs, whose fusible intermediates
/// (those of a time tile's composed steps, or of B itself) are fused, so the
/// host loop launches one kernel per step; the others are kernels of their
/// own, launched in order in every step. With a time tile t, B is composed t
/// times and the host iterates n / t times.

/// The step over the state inputs, lowered by the recipe. Components the
/// step only carries over from another component (core/ir/iterated_state.h)
/// are left out of the recipe's program and put back as that input itself,
/// so no kernel copies them: the host passes their buffers on instead.
Program lowerComputedComponents(const Program &typed, const Expr &stepBody, const std::vector<Expr> &state,
                                Recipe recipe, const RecipeOptions &options) {
  auto lower = [&](const Expr &body) {
    return applyRecipe(typeCheck(Program{typed.sizes, Expr::lambda(typed.inputs(), body)}), recipe, options);
  };
  const std::vector<std::optional<size_t>> carried = carriedComponents(stepBody, state);
  if (carried.empty()) return lower(stepBody);
  std::vector<Expr> computed;
  for (size_t c = 0; c < carried.size(); ++c)
    if (!carried[c]) computed.push_back(inputsOf(stepBody)[c]);
  Program lowered = lower(api::tuple(computed));
  // The recipe makes a kernel (a toGlobal stage) of each component of a
  // tuple result; where it made anything else, the carried components are
  // copied by kernels too.
  const Expr &result = lowered.body();
  if (!result.isPrim(Op::Tuple) || inputsOf(result).size() != computed.size() ||
      !std::all_of(inputsOf(result).begin(), inputsOf(result).end(),
                   [](const Expr &part) { return part.isPrim(Op::ToGlobal); }))
    return lower(stepBody);
  std::vector<Expr> parts;
  for (size_t c = 0, k = 0; c < carried.size(); ++c) {
    if (!carried[c]) {
      parts.push_back(inputsOf(lowered.body())[k++]);
      continue;
    }
    const std::string &name = state[*carried[c]].name();
    auto input = std::find_if(lowered.inputs().begin(), lowered.inputs().end(),
                              [&](const Expr &in) { return in.name() == name; });
    if (input == lowered.inputs().end()) throw InternalError("the lowered step has no input " + name);
    parts.push_back(*input);
  }
  return typeCheck(Program{typed.sizes, Expr::lambda(lowered.inputs(), api::tuple(parts))});
}

/// iterate(n, f, tuple(A, B, ...)) over program inputs: the step, lowered
/// over the inputs themselves, becomes a program with one output per
/// component (a kernel per computed component, a copy for one that is only
/// passed on: rewrite/stages.cpp), and the host exchanges each component's
/// buffer with its output between launches (codegen::Kernel::Iteration).
/// The step of iterate(n, \s. B, tuple(...)) composed `depth` times: B, then
/// B with each get(j, s) replaced by component j of the steps before (B, its
/// array bindings inlined, must be a tuple).
Expr composedTupleStep(const Expr &f, int64_t depth, const std::string &what) {
  const Expr &s = f.params().front();
  const Expr once = inlineArrayBindings(f.body());
  if (!once.isPrim(Op::Tuple))
    throw RewriteError(what +
                       ": a time tile of an iterate over a tuple needs a step whose result is a tuple of the "
                       "new components, found " +
                       std::string(once.info().name));
  Expr step = once;
  for (int64_t k = 1; k < depth; ++k) {
    const std::vector<Expr> parts = inputsOf(step);
    const Expr previous = api::tuple(parts);
    // Bottom-up, a get's operand has already become `previous`.
    step = transformBottomUp(once, [&](const Expr &n) {
      if (n.is(ExprKind::Param) && n.sameNode(s)) return previous;
      if (n.isPrim(Op::Get) && inputOf(n).sameNode(previous)) return parts.at(static_cast<size_t>(getIndex(n)));
      return n;
    });
  }
  return step;
}

Program lowerIteratedTuple(const Program &typed, Recipe recipe, const RecipeOptions &options) {
  const Expr &body = typed.body();
  const std::vector<Expr> state = *iteratedInputs(typed);
  const int64_t t = options.timeTile;
  const std::string what = recipeName(recipe) + (t != 1 ? " time tile " + std::to_string(t) : std::string());
  if (recipe == Recipe::TimeTiledLocal || recipe == Recipe::TimeTiledStream)
    throw RewriteError(what + ": an iterate over a tuple of arrays is not time-tiled through local memory yet (its "
                              "time tiles recompute through the other recipes: --time-tile)");
  if (t < 1) throw RewriteError(what + ": must be at least 1");
  if (t > 1) {
    // t steps composed into one launch, n / t launches; when t does not
    // divide n, one launch of the r = n mod t steps left follows (phases,
    // as lowerIterate makes them for one array).
    const arith::Expr &count = iterateCount(body);
    if (!count.isConstant() || t > count.constant())
      throw RewriteError(what +
                         ": a time tile of an iterate over a tuple of arrays needs a constant iteration count "
                         "of at least the tile, found " +
                         count.str());
    const int64_t q = count.constant() / t, r = count.constant() % t;
    const Expr &f = funOf(body);
    RecipeOptions once = options;
    once.timeTile = 1;
    auto loweredTile = [&](int64_t depth, int64_t launches) {
      Expr tile = Expr::lambda(f.params(), composedTupleStep(f, depth, what));
      Expr loop = api::iterate(arith::Expr(launches), tile, inputOf(body));
      return lowerIteratedTuple(typeCheck(Program{typed.sizes, Expr::lambda(typed.inputs(), loop)}), recipe, once);
    };
    Program tiles = loweredTile(t, q);
    if (r == 0) return tiles;
    // The steps left iterate over what the tiles leave, reading the same
    // program inputs (the tiles' parameter nodes).
    const Program rest = loweredTile(r, 1);
    std::unordered_map<std::string, Expr> byName;
    for (const Expr &in : tiles.inputs()) byName.emplace(in.name(), in);
    const Expr restBody = bodyOver(rest, byName);
    Expr loop = api::iterate(iterateCount(restBody), funOf(restBody), tiles.body());
    return typeCheck(Program{typed.sizes, Expr::lambda(tiles.inputs(), loop)});
  }
  RecipeOptions stepOptions = options;
  stepOptions.fusion = Fusion::Inline;
  const Expr stepBody = inlineArrayBindings(stepOverState(typed));
  Program lowered = lowerComputedComponents(typed, stepBody, state, recipe, stepOptions);
  // The lowered step over a fresh state parameter: component c of the state
  // where it read the c-th input of the tuple, the other inputs as they were.
  Expr param = Expr::param(funOf(body).params().front().name());
  std::unordered_map<std::string, Expr> byName;
  for (size_t c = 0; c < state.size(); ++c) byName.emplace(state[c].name(), api::get(static_cast<int>(c), param));
  for (const Expr &in : typed.inputs()) byName.emplace(in.name(), in);
  Expr loweredStep = bodyOver(lowered, byName);
  Expr loop = api::iterate(iterateCount(body), Expr::lambda({param}, loweredStep), inputOf(body));
  return typeCheck(Program{typed.sizes, Expr::lambda(typed.inputs(), loop)});
}

/// iterate(launches, f^depth lowered by the recipe, over): `depth` steps of
/// the program's iterate fused into one launch (a time tile; 1: one step).
Expr loweredLoop(const Program &typed, Recipe recipe, const RecipeOptions &options, int64_t depth,
                 const arith::Expr &launches, const Expr &over) {
  const Expr &f = funOf(typed.body());
  // Arrays the step binds by lambda application are inlined first: composed,
  // a binding's lambda would otherwise be nested inside a copy of itself
  // (one parameter node bound twice).
  const Expr stepBody = inlineArrayBindings(f.body());
  Expr step = stepBody;
  for (int64_t k = 1; k < depth; ++k) step = withParamReplaced(stepBody, f.params().front(), step);
  std::vector<Expr> inputs{f.params().front()};
  for (const Expr &in : typed.inputs()) inputs.push_back(in);
  RecipeOptions stepOptions = options;
  stepOptions.fusion = Fusion::Inline;
  stepOptions.timeTile = 1;
  // An intermediate that cannot be recomputed per element (a reduction)
  // stays a stage of its own (toGlobal): the host then launches the step's
  // kernels in order, n / t times (codegen/generator_stages.cpp). The
  // timeTiledLocal and timeTiledStream recipes keep every step of the time
  // tile in local memory (whole tiles, or rings of planes).
  Program stepProgram = typeCheck(Program{typed.sizes, Expr::lambda(inputs, step)});
  Program lowered = stepProgram;
  if (recipe == Recipe::TimeTiledLocal || recipe == Recipe::TimeTiledStream) {
    Program tiled = recipe == Recipe::TimeTiledLocal ? tileTimeStepsThroughLocal(stepProgram, depth, options)
                                                     : tileTimeStepsThroughStream(stepProgram, depth, options);
    lowered = lowerOnLevels(tiled, {mapToWrg, mapToLcl}, options.mapping);
    if (options.unroll) lowered = unrollAll(lowered);
  } else {
    lowered = applyRecipe(stepProgram, recipe, stepOptions);
  }
  // The lowered step over a fresh parameter, the program's inputs as they were.
  Expr state = Expr::param(f.params().front().name());
  std::unordered_map<std::string, Expr> byName{{lowered.inputs().front().name(), state}};
  for (const Expr &in : typed.inputs()) byName.emplace(in.name(), in);
  Expr loweredStep = bodyOver(lowered, byName);
  return api::iterate(launches, Expr::lambda({state}, loweredStep), over);
}

/// One level of a chain of iterates, `level` (a program whose body is that
/// iterate), over `over`: the levels before it, lowered. With a time tile t,
/// t steps fused into each launch and, when t does not divide the count, one
/// launch of the steps left. In a chain, a level shorter than t (a stage
/// before or after the loop) fuses all its steps into one launch, and a
/// level of one step the recipe does not apply to (a stage that is no
/// stencil, say) is lowered plain, as a stage of a multi-kernel program is.
Expr loweredLevel(const Program &level, Recipe recipe, const RecipeOptions &options, const Expr &over, bool chained) {
  const arith::Expr &count = iterateCount(level.body());
  int64_t t = options.timeTile;
  if (t < 1) throw RewriteError("time tile " + std::to_string(t) + ": must be at least 1");
  if (t > 1 && !count.isConstant())
    throw RewriteError("time tile " + std::to_string(t) + ": the iteration count " + count.str() +
                       " must be a constant");
  if (t > 1 && chained) t = std::min(t, std::max<int64_t>(count.constant(), 1));
  auto loops = [&](Recipe r) {
    if (t == 1) return loweredLoop(level, r, options, 1, count, over);
    const int64_t n = count.constant();
    if (t > n)
      throw RewriteError("time tile " + std::to_string(t) + " is deeper than the iteration count " + std::to_string(n));
    // n = q t + r: q launches of t steps, then, when t does not divide n, one
    // launch of the r steps left (a time tile of depth r; the host launches
    // the two phases in turn: codegen/generator_phases.cpp).
    const int64_t q = n / t, left = n % t;
    Expr tiles = loweredLoop(level, r, options, t, arith::Expr(q), over);
    return left == 0 ? tiles : loweredLoop(level, r, options, left, arith::Expr(1), tiles);
  };
  const bool oneStep = count.isConstant() && count.constant() <= 1;
  if (!chained || !oneStep) return loops(recipe);
  try {
    return loops(recipe);
  } catch (const RewriteError &) {
    return loops(Recipe::Plain);
  }
}

Program lowerIterate(const Program &typed, Recipe recipe, const RecipeOptions &options) {
  if (iteratesTuple(typed)) return lowerIteratedTuple(typed, recipe, options);
  // The levels of a chain of iterates (one, or stages around a loop:
  // rewrite/iterate_chain.h), innermost first, each lowered over the ones
  // before it; fused, a stage is computed in the loop's first or last launch
  // (fusedStageLevels).
  std::vector<Expr> levels = chainLevels(typed.body());
  if (options.fusion == Fusion::Inline) levels = fusedStageLevels(levels);
  if (levels.size() > 1 && inputOf(levels.front()).isPrim(Op::Tuple))
    throw RewriteError(recipeName(recipe) + ": a chain of iterates over a tuple (stages before or after an "
                                            "iterate over a tuple) is not compiled yet");
  Expr over = inputOf(levels.front());
  for (const Expr &level : levels)
    over = loweredLevel(withBody(typed, level), recipe, options, over, levels.size() > 1);
  return typeCheck(withBody(typed, over));
}

// ---- the recipes: each a composition of the rules above -------------------

Program lowerPlain(const Program &typed, const RecipeOptions &options) {
  return lowerOnLevels(options.vectorWidth > 0 ? vectorize(typed, options.vectorWidth, "plain") : typed, {mapToGlb},
                       options.mapping);
}

/// Whether a toLocal copy sits inside a mapLcl or a sequential map: the
/// levels of a stencil nested in another map give its tiles to work-items.
bool copiesInsideWorkItems(const Expr &e, bool insideWorkItem = false) {
  if (e.isPrim(Op::ToLocal) && insideWorkItem) return true;
  // The function of a mapLcl or sequential map runs per work-item (its
  // input, and mapWrg's function, are the work-group's; map is a view).
  const bool perItem =
      e.is(ExprKind::Prim) && e.info().has(opflag::MapLike) && !e.isPrim(Op::MapWrg) && !e.isPrim(Op::Map);
  for (const Child &c : e.children())
    if (copiesInsideWorkItems(*c.expr, insideWorkItem || (perItem && c.expr->sameNode(funOf(e))))) return true;
  return false;
}

/// tiled, and local (`toLocal`: each tile copied to local memory first).
Program lowerTiles(const Program &typed, const RecipeOptions &options, bool toLocal) {
  // The host iterates the kernel of iterate's function; tiling that
  // function is not implemented, so say so rather than fail later.
  if (containsNode(typed.body(), [](const Expr &e) { return e.isPrim(Op::Iterate); }))
    throw RewriteError(std::string(toLocal ? "local" : "tiled") +
                       ": programs with iterate are not tiled yet; use --opt plain");
  bool perDimension = options.tileExtents != std::array<int64_t, 3>{0, 0, 0};
  auto [tiled, dims] =
      perDimension ? tileStencilPerDimension(typed, options.tileExtents) : tileStencil(typed, options.tileOutputs);
  if (toLocal) tiled = copyTilesToLocal(typed, tiled, dims);
  Program lowered = lowerOnLevels(tiled, {mapToWrg, mapToLcl}, options.mapping);
  if (toLocal && copiesInsideWorkItems(lowered.body()))
    throw RewriteError("local: the tiled stencil is nested in another map (its tiles would be copied to local memory "
                       "by single work-items, not by work-groups), e.g. rows zipped with a coefficient per row; use "
                       "--opt tiled");
  return lowered;
}

Program lowerTiled(const Program &typed, const RecipeOptions &options) { return lowerTiles(typed, options, false); }
Program lowerLocal(const Program &typed, const RecipeOptions &options) { return lowerTiles(typed, options, true); }

Program lowerStream(const Program &typed, const RecipeOptions &options) {
  return lowerOnLevels(streamStencil(typed), {mapToGlb}, options.mapping);
}

Program lowerStreamLocal(const Program &typed, const RecipeOptions &options) {
  return lowerOnLevels(streamStencilThroughLocal(typed, options), {mapToWrg, mapToLcl}, options.mapping);
}

Program refuseTimeTiledLocal(const Program &, const RecipeOptions &) {
  throw RewriteError("timeTiledLocal: only a program iterate(n, f, input) is time-tiled through local memory; use "
                     "--opt local");
}

Program refuseTimeTiledStream(const Program &, const RecipeOptions &) {
  throw RewriteError("timeTiledStream: only a program iterate(n, f, input) is time-tiled through streaming; use "
                     "--opt streamLocal");
}

/// A recipe: its name and its composition (the body of one kernel; applyRecipe
/// handles iterate, stages and unrolling around it).
struct RecipeRow {
  Recipe recipe;
  const char *name;
  Program (*lower)(const Program &typed, const RecipeOptions &options);
};

constexpr RecipeRow kRecipes[] = {
    {Recipe::Plain, "plain", lowerPlain},
    {Recipe::Tiled, "tiled", lowerTiled},
    {Recipe::Local, "local", lowerLocal},
    {Recipe::Coarsened, "coarsened", coarsen},
    {Recipe::Stream, "stream", lowerStream},
    {Recipe::StreamLocal, "streamLocal", lowerStreamLocal},
    // Only iterate(n, f, A) is time-tiled through local memory (lowerIterate);
    // applyRecipe refuses other programs before reaching this row.
    {Recipe::TimeTiledLocal, "timeTiledLocal", refuseTimeTiledLocal},
    {Recipe::TimeTiledStream, "timeTiledStream", refuseTimeTiledStream},
};

const RecipeRow &recipeRow(Recipe recipe) {
  for (const RecipeRow &row : kRecipes)
    if (row.recipe == recipe) return row;
  throw RewriteError("unknown recipe " + std::to_string(static_cast<int>(recipe)));
}

} // namespace

std::string recipeName(Recipe recipe) {
  for (const RecipeRow &row : kRecipes)
    if (row.recipe == recipe) return row.name;
  return "?";
}

std::optional<Recipe> parseRecipe(const std::string &name) {
  for (const RecipeRow &row : kRecipes)
    if (row.name == name) return row.recipe;
  return std::nullopt;
}

/// Every iterate over scalars rewritten by iterateAsReduction, once per
/// node: an iterate read twice (each component of its tuple) stays one
/// shared node, computed once.
Program elementLoopsAsReductions(const Program &typed) {
  const Rule rule = iterateAsReduction();
  std::unordered_map<const void *, Expr> done;
  std::function<Expr(const Expr &)> rewrite = [&](const Expr &e) {
    if (auto known = done.find(e.id()); known != done.end()) return known->second;
    Expr rebuilt = mapChildren(e, rewrite);
    std::optional<Expr> loop = rule.apply(rebuilt);
    return done.emplace(e.id(), loop ? *loop : rebuilt).first->second;
  };
  try {
    return typeCheck(withBody(typed, rewrite(typed.body())));
  } catch (const TypeError &e) {
    throw RewriteError(std::string("iterateAsReduction gives an ill-typed program: ") + e.what());
  }
}

Program applyRecipe(const Program &typed, Recipe recipe, const RecipeOptions &options) {
  if (options.vectorWidth > 0 && recipe != Recipe::Plain && recipe != Recipe::Coarsened &&
      recipe != Recipe::StreamLocal)
    throw RewriteError(recipeName(recipe) + ": --vector applies to the plain, coarsened and streamLocal recipes only");
  // An iterate of one element's scalars is a loop inside the kernel, not a
  // host loop: a reduction over its step count. (Most programs have no
  // iterate: the explorer lowers thousands of them, so look first.)
  const bool iterates = containsNode(typed.body(), [](const Expr &e) { return e.isPrim(Op::Iterate); });
  if (iterates && !applicableLocations(typed, iterateAsReduction()).empty())
    return applyRecipe(elementLoopsAsReductions(typed), recipe, options);
  // One over each element's array (a row iterated on its own) is one host loop over them all.
  if (std::vector<std::string> rows =
          iterates ? applicableLocations(typed, iterateOutOfMap()) : std::vector<std::string>{};
      !rows.empty())
    return applyRecipe(applyRule(typed, iterateOutOfMap(), rows.front()), recipe, options);
  // Stages before and after an iterate become phases of its host loop; a
  // stage after it that cannot (of another type, after a tuple state) is
  // launched once after the loop.
  std::optional<Program> chained;
  try {
    chained = iterateChain(typed);
  } catch (const RewriteError &) {
    if (std::optional<AfterLoop> split = splitAfterLoop(typed)) return lowerAfterLoop(*split, recipe, options);
    if (std::optional<BeforeLoop> split = splitBeforeLoop(typed)) return lowerBeforeLoop(*split, recipe, options);
    if (std::optional<Program> merged = loopsSideBySide(typed)) return applyRecipe(*merged, recipe, options);
    throw;
  }
  if (chained) return applyRecipe(*chained, recipe, options);
  const std::vector<Expr> levels = chainLevels(typed.body());
  const bool steps = !levels.empty() && std::all_of(levels.begin(), levels.end(), [](const Expr &level) {
    return funOf(level).is(ExprKind::Lambda);
  });
  // A state no input can stand for (an input held twice, computed parts, an
  // input a step also reads by name) is computed into buffers of its own
  // before the loop.
  if (steps && needsStateBeforeLoop(typed))
    if (std::optional<BeforeLoop> split = splitBeforeLoop(typed)) return lowerBeforeLoop(*split, recipe, options);
  if (std::optional<Expr> read = stateInputReadByStep(typed))
    throw RewriteError(recipeName(recipe) + ": " + stateInputReadMessage(*read));
  if (steps && chainedInputs(typed)) return lowerIterate(typed, recipe, options);
  // Every recipe would refuse a top-level iterate over anything else as
  // "not tiled/coarsened yet"; say what is missing instead.
  if (typed.body().isPrim(Op::Iterate)) {
    const Expr &state = inputOf(typed.body());
    if (state.isPrim(Op::Tuple))
      throw RewriteError(recipeName(recipe) +
                         ": iterate over a tuple is compiled when its components are distinct program inputs, each "
                         "an array of scalars (the host exchanges their buffers with the outputs); found " +
                         state.typeOrThrow().str());
    throw RewriteError(recipeName(recipe) +
                       ": iterate is compiled over a program input or a tuple of distinct inputs (the host loop "
                       "exchanges their buffers with the outputs), not over a computed array (" +
                       state.typeOrThrow().str() + "); make that array the program's input");
  }
  if (recipe == Recipe::TimeTiledLocal || recipe == Recipe::TimeTiledStream) recipeRow(recipe).lower(typed, options);
  if (options.timeTile != 1)
    throw RewriteError("time tile " + std::to_string(options.timeTile) +
                       ": only a program iterate(n, f, input) is time-tiled");
  // An intermediate array read by another computation is a kernel of its
  // own, each lowered by the recipe, or plain where the recipe does not
  // apply to it (rewrite/stages.h).
  if (std::optional<StagedProgram> staged = splitStages(typed))
    return lowerStages(
        typed, *staged, [&](const Program &stage) { return applyRecipe(stage, recipe, options); },
        [&](const Program &stage) { return applyRecipe(stage, Recipe::Plain, options); }, options.fusion);
  Program lowered = recipeRow(recipe).lower(typed, options);
  return options.unroll ? unrollAll(lowered) : lowered;
}

} // namespace liftcc::rewrite
