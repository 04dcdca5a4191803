// The register queue of a stream through local memory (issue #33 item 1:
// "the streamed dimension in registers"). Where each work-item owns the same
// output positions of the plane at every step, it keeps the window's column
// at each of them (the neighbourhood's centre in every plane dimension: the
// taps a star reads along the streamed dimension) in private memory, refilled
// from the ring once a step and rotated after it; the step's reads of that
// column go to the queue (queuedSlot), the other taps to the ring.
//
// Ownership: the step's outputs are a mapLcl nest over the plane (plane
// dimension j on local dimension inner-1-j). With the work-group size given
// and at least the plane's extent, work-item l owns position l (if l is
// inside); with a size that divides the extent, it owns l, l + L, ... and
// the mapLcl is emitted as one copy per position (lclCopies_,
// emitMapIterations), each reading its own queue. The kernel then requires
// that work-group size (assumesLocalSize_).

#include "codegen/generator.h"
#include "core/ir/operands.h"

namespace liftcc::codegen {

namespace {

/// The output positions a work-item owns: the product of its copies per dimension.
int64_t positionsOf(const std::vector<int64_t> &copies) {
  int64_t p = 1;
  for (int64_t c : copies) p *= c;
  return p;
}

/// The step's outputs: the first mapLcl of its body (under a vector
/// stream's asScalar of each row), or nullptr.
const Expr *firstMapLcl(const Expr &e) {
  if (e.isPrim(Op::MapLcl)) return &e;
  for (const Child &c : e.children())
    if (const Expr *m = firstMapLcl(*c.expr)) return m;
  return nullptr;
}

/// The constant extents of `t`'s array dimensions, outermost first; nullopt if one is symbolic.
std::optional<std::vector<int64_t>> constantExtents(Type t) {
  std::vector<int64_t> extents;
  for (; t.isArray(); t = t.arrayElement()) {
    if (!t.arrayLength().isConstant()) return std::nullopt;
    extents.push_back(t.arrayLength().constant());
  }
  return extents;
}

} // namespace

int64_t Generator::QueuedPlane::positions() const { return positionsOf(copies); }

std::optional<Generator::QueuedPlane> Generator::queuedPlane(const Expr &e, int64_t n) const {
  // The output plane, and the step's mapLcl nest over it (one position per
  // output, or per vector of `lanes` outputs along x).
  std::optional<std::vector<int64_t>> outputs = constantExtents(e.typeOrThrow().arrayElement());
  const Expr *nest = firstMapLcl(funOf(e).body());
  if (!outputs || outputs->empty() || outputs->size() > 3 || !nest) return std::nullopt;
  QueuedPlane plane;
  Type positions = inputOf(*nest).typeOrThrow();
  for (size_t j = 0; j < outputs->size(); ++j, positions = positions.arrayElement()) {
    if (!positions.isArray() || !positions.arrayLength().isConstant()) return std::nullopt;
    plane.extents.push_back(positions.arrayLength().constant());
  }
  if (plane.extents.back() < 1) return std::nullopt;
  plane.lanes = outputs->back() / plane.extents.back();
  for (size_t j = 0; j < outputs->size(); ++j)
    if ((*outputs)[j] != plane.extents[j] * (j + 1 == outputs->size() ? plane.lanes : 1)) return std::nullopt;
  for (size_t j = 0; j < plane.extents.size(); ++j) {
    const int64_t local = options_.localSize[plane.extents.size() - 1 - j], extent = plane.extents[j];
    if (local < 1) return std::nullopt; // the launch's default size, unknown here
    if (local >= extent)
      plane.copies.push_back(1);
    else if (extent % local == 0)
      plane.copies.push_back(extent / local);
    else
      return std::nullopt;
  }
  if (plane.columns() * n > kMaxQueuedScalars) return std::nullopt;
  return plane;
}

void Generator::fillQueue(const RingBinding &ring, const QueuedPlane &plane, int64_t slot, const arith::Expr &index) {
  const size_t dims = plane.extents.size();
  std::string owns; // work-items past the plane (a group wider than it) own nothing
  std::vector<arith::Expr> own;
  for (size_t j = 0; j < dims; ++j) {
    const int d = static_cast<int>(dims - 1 - j);
    const int64_t local = options_.localSize[static_cast<size_t>(d)];
    own.push_back(arith::Expr::var(indexBuiltin(&Dialect::localId, d), arith::Range::between(0, local - 1)));
    if (plane.copies[j] == 1 && local > plane.extents[j])
      owns +=
          (owns.empty() ? "" : " && ") + indexBuiltin(&Dialect::localId, d) + " < " + std::to_string(plane.extents[j]);
  }
  auto copy = [&] {
    for (int64_t column = 0; column < plane.columns(); ++column) {
      // Position p's copy in each dimension, outermost first, and its lane
      // along x (as queuedSlot numbers them).
      const int64_t p = column / plane.lanes, lane = column % plane.lanes;
      AccessPath path{PathStep::arrayIndex(index % ring.ringType.arrayLength())};
      int64_t rest = p, stride = plane.positions();
      for (size_t j = 0; j < dims; ++j) {
        stride /= plane.copies[j];
        const int64_t c = rest / stride;
        rest %= stride;
        const int64_t local = options_.localSize[dims - 1 - j];
        const arith::Expr position = own[j] + arith::Expr(c * local);
        path.push_back(PathStep::arrayIndex(j + 1 == dims
                                                ? position * arith::Expr(plane.lanes) + arith::Expr(lane + ring.centre)
                                                : position + arith::Expr(ring.centre)));
      }
      body_.assign(ring.queue + "[" + std::to_string(column * ring.window + slot) + "]",
                   readMemory(MemoryBinding{ring.ring, ring.ringType, AddressSpace::Local}, path, "/queue"));
    }
  };
  if (owns.empty())
    copy();
  else
    body_.ifThen(owns, copy);
}

void Generator::rotateQueue(const RingBinding &ring) {
  for (int64_t p = 0; p < positionsOf(ring.copies) * ring.lanes; ++p)
    for (int64_t k = 0; k + 1 < ring.window; ++k)
      body_.assign(ring.queue + "[" + std::to_string(p * ring.window + k) + "]",
                   ring.queue + "[" + std::to_string(p * ring.window + k + 1) + "]");
}

std::optional<int64_t> Generator::queuedSlot(const RingBinding &ring, const AccessPath &path) const {
  const size_t dims = ring.copies.size();
  if (ring.queue.empty() || path.size() != dims + 1) return std::nullopt;
  const arith::Expr slot = arith::simplify(path.front().index);
  if (!slot.isConstant()) return std::nullopt;
  int64_t position = 0, lane = 0;
  for (size_t j = 0; j < dims; ++j) {
    const size_t d = dims - 1 - j;
    const std::optional<arith::Expr> &own = lclIndex_[d];
    if (path[j + 1].isTuple || !own) return std::nullopt;
    // Along x a position's outputs are its vector's lanes: own*lanes + lane.
    const int64_t lanes = d == 0 ? ring.lanes : 1;
    arith::Expr offset = arith::simplify(path[j + 1].index - *own * arith::Expr(lanes));
    if (!offset.isConstant() || offset.constant() < ring.centre || offset.constant() >= ring.centre + lanes)
      return std::nullopt;
    if (d == 0) lane = offset.constant() - ring.centre;
    position = position * ring.copies[j] + lclCopy_[d];
  }
  return (position * ring.lanes + lane) * ring.window + slot.constant();
}

} // namespace liftcc::codegen
