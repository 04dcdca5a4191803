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

namespace liftcc::codegen {

namespace {

/// The output positions a work-item owns: the product of its copies per dimension.
int64_t positionsOf(const std::vector<int64_t> &copies) {
  int64_t p = 1;
  for (int64_t c : copies) p *= c;
  return p;
}

} // namespace

int64_t Generator::QueuedPlane::positions() const { return positionsOf(copies); }

std::optional<Generator::QueuedPlane> Generator::queuedPlane(const Expr &e, int64_t n) const {
  QueuedPlane plane;
  for (Type t = e.typeOrThrow().arrayElement(); t.isArray(); t = t.arrayElement()) {
    if (!t.arrayLength().isConstant()) return std::nullopt;
    plane.extents.push_back(t.arrayLength().constant());
  }
  if (plane.extents.empty() || plane.extents.size() > 3) return std::nullopt;
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
  if (plane.positions() * n > kMaxQueuedScalars) return std::nullopt;
  return plane;
}

void Generator::fillQueue(const RingBinding &ring, const QueuedPlane &plane, int64_t slot, const arith::Expr &index) {
  const size_t dims = plane.extents.size();
  std::string owns; // work-items past the plane (a group wider than it) own nothing
  std::vector<arith::Expr> own;
  for (size_t j = 0; j < dims; ++j) {
    const int d = static_cast<int>(dims - 1 - j);
    const int64_t local = options_.localSize[static_cast<size_t>(d)];
    own.push_back(arith::Expr::var(dialect_.localId(d, indexType()), arith::Range::between(0, local - 1)));
    if (plane.copies[j] == 1 && local > plane.extents[j])
      owns +=
          (owns.empty() ? "" : " && ") + dialect_.localId(d, indexType()) + " < " + std::to_string(plane.extents[j]);
  }
  auto copy = [&] {
    for (int64_t p = 0; p < plane.positions(); ++p) {
      // Position p's copy in each dimension, outermost first (as queuedSlot numbers them).
      AccessPath path{PathStep::arrayIndex(index % ring.ringType.arrayLength())};
      int64_t rest = p, stride = plane.positions();
      for (size_t j = 0; j < dims; ++j) {
        stride /= plane.copies[j];
        const int64_t c = rest / stride;
        rest %= stride;
        const int64_t local = options_.localSize[dims - 1 - j];
        path.push_back(PathStep::arrayIndex(own[j] + arith::Expr(c * local + ring.centre)));
      }
      body_.assign(ring.queue + "[" + std::to_string(p * ring.window + slot) + "]",
                   readMemory(MemoryBinding{ring.ring, ring.ringType, AddressSpace::Local}, path, "/queue"));
    }
  };
  if (owns.empty())
    copy();
  else
    body_.ifThen(owns, copy);
}

void Generator::rotateQueue(const RingBinding &ring) {
  for (int64_t p = 0; p < positionsOf(ring.copies); ++p)
    for (int64_t k = 0; k + 1 < ring.window; ++k)
      body_.assign(ring.queue + "[" + std::to_string(p * ring.window + k) + "]",
                   ring.queue + "[" + std::to_string(p * ring.window + k + 1) + "]");
}

std::optional<int64_t> Generator::queuedSlot(const RingBinding &ring, const AccessPath &path) const {
  const size_t dims = ring.copies.size();
  if (ring.queue.empty() || path.size() != dims + 1) return std::nullopt;
  const arith::Expr slot = arith::simplify(path.front().index);
  if (!slot.isConstant()) return std::nullopt;
  int64_t position = 0;
  for (size_t j = 0; j < dims; ++j) {
    const size_t d = dims - 1 - j;
    const std::optional<arith::Expr> &own = lclIndex_[d];
    if (path[j + 1].isTuple || !own) return std::nullopt;
    arith::Expr offset = arith::simplify(path[j + 1].index - *own);
    if (!offset.isConstant() || offset.constant() != ring.centre) return std::nullopt;
    position = position * ring.copies[j] + lclCopy_[d];
  }
  return position * ring.window + slot.constant();
}

} // namespace liftcc::codegen
