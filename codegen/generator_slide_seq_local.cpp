// slideSeq run by a whole work-group (2.5D streaming through local memory,
// rewrite rule streamPlanesThroughLocal): the window's elements are planes
// (a tile plus its halo) that the work-group copies cooperatively into local
// memory as they enter the window; the step's function (mapLcl over the
// plane's outputs) reads its neighbourhoods from there.
//
// The window lives in a local ring of `slots` planes (size + step, or size
// where that would take too much local memory): element i of the input goes
// to slot i % slots, so moving on by one step loads only the `step` new
// planes and copies nothing. The function reads window slot dz in ring slot
// (w*step + dz) % slots (RingBinding). Barriers: after the new planes are
// stored (every work-item reads every plane) and, with a ring of only size
// slots, after the step's outputs (the next step overwrites the slots of the
// window's oldest planes); with size + step slots it loads into slots this
// step does not read, so one barrier a step, and one after the loop.
//
// Where the work-group size is given: the plane copy spread over the
// work-group and prefetched (generator_plane_copy.cpp), and, where each
// work-item owns the same output positions at every step, the streamed
// column at each in a register queue (generator_register_queue.cpp).
//
// A stream's planes may be computed by another stream instead of copied
// (rule timeTileThroughStream: each step of a time tile streams the planes
// the step before produces): slideSeq(n, 1, \w. toLocal(h, ...), ...) as a
// part of the input is a producer (StreamProducer), whose step computes
// one plane into this stream's ring. The pipeline runs at the pace of the
// last stream: each of its loads asks its producer for the next plane
// (producePlane: the producer's own next plane, a barrier, its step), and
// every producer's first n - 1 planes are loaded before (startProducers).

#include "codegen/generator.h"
#include "core/arith/index_range.h"
#include "core/ir/operands.h"
#include "primitives/api.h"

#include <algorithm>

