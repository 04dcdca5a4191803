#include "explore/families/family.h"

#include "core/ir/iterated_state.h"
#include "core/ir/operands.h"
#include "core/ir/transform.h"
#include "rewrite/iterate_chain.h"

#include <algorithm>
#include <cmath>

namespace liftcc::explore::families {

// Each defined in its own file of this folder, returning its row.
Family plainFamily();
Family streamFamily();
Family streamLocalFamily();
Family tiledFamily();
Family localFamily();
Family coarsenedFamily();
Family vectorFamily();
Family mappingFamily();
Family fusedFamily();
Family timeTiledFamily();
Family timeTiledLocalFamily();
Family timeTiledStreamFamily();

const std::vector<Family> &families() {
  // The enumeration order: the simpler family first (a kernel two families
  // generate counts for the first), the derived families last.
  static const std::vector<Family> table{plainFamily(),     streamFamily(),         streamLocalFamily(),
                                         tiledFamily(),     localFamily(),          coarsenedFamily(),
                                         vectorFamily(),    mappingFamily(),        fusedFamily(),
                                         timeTiledFamily(), timeTiledLocalFamily(), timeTiledStreamFamily()};
  return table;
}

const Family *findFamily(const std::string &name) {
  for (const Family &family : families())
    if (family.name == name) return &family;
  return nullptr;
}

std::string listText(const std::vector<int64_t> &values) {
  std::string text;
  for (int64_t v : values) text += (text.empty() ? "" : ",") + std::to_string(v);
  return text;
}

std::string shapesText(const std::vector<std::array<int64_t, 3>> &shapes) {
  std::string text;
  for (const auto &shape : shapes)
    text += (text.empty() ? "" : ",") + std::to_string(shape[0]) + "x" + std::to_string(shape[1]) + "x" +
            std::to_string(shape[2]);
  return text.empty() ? std::string("none") : text;
}

std::string windowsText(const std::vector<bool> &windows) {
  std::string text;
  for (bool w : windows) text += (text.empty() ? "" : ",") + std::string(w ? "private" : "global");
  return text;
}

std::vector<Proposal> inSpace(const std::vector<Configuration> &configurations) {
  std::vector<Proposal> proposals;
  for (const Configuration &c : configurations) proposals.push_back({c, true, false});
  return proposals;
}

size_t outputRank(const Program &typed) {
  size_t rank = 0;
  for (Type t = typed.body().typeOrThrow(); t.isArray() && rank < 3; t = t.arrayElement()) ++rank;
  return rank;
}

int ndrangeDimensions(const Program &lowered) {
  int dims = 1;
  containsNode(lowered.body(), [&](const Expr &e) {
    if (e.isPrim(Op::MapGlb) || e.isPrim(Op::MapWrg)) dims = std::max(dims, e.attr() + 1);
    return false;
  });
  return dims;
}

std::optional<Expr> mainLoop(const Program &typed) {
  std::optional<Expr> longest;
  for (const Expr &e : chainLevels(rewrite::loopChain(typed).body())) {
    const arith::Expr &n = iterateCount(e);
    if (!longest ||
        (n.isConstant() && (!iterateCount(*longest).isConstant() || n.constant() > iterateCount(*longest).constant())))
      longest = e;
  }
  return longest;
}

std::vector<int64_t> depthsWithinLoop(const Program &typed, const std::vector<int64_t> &depths) {
  const std::optional<Expr> loop = mainLoop(typed);
  if (!loop || !iterateCount(*loop).isConstant() || iteratesTuple(typed)) return {};
  std::vector<int64_t> within;
  for (int64_t depth : depths)
    if (depth >= 2 && depth <= iterateCount(*loop).constant()) within.push_back(depth);
  return within;
}

std::vector<int64_t> outputExtents(const Program &typed) {
  std::vector<int64_t> extents;
  for (Type t = typed.body().typeOrThrow(); t.isArray(); t = t.arrayElement())
    extents.insert(extents.begin(), t.arrayLength().isConstant() ? t.arrayLength().constant() : INT64_MAX);
  return extents;
}

namespace {

void appendOnce(std::vector<Configuration> &list, const Configuration &c) {
  if (std::find(list.begin(), list.end(), c) == list.end()) list.push_back(c);
}

} // namespace

std::vector<Configuration> streamPlaneTiles(const FamilyInput &in, rewrite::Recipe recipe) {
  const std::vector<int64_t> output = outputExtents(in.typed);
  // The tiles that fit first, then those narrowed to the output: a narrowed
  // tile that lowers to a listed one's program leaves it that one's.
  std::vector<Configuration> fitting, narrowed;
  auto add = [&](const Configuration &c, bool narrowedHere) { appendOnce(narrowedHere ? narrowed : fitting, c); };
  if (outputRank(in.typed) == 2 && !in.options.streamRows.empty()) {
    for (int64_t row : in.options.streamRows) add(Configuration{recipe, std::min(row, output[0]), {}}, row > output[0]);
  } else {
    for (const auto &listed : in.options.streamTiles) {
      std::array<int64_t, 3> shape = listed;
      for (size_t d = 0; d < 2 && d < output.size(); ++d) shape[d] = std::min(shape[d], output[d]);
      Configuration c{recipe, 8, {0, 0, 0}};
      c.tileShape = shape;
      add(c, shape != listed);
    }
  }
  for (const Configuration &c : narrowed) appendOnce(fitting, c);
  return fitting;
}

std::vector<int64_t> streamChunksWithin(const FamilyInput &in) {
  const std::vector<int64_t> output = outputExtents(in.typed);
  std::vector<int64_t> chunks;
  for (int64_t chunk : in.options.streamChunks) {
    int64_t within = output.empty() ? chunk : std::min(chunk, output.back());
    if (std::find(chunks.begin(), chunks.end(), within) == chunks.end()) chunks.push_back(within);
  }
  return chunks;
}

namespace {

/// The reads per output of one step, estimated: the points its windows
/// span (the product of the sizes of the slides in iterate's function: 9
/// for a 2D 5-point star's 3x3 window, 729 for a radius-4 3D box), or, when
/// no reduction sums a window, the most arguments a user function there
/// takes, if fewer (5 for that star: one per tap).
double stepReads(const Expr &loop) {
  double points = 1;
  size_t arity = 0;
  bool reduces = false;
  containsNode(funOf(loop), [&](const Expr &e) {
    if (e.isPrim(Op::Slide) && slideSize(e).isConstant()) points *= static_cast<double>(slideSize(e).constant());
    if (e.is(ExprKind::UserFun)) arity = std::max(arity, e.userFun().params().size());
    reduces = reduces || e.isPrim(Op::Reduce);
    return false;
  });
  return reduces || arity == 0 ? points : std::min(points, static_cast<double>(arity));
}

} // namespace

std::vector<int64_t> timeTilesWithin(const Program &typed, const SpaceOptions &options) {
  const std::optional<Expr> loop = options.includeTimeTiled ? mainLoop(typed) : std::nullopt;
  if (!loop) return {};
  const arith::Expr &n = iterateCount(*loop);
  const double reads = stepReads(*loop);
  std::vector<int64_t> tiles;
  for (int64_t t : options.timeTiles)
    if (t > 1 && n.isConstant() && t <= n.constant() && std::pow(reads, double(t)) <= kMaxTimeTileReads)
      tiles.push_back(t);
  return tiles;
}

} // namespace liftcc::explore::families