namespace liftcc::codegen {

namespace {

[[noreturn]] void fail(const std::string &where, const std::string &message) { throw CodegenError(where, message); }

/// The plane copy of the input `map(\p. toLocal(h, p), planes)` (any map-like
/// op: the lowering makes it mapSeq or mapSeqUnroll): h, or nothing.
const Expr *planeCopy(const Expr &in) {
  if (!in.is(ExprKind::Prim) || !in.info().has(opflag::MapLike)) return nullptr;
  const Expr &g = funOf(in);
  if (!g.is(ExprKind::Lambda) || g.params().size() != 1) return nullptr;
  const Expr &body = g.body();
  if (!body.isPrim(Op::ToLocal) || !inputOf(body).is(ExprKind::Param) || !inputOf(body).sameNode(g.params()[0]))
    return nullptr;
  const Expr &h = funOf(body);
  if (!h.is(ExprKind::Lambda) || h.params().size() != 1) return nullptr;
  return &h;
}

/// The planes a stream through local memory reads: per zip component (one
/// without a zip) its planes and, when they go through a local ring, the
/// copy h of `map(\\p. toLocal(h, p), planes)` or, zipped,
/// `map(\\p. tuple(..., toLocal(h, get(k, p)), ..., get(j, p), ...), zip(parts))`.
struct StreamedPlanes {
  std::vector<const Expr *> copies; ///< h, or nullptr: read where it is (or produced)
  std::vector<Expr> parts;
  bool zipped = false;
};

/// Whether `planes` are computed by a stream of their own (a time tile's
/// step): slideSeq(n, s, \w. toLocal(h, ...), ...).
bool producedPlanes(const Expr &planes) {
  if (!planes.isPrim(Op::SlideSeq)) return false;
  const Expr &f = funOf(planes);
  return f.is(ExprKind::Lambda) && f.params().size() == 1 && f.body().isPrim(Op::ToLocal);
}

std::optional<StreamedPlanes> streamedPlanes(const Expr &in) {
  if (const Expr *h = planeCopy(in)) return StreamedPlanes{{h}, {inputOf(in)}, false};
  if (producedPlanes(in)) return StreamedPlanes{{nullptr}, {in}, false};
  if (!in.is(ExprKind::Prim) || !in.info().has(opflag::MapLike) || !inputOf(in).isPrim(Op::Zip)) return std::nullopt;
  const Expr &g = funOf(in);
  if (!g.is(ExprKind::Lambda) || g.params().size() != 1 || !g.body().isPrim(Op::Tuple)) return std::nullopt;
  const std::vector<Expr> &components = inputsOf(g.body());
  if (components.size() != inputsOf(inputOf(in)).size()) return std::nullopt;
  auto component = [&](const Expr &e, size_t k) {
    return e.isPrim(Op::Get) && getIndex(e) == static_cast<int>(k) && inputOf(e).sameNode(g.params()[0]);
  };
  StreamedPlanes streamed{{}, inputsOf(inputOf(in)), true};
  for (size_t k = 0; k < components.size(); ++k) {
    const Expr &c = components[k];
    if (component(c, k)) {
      streamed.copies.push_back(nullptr);
      continue;
    }
    if (!c.isPrim(Op::ToLocal) || !component(inputOf(c), k)) return std::nullopt;
    const Expr &h = funOf(c);
    if (!h.is(ExprKind::Lambda) || h.params().size() != 1) return std::nullopt;
    streamed.copies.push_back(&h);
  }
  if (std::all_of(streamed.copies.begin(), streamed.copies.end(), [](const Expr *h) { return !h; }) &&
      std::none_of(streamed.parts.begin(), streamed.parts.end(), producedPlanes))
    return std::nullopt;
  return streamed;
}

/// A plane of a ring: its scalars and their kind.
struct RingPlane {
  int64_t scalars = 1;
  ScalarKind kind = ScalarKind::Float;
  int64_t bytes() const { return scalars * (kind == ScalarKind::Double ? 8 : kind == ScalarKind::Bool ? 1 : 4); }
};

RingPlane ringPlane(const Type &plane, const std::string &where) {
  RingPlane shape;
  Type scalar = plane;
  while (scalar.isArray()) {
    if (!scalar.arrayLength().isConstant())
      fail(where,
           "a plane streamed through local memory needs constant extents (the tile plus halo), found " + plane.str());
    shape.scalars *= scalar.arrayLength().constant();
    scalar = scalar.arrayElement();
  }
  if (!scalar.isScalar()) fail(where, "a plane streamed through local memory must hold scalars, found " + plane.str());
  shape.kind = scalar.scalarKind();
  return shape;
}

/// With `step` slots more than the window's `n` planes, the planes a step
/// loads go to slots the step before did not read, so a step needs one
/// barrier (after its loads) instead of two; taken while the stream's rings
/// stay within this many bytes of local memory (else n slots: the larger
/// rings would cost occupancy, or not fit, where the barrier costs less).
constexpr int64_t kMaxOneBarrierRingBytes = 32 * 1024;

/// The most scalars of the next plane a work-item prefetches into registers
/// (per copied input); beyond, the plane is copied at its step.
constexpr int64_t kMaxPrefetchedScalars = 16;

} // namespace

std::string Generator::declareRing(const Type &plane, int64_t slots, const std::string &where) {
  const RingPlane shape = ringPlane(plane, where);
  if (shape.kind == ScalarKind::Double) usesDouble_ = true;
  const std::string ring = freshName("ring");
  localDeclarations_.push_back(
      {kir::ArrayDecl{kir::ArraySpace::Local, shape.kind, ring, std::to_string(slots * shape.scalars)}});
  localBytes_ += slots * shape.bytes();
  return ring;
}

Generator::LocalStream Generator::setUpStream(const Expr &e, const Env &env, const Scope &scope,
                                              const std::string &where) {
  if (!slideSize(e).isConstant() || !slideStep(e).isConstant())
    fail(where, "slideSeq on a work-group needs a constant window size and step, found " + slideSize(e).str() +
                    " and " + slideStep(e).str());
  const Expr &f = funOf(e);
  std::optional<StreamedPlanes> streamed = streamedPlanes(inputOf(e));
  if (!streamed || !f.is(ExprKind::Lambda) || f.params().size() != 1)
    fail(where, "slideSeq inside mapWrg must be nested in mapLcl (each work-item owns its private window), or "
                "stream planes through local memory: slideSeq(n, s, \\w. ..., map(\\p. toLocal(copy, p), planes))");
  LocalStream stream;
  stream.n = slideSize(e).constant();
  stream.s = slideStep(e).constant();
  stream.copies = streamed->copies;
  stream.zipped = streamed->zipped;
  stream.produces = f.body().isPrim(Op::ToLocal);
  stream.env = env;
  for (size_t k = 0; k < streamed->parts.size(); ++k) {
    const Expr &part = streamed->parts[k];
    const std::string at = stream.zipped ? where + "/in/in/in/" + std::to_string(k) : where + "/in";
    if (producedPlanes(part)) {
      // Its planes are computed a step at a time into this stream's ring.
      if (!slideStep(part).isConstant() || slideStep(part).constant() != 1)
        fail(at,
             "a stream producing another's planes must advance by one plane, found a step of " + slideStep(part).str());
      auto producer = std::make_shared<StreamProducer>(StreamProducer{part, setUpStream(part, env, scope, at)});
      stream.producers.push_back(std::move(producer));
      stream.parts.push_back(part);
      continue;
    }
    stream.producers.push_back(nullptr);
    stream.parts.push_back(prepare(part, stream.env, scope, stream.zipped ? at : where + "/in/in"));
  }
  declareRings(stream, e, where);
  declareCopies(stream);
  return stream;
}

void Generator::declareRings(LocalStream &stream, const Expr &e, const std::string &where) {
  // A ring of planes of constant size in local memory per copied input
  // (n + s slots, or n: kMaxOneBarrierRingBytes), and with a register queue
  // (queuedPlane) its column in private memory.
  const int64_t n = stream.n, s = stream.s;
  int64_t widerRingBytes = 0;
  for (size_t k = 0; k < stream.parts.size(); ++k)
    if (ringed(stream, k))
      widerRingBytes += (n + s) * ringPlane(stream.parts[k].typeOrThrow().arrayElement(), where + "/in").bytes();
  stream.slots = widerRingBytes <= kMaxOneBarrierRingBytes ? n + s : n;
  // A producer's steps run inside its consumer's: no queue of its own.
  stream.queued = s == 1 && n >= 2 && !stream.produces ? queuedPlane(e, n) : std::nullopt;
  stream.rings.resize(stream.parts.size());
  for (size_t k = 0; k < stream.parts.size(); ++k) {
    if (!ringed(stream, k)) continue;
    const Type &plane = stream.parts[k].typeOrThrow().arrayElement();
    RingBinding ring{declareRing(plane, stream.slots, where + "/in"),
                     Type::array(plane, arith::Expr(stream.slots)),
                     arith::Expr(0),
                     "",
                     (n - 1) / 2,
                     n,
                     {}};
    if (stream.queued) {
      ring.queue = freshName("queue");
      ring.copies = stream.queued->copies;
      ring.lanes = stream.queued->lanes;
      body_.privateArray(plane.innermost().scalarKind(), ring.queue, std::to_string(n * stream.queued->columns()));
      assumesLocalSize_ = true;
    }
    stream.rings[k] = ring;
  }
}

void Generator::declareCopies(LocalStream &stream) {
  // The copies spread evenly over the work-group where its size is given;
  // with one new plane a step, prefetched (generator_plane_copy.cpp).
  stream.cooperative.resize(stream.parts.size());
  // A stream whose planes a producer computes has nothing to prefetch (its
  // producer computes each plane at the step that needs it); a producer
  // copying its planes prefetches them as a consumer does (producePlane).
  stream.prefetch =
      stream.s == 1 && std::none_of(stream.producers.begin(), stream.producers.end(), [](const auto &p) { return p; });
  for (size_t k = 0; k < stream.parts.size(); ++k) {
    if (!stream.copies[k]) continue;
    const Type &planes = stream.parts[k].typeOrThrow();
    std::optional<CooperativeCopy> &c = stream.cooperative[k];
    c = cooperativeCopy(*stream.copies[k], planes.arrayElement(), planes.rank() - 1);
    if (!c) {
      stream.prefetch = false;
      continue;
    }
    declareFlatIndex(*c);
    assumesLocalSize_ = true;
    stream.prefetch = stream.prefetch && (c->scalars + c->items - 1) / c->items <= kMaxPrefetchedScalars;
  }
  if (!stream.prefetch) return;
  for (size_t k = 0; k < stream.parts.size(); ++k)
    if (CooperativeCopy *c = stream.cooperative[k] ? &*stream.cooperative[k] : nullptr) {
      c->registers = freshName("next");
      body_.privateArray(stream.parts[k].typeOrThrow().innermost().scalarKind(), c->registers,
                         std::to_string((c->scalars + c->items - 1) / c->items));
    }
}

void Generator::loadPlanes(const LocalStream &stream, const arith::Expr &index, CopyPhase phase, const Scope &scope,
                           const std::string &where) {
  for (size_t k = 0; k < stream.parts.size(); ++k) {
    if (stream.producers[k]) {
      producePlane(*stream.producers[k], index, stream.rings[k]->ring, stream.slots, scope, where);
      continue;
    }
    if (!stream.copies[k]) continue;
    if (stream.cooperative[k])
      copyPlaneCooperatively(*stream.cooperative[k], phase, stream.parts[k], stream.rings[k]->ring, index, stream.slots,
                             stream.env, where);
    else
      loadPlane(*stream.copies[k], stream.parts[k], stream.rings[k]->ring, index, stream.slots, stream.env, scope,
                where);
  }
}

void Generator::fillQueues(const LocalStream &stream, int64_t slot0, int64_t slots, const arith::Expr &index0) {
  if (!stream.queued) return;
  for (int64_t k = 0; k < slots; ++k)
    for (const auto &ring : stream.rings)
      if (ring) fillQueue(*ring, *stream.queued, slot0 + k, index0 + arith::Expr(k));
}

void Generator::genSlideSeqLocal(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope,
                                 const std::string &where) {
  const LocalStream stream = setUpStream(e, env, scope, where);
  const int64_t n = stream.n, s = stream.s, keep = std::max<int64_t>(n - s, 0);
  startProducers(stream, scope, where);
  for (int64_t k = 0; k < keep; ++k) loadPlanes(stream, arith::Expr(k), CopyPhase::Direct, scope, where);
  if (stream.prefetch) loadPlanes(stream, arith::Expr(keep), CopyPhase::Fetch, scope, where);
  if (stream.queued) body_.barrier();
  fillQueues(stream, 0, keep, arith::Expr(0));

  arith::Expr count = e.typeOrThrow().arrayLength();
  std::string w = freshName("w");
  arith::Expr step = arith::Expr::index(w, count);
  body_.forLoop(indexType(), w, "0", index(count), "1", [&] {
    for (int64_t k = keep; k < n; ++k)
      loadPlanes(stream, step * arith::Expr(s) + arith::Expr(k), stream.prefetch ? CopyPhase::Store : CopyPhase::Direct,
                 scope, where);
    body_.barrier();
    fillQueues(stream, keep, n - keep, step * arith::Expr(s) + arith::Expr(keep));
    // The next step's plane (s == 1), while this step computes. Under its
    // guard the step is below count - 1, which the range analysis needs to
    // drop the clamps of the plane's index in a specialised interior.
    if (stream.prefetch)
      body_.ifThen(w + " + 1 < " + index(count), [&] {
        const arith::Expr before = arith::indexWithin(w, arith::Expr(0), count - arith::Expr(1));
        loadPlanes(stream, before + arith::Expr(n), CopyPhase::Fetch, scope, where);
      });
    genStreamStep(stream, e, step, target, scope, where);
    // The next step overwrites the slots of this window's oldest planes, unless the ring has room to spare.
    if (stream.slots < n + s) body_.barrier();
  });
  // Whatever the work-group does next may overwrite the ring.
  if (stream.slots == n + s) body_.barrier();
}

void Generator::genStreamStep(const LocalStream &stream, const Expr &e, const arith::Expr &step,
                              const WriteTarget &target, const Scope &scope, const std::string &where) {
  const Expr &f = funOf(e);
  WriteTarget elementTarget = [target, step](const AccessPath &p) {
    return target(prepend(PathStep::arrayIndex(step), p));
  };
  std::vector<std::optional<RingBinding>> windows = stream.rings;
  for (auto &window : windows)
    if (window) window->first = (step * arith::Expr(stream.s)) % arith::Expr(stream.slots);
  Env bodyEnv = stream.zipped ? zippedWindow(stream.parts, windows, f.params()[0], step, e, stream.env)
                              : stream.env.bind(f.params()[0], *windows[0]);
  // With queues, the step's mapLcl nest as one copy per position a work-item owns.
  const size_t inner = stream.queued ? stream.queued->copies.size() : 0;
  for (size_t j = 0; j < inner; ++j) lclCopies_[inner - 1 - j] = stream.queued->copies[j];
  gen(f.body(), bodyEnv, elementTarget, scope, where + "/f/body");
  lclCopies_ = {1, 1, 1};
  // The queues move on with the window (s == 1).
  for (const auto &ring : stream.rings)
    if (ring && stream.queued) rotateQueue(*ring);
}

std::string Generator::readRing(const RingBinding &ring, const AccessPath &path, const std::string &where) {
  if (path.empty() || path.front().isTuple) throw InternalError(where, "a stream's window read without its slot");
  if (std::optional<int64_t> slot = queuedSlot(ring, path)) {
    lastMemoryRead_.reset();
    return ring.queue + "[" + std::to_string(*slot) + "]";
  }
  AccessPath inRing = path;
  inRing.front().index = arith::simplify((ring.first + path.front().index) % ring.ringType.arrayLength());
  return readMemory(MemoryBinding{ring.ring, ring.ringType, AddressSpace::Local}, inRing, where);
}

void Generator::loadPlane(const Expr &copy, const Expr &planes, const std::string &ring, const arith::Expr &index,
                          int64_t slots, const Env &env, const Scope &scope, const std::string &where) {
  const Type ringType = Type::array(planes.typeOrThrow().arrayElement(), arith::Expr(slots));
  WriteTarget slotTarget = ringSlotTarget(ring, ringType, index % arith::Expr(slots), where);
  Env copyEnv = env.bind(copy.params()[0], ViewBinding{planes, share(env), {PathStep::arrayIndex(index)}});
  gen(copy.body(), copyEnv, slotTarget, scope, where + "/in/f/body/f/body");
}

WriteTarget Generator::ringSlotTarget(const std::string &ring, const Type &ringType, const arith::Expr &slot,
                                      const std::string &where) {
  return [this, ring, ringType, slot, where](const AccessPath &path) {
    arith::Expr offset = linearize(ringType, prepend(PathStep::arrayIndex(slot), path), where);
    return bufferElement(ring + "[" + this->bufferIndex(offset) + "]", ring, offset);
  };
}

void Generator::startProducers(const LocalStream &stream, const Scope &scope, const std::string &where) {
  for (const auto &p : stream.producers) {
    if (!p) continue;
    startProducers(p->stream, scope, where);
    for (int64_t k = 0; k + 1 < p->stream.n; ++k)
      loadPlanes(p->stream, arith::Expr(k), CopyPhase::Direct, scope, where);
    if (p->stream.prefetch) loadPlanes(p->stream, arith::Expr(p->stream.n - 1), CopyPhase::Fetch, scope, where);
  }
}

void Generator::producePlane(const StreamProducer &p, const arith::Expr &index, const std::string &ring, int64_t slots,
                             const Scope &scope, const std::string &where) {
  const LocalStream &stream = p.stream;
  const arith::Expr newest = index + arith::Expr(stream.n - 1);
  loadPlanes(stream, newest, stream.prefetch ? CopyPhase::Store : CopyPhase::Direct, scope, where);
  body_.barrier();
  // The plane of its next step, in flight while this step and its consumers compute.
  if (stream.prefetch) {
    const arith::Expr next = arith::simplify(newest + arith::Expr(1));
    const arith::Expr planes = inputOf(p.e).typeOrThrow().arrayLength();
    auto fetch = [&] { loadPlanes(stream, next, CopyPhase::Fetch, scope, where); };
    if (arith::provablyLess(next, planes))
      fetch(); // a step of the warm-up, or one the ranges place before the last
    else
      body_.ifThen(this->index(next) + " < " + this->index(planes), fetch);
  }
  // The step writes its plane (toLocal(h, ...) into the target: h's outputs)
  // into the consumer's ring; genStreamStep gives the target the step first.
  const Type ringType = Type::array(p.e.typeOrThrow().arrayElement(), arith::Expr(slots));
  WriteTarget slot = ringSlotTarget(ring, ringType, index % arith::Expr(slots), where);
  WriteTarget plane = [slot](const AccessPath &path) { return slot(AccessPath(path.begin() + 1, path.end())); };
  genStreamStep(stream, p.e, index, plane, scope, where + "/in");
  // Its next step loads into the slot of this window's oldest plane.
  if (stream.slots < stream.n + 1) body_.barrier();
}

Env Generator::zippedWindow(const std::vector<Expr> &parts, const std::vector<std::optional<RingBinding>> &rings,
                            const Expr &param, const arith::Expr &step, const Expr &slideSeq, const Env &env) {
  // The window at `step`: each copied component its ring's window, the
  // others their own planes' window, as views: zip(ring, slide(n, s, part), ...).
  const int64_t n = slideSize(slideSeq).constant(), s = slideStep(slideSeq).constant();
  const arith::Expr count = slideSeq.typeOrThrow().arrayLength();
  Env out = env;
  std::vector<Expr> components;
  std::vector<Type> elementTypes;
  for (size_t k = 0; k < parts.size(); ++k) {
    const Type &plane = parts[k].typeOrThrow().arrayElement();
    const Type window = Type::array(plane, arith::Expr(n));
    Expr component = Expr::param(freshName("window"), window);
    if (rings[k]) {
      out = out.bind(component, *rings[k]);
    } else {
      Expr windows = api::slide(arith::Expr(n), arith::Expr(s), parts[k]).withType(Type::array(window, count));
      out = out.bind(component, ViewBinding{windows, share(env), {PathStep::arrayIndex(step)}});
    }
    components.push_back(component);
    elementTypes.push_back(plane);
  }
  Expr zip = api::zip(components).withType(Type::array(Type::tuple(elementTypes), arith::Expr(n)));
  return out.bind(param, ViewBinding{zip, share(out), {}});
}

} // namespace liftcc::codegen
