#pragma once
// Internal to codegen: the state of generating one kernel. See generate.h.

#include "codegen/boundary_facts.h"
#include "codegen/dialect.h"
#include "codegen/env.h"
#include "codegen/generate.h"
#include "codegen/kernel_ir.h"
#include "codegen/kernel_ir_passes.h"
#include "core/ir/loop_split.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace liftcc::codegen {

/// Where one computed scalar (or vector) goes, and the condition under which
/// it is written: writing through take (the last, partial tile of a tiling)
/// stores only the elements take keeps. An empty guard always writes.
struct Lvalue {
  std::string text;                  ///< a C lvalue; empty for a vector written through asScalar
  std::string guard;                 ///< a C condition; empty: always written
  std::string buffer;                ///< when `text` is `buffer[offset]`: the buffer ...
  std::optional<arith::Expr> offset; ///< ... and the element's offset in it
  std::vector<Lvalue> lanes;         ///< a vector's lanes, in order (asScalar) ...
  std::string vectorType;            ///< ... and its C type
  int vectorAlignment = 0;           ///< ... and Dialect::vectorAlignment of it
  /// `buffer` is in global memory (a kernel argument or a global
  /// intermediate: allocated by the runtime, aligned far beyond a vector).
  bool globalBuffer = false;
  /// The element count of a read global `buffer` (its type's lengths
  /// multiplied), where known: an aligned vector holding one of its elements
  /// lies inside it when the count is a multiple of the vector's width.
  std::optional<arith::Expr> bufferElements;
};

/// The lvalue `text` of element `offset` of `buffer` (in `space`).
inline Lvalue bufferElement(std::string text, std::string buffer, arith::Expr offset,
                            AddressSpace space = AddressSpace::Global) {
  Lvalue lvalue;
  lvalue.text = std::move(text);
  lvalue.buffer = std::move(buffer);
  lvalue.offset = std::move(offset);
  lvalue.globalBuffer = space == AddressSpace::Global;
  return lvalue;
}

/// Where the values computed by an expression go: maps the access path of
/// each scalar of the value to an lvalue. Writing through join, split,
/// transpose, take and layout-only maps composes a new target.
using WriteTarget = std::function<Lvalue(const AccessPath &)>;

/// An index a write must stay below (take's count), else it is dropped.
struct WriteBound {
  arith::Expr index, count;
};

/// Which parallel maps enclose the code being generated; decides legality of
/// nestings, where temporaries live and where barriers are uniform.
struct Scope {
  std::array<bool, 3> glb{false, false, false};
  std::array<bool, 3> wrg{false, false, false};
  std::array<bool, 3> lcl{false, false, false};
  bool sequential = false; ///< inside a mapSeq / reduceSeq loop

  bool inGlb() const { return glb[0] || glb[1] || glb[2]; }
  bool inWrg() const { return wrg[0] || wrg[1] || wrg[2]; }
  bool inLcl() const { return lcl[0] || lcl[1] || lcl[2]; }
  /// Code executed by one work-item on its own data.
  bool perThread() const { return inGlb() || inLcl() || (sequential && !inWrg()); }
  /// Code executed uniformly by a whole work-group (barriers are legal here).
  bool workGroupUniform() const { return inWrg() && !inLcl() && !sequential; }
};

/// The pieces of one kernel's source, so that the kernels of a multi-kernel
/// program share one source in which each user function is defined once.
struct SourceParts {
  bool usesDouble = false;
  bool wideIndices = false;
  bool inlineUserFuns = false;
  bool borderUserFuns = false;          ///< also never-inlined border copies (CodegenOptions::noinlineBorder)
  std::vector<cfun::Function> userFuns; ///< as emitted (divisions rewritten where asked), in order of first use
  /// Vector type definitions (the dialects without built-in vectors need them).
  std::vector<std::string> vectorTypes;
  /// Lane-wise user functions on vectors, signature and body without the
  /// qualifier (assembleSource adds the one all user functions get).
  std::vector<std::string> vectorUserFuns;
  std::string kernelFunction; ///< from the kernel qualifier to its closing brace
};

/// The source of `kernels`: preamble, helpers, user functions, then each kernel function.
std::string assembleSource(const Dialect &dialect, const std::vector<SourceParts> &kernels);

class Generator {
public:
  /// `interior`: generate the interior code of a specialised kernel (see
  /// Kernel::Interior): every mapGlb / mapWrg index ranges over its interior
  /// only and has no bounds guard.
  Generator(const Program &program, Target target, const CodegenOptions &options,
            std::optional<Kernel::Interior> interior = std::nullopt);
  /// The kernel; its index width (Kernel::indexBits) is chosen by the kernel
  /// IR's chooseIndexWidth pass from what the range analysis proved. The
  /// interior code of a specialised kernel stops before the passes: its
  /// statements go into the general kernel's body.
  Kernel run();
  /// After run(): the pieces of the kernel's source.
  const SourceParts &sourceParts() const { return parts_; }

private:
  // ---- reading through views (generator_views.cpp) ----
  /// C expression of the scalar at `path` inside the value of `e`.
  std::string read(const Expr &e, const Env &env, const AccessPath &path, const std::string &where);
  std::string readParam(const Expr &param, const Env &env, const AccessPath &path, const std::string &where);
  /// Element `path` of a buffer (recorded in lastMemoryRead_).
  std::string readMemory(const MemoryBinding &memory, const AccessPath &path, const std::string &where);
  /// Element `path` ([window slot][plane...]) of a stream's window in its
  /// local ring, or in the work-item's register queue (queuedSlot).
  std::string readRing(const RingBinding &ring, const AccessPath &path, const std::string &where);
  /// The queue slot holding element `path` of a ring's window: its window
  /// slot, when the element lies in this work-item's queued column (the
  /// enclosing mapLcl indices plus the centre in every plane dimension).
  std::optional<int64_t> queuedSlot(const RingBinding &ring, const AccessPath &path) const;
  std::string readPrim(const Expr &e, const Env &env, const AccessPath &path, const std::string &where);
  /// Reads element `path` of a view through its index rule (core/ir/view_index.h).
  std::string readThrough(const Expr &view, const Env &env, const AccessPath &path, const std::string &where);
  /// Reads element `path` of a map (f of an element of its input) or of generate (f of the index).
  std::string readFunction(const Expr &e, const Env &env, const AccessPath &path, const std::string &where);
  /// Reads element `path` of atDynamic: `in` at its index operand's value, clamped into the array.
  std::string readDataIndex(const Expr &e, const Env &env, const AccessPath &path, const std::string &where);
  /// The value of atDynamic's int operand as an index expression: the
  /// index itself when the operand is an index (generate's parameter), else
  /// a variable spelled as the operand's C text.
  arith::Expr dynamicIndex(const Expr &operand, const Env &env, const std::string &where);
  /// Element `path` of `e`, an int, as index arithmetic where it is one
  /// (generator_index_values.cpp): indices, int literals, affine user
  /// functions of those, read through views; nullopt otherwise.
  std::optional<arith::Expr> indexValue(const Expr &e, const Env &env, const AccessPath &path, int depth = 0) const;
  std::optional<arith::Expr> appliedIndexValue(const Expr &e, const Env &env, const AccessPath &path, int depth) const;
  std::optional<arith::Expr> primIndexValue(const Expr &e, const Env &env, const AccessPath &path, int depth) const;
  /// Whether `e` holds one of opaqueIndices_.
  bool readsOpaqueIndex(const arith::Expr &e) const;
  /// Whether `text` calls a user function whose body divides (or takes a remainder).
  bool callsDividingUserFun(const std::string &text) const;
  /// The call of user function `f`, lane-wise when `result` is a vector.
  std::string callUserFun(const Expr &f, const std::vector<std::string> &args, const Type &result);
  /// Refuses an output expression of more than kir::kMaxExpressionBytes of text
  /// (a CodegenError) while it is built (the capExpressionSize pass checks the
  /// statements emitted).
  static void checkExpressionSize(size_t bytes);
  /// Row-major offset of `path` in a buffer of `type`.
  arith::Expr linearize(const Type &type, const AccessPath &path, const std::string &where) const;
  /// The C text of an index expression, with the range analysis' finding of
  /// whether it (and every subexpression C evaluates) fits int: plain text
  /// where it fits and reads the same at both widths, else a width choice
  /// (index_holes.h) that the chooseIndexWidth pass spells.
  std::string index(const arith::Expr &e);
  /// index() of an expression arith::simplify already returned.
  std::string simplifiedIndex(const arith::Expr &simplified);
  /// The text of `simplified` at both widths (min/max of 64-bit indices are
  /// the generated liftcc_min/liftcc_max), recording `fitsNarrow`.
  std::string spelledIndex(const arith::Expr &simplified, bool fitsNarrow) const;
  /// The C text of a buffer element's index: a hole (index_holes.h) through
  /// which the nameCommonIndices pass can name the index's base, shared by
  /// the accesses of a statement list, or plain text where there is nothing
  /// to name.
  std::string bufferIndex(const arith::Expr &offset);
  /// The index type: "int", or the dialect's 64-bit type in wide kernels (a width choice).
  std::string indexType() const;
  /// A built-in id or size of dimension `d` (Dialect::globalId, groupId, ...)
  /// converted to the index type (a width choice).
  std::string indexBuiltin(std::string (Dialect::*builtin)(int, const std::string &) const, int d) const;

  // ---- vectors (generator_vectors.cpp) ----
  /// The vector at `path` of asVector(w, in): one vloadN where its lanes are
  /// consecutive elements of one buffer, else the lanes gathered.
  std::string readVector(const Expr &asVector, const Env &env, const AccessPath &path, const std::string &where);
  /// The lvalue of the vector at `path` of `argument` (the type of the
  /// argument of a layout containing asScalar): its lanes, `laneTarget(l)`
  /// for each lane l.
  Lvalue vectorLvalue(const Type &argument, const AccessPath &path, const std::function<Lvalue(int)> &laneTarget,
                      const std::string &where);
  /// Emits `lvalue = value;` under the lvalue's guard (for a vector: one
  /// vstoreN where its lanes are consecutive and share one guard, else one
  /// store per lane).
  void store(const Lvalue &lvalue, const std::string &value);
  /// The name of the lane-wise variant of `f` on vectors of `width`, registered for emission.
  std::string useVectorUserFun(const cfun::Function &f, int width);
  /// Records the vector types and lane-wise user functions used in parts_.
  void recordVectorSources();
  /// User function `name` as the kernel defines it: its divisions by
  /// constants as multiplications (CodegenOptions::divToMul) and, at fast-math
  /// level reassociate, its long sums regrouped (cfun::Function::regroupedSums).
  cfun::Function emittedUserFun(const std::string &name) const;

  // ---- computing into memory (generator_compute.cpp) ----
  void gen(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope, const std::string &where);
  void genMap(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope, const std::string &where);
  /// A map's index variable, where it starts and its stride (generator_loops.cpp).
  struct MapIndex {
    std::string var, start, stride;
  };
  /// The index of map `e` over `n` elements; records the extent of a
  /// parallel map and marks `inner` as inside it.
  MapIndex mapIndex(const Expr &e, const arith::Expr &n, Scope &inner, const std::string &where);
  /// Emits `emitBody(i)` for each index i of map `e`: unrolled copies, a
  /// guard (mapGlb), a scope (mapWrg) or a loop.
  void emitMapIterations(const Expr &e, const arith::Expr &n, const MapIndex &index,
                         const std::function<void(const arith::Expr &)> &emitBody, const std::string &where);
  void genReduce(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope,
                 const std::string &where);
  /// slideSeq: the window in private memory, rotated (generator_slide_seq.cpp).
  void genSlideSeq(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope,
                   const std::string &where);
  /// slideSeq on a whole work-group: planes streamed through a local ring
  /// (generator_slide_seq_local.cpp).
  /// Declares the local ring of `slots` planes of constant extents (scalars) and returns its name.
  std::string declareRing(const Type &plane, int64_t slots, const std::string &where);
  void genSlideSeqLocal(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope,
                        const std::string &where);
  /// Copies plane `index` of `planes` into slot index % slots of the local `ring` with `copy` (a work-group's copy).
  void loadPlane(const Expr &copy, const Expr &planes, const std::string &ring, const arith::Expr &index, int64_t slots,
                 const Env &env, const Scope &scope, const std::string &where);
  /// The environment of a stream's step over zipped planes: `param` the
  /// window at `step`, each copied component its local ring's planes
  /// (`ringWindows[k]` at slot `first`), every other one its part's window,
  /// read where it is.
  Env zippedWindow(const std::vector<Expr> &parts, const std::vector<std::optional<RingBinding>> &ringWindows,
                   const Expr &param, const arith::Expr &step, const Expr &slideSeq, const Env &env);
  /// The plane of outputs each step of a stream writes, and how many
  /// positions of it each work-item owns per dimension (generator_register_queue.cpp).
  struct QueuedPlane {
    std::vector<int64_t> extents; ///< the step's mapLcl nest's, outermost first
    std::vector<int64_t> copies;  ///< per dimension: 1 (the group covers it) or extent / group size
    int64_t lanes = 1;            ///< outputs along x per mapLcl position (vectors: their width)
    int64_t positions() const;
    int64_t columns() const { return positions() * lanes; } ///< queued columns per work-item
  };
  /// The plane of stream `e` (window of `n` planes) where each work-item owns
  /// the same output positions at every step, so that their columns can
  /// live in its registers: the work-group size is given, and per dimension
  /// covers the step's mapLcl nest or divides it (the mapLcl then emitted as
  /// that many copies, lclCopies_), within kMaxQueuedScalars. A mapLcl
  /// position computing a vector owns its lanes' columns.
  std::optional<QueuedPlane> queuedPlane(const Expr &e, int64_t n) const;
  /// A stream's plane copy spread evenly over the work-group (generator_plane_copy.cpp).
  struct CooperativeCopy {
    const Expr *element = nullptr; ///< the user function the copy applies to each scalar
    std::vector<int64_t> extents;  ///< the plane's
    int64_t scalars = 1;           ///< the plane's
    int64_t items = 1;             ///< work-items in the work-group
    std::string flat;              ///< the work-item's index in the work-group (declareFlatIndex)
    std::string registers;         ///< the prefetched plane, ceil(scalars / items) per work-item
  };
  /// The flat form of `copy` (a mapLcl nest applying a user function to each
  /// scalar of the plane) where the work-group size is given.
  std::optional<CooperativeCopy> cooperativeCopy(const Expr &copy, const Type &plane, int innerDims) const;
  /// Declares the work-item's flat index in the work-group, c.flat.
  void declareFlatIndex(CooperativeCopy &c);
  /// Direct: plane `index` into its ring slot; Fetch: into the registers; Store: the registers into the slot.
  enum class CopyPhase { Direct, Fetch, Store };
  void copyPlaneCooperatively(const CooperativeCopy &c, CopyPhase phase, const Expr &planes, const std::string &ring,
                              const arith::Expr &index, int64_t slots, const Env &env, const std::string &where);
  /// Copies window slot `slot` of `ring` (plane `index` of the stream) into
  /// the queue of each output position of `plane` a work-item owns.
  void fillQueue(const RingBinding &ring, const QueuedPlane &plane, int64_t slot, const arith::Expr &index);
  /// Moves each queue on by one plane: slot k takes slot k + 1.
  void rotateQueue(const RingBinding &ring);
  struct StreamProducer;
  /// A stream through local memory as it is generated.
  struct LocalStream {
    int64_t n = 0, s = 0;             ///< the window's planes and its step
    int64_t slots = 0;                ///< planes in each ring
    std::vector<Expr> parts;          ///< each zip component's planes (one without a zip)
    std::vector<const Expr *> copies; ///< each part's copy into local memory, or nullptr: read in place
    /// each part's producer: the stream whose step computes its next plane
    /// into this stream's ring (a time tile's steps), or nullptr
    std::vector<std::shared_ptr<const StreamProducer>> producers;
    bool zipped = false;
    bool produces = false; ///< its step computes a plane of another stream's input (toLocal)
    Env env;               ///< binds the parts' materialised subexpressions
    std::vector<std::optional<RingBinding>> rings;
    std::vector<std::optional<CooperativeCopy>> cooperative;
    std::optional<QueuedPlane> queued;
    bool prefetch = false; ///< the next plane read into registers a step ahead
  };
  /// A stream that computes the planes of another's input, step by step.
  struct StreamProducer {
    Expr e; ///< its slideSeq: \w. toLocal(h, ...) over its own input
    LocalStream stream;
  };
  /// Whether part `k` of `stream` goes through a local ring (copied or produced).
  static bool ringed(const LocalStream &stream, size_t k) { return stream.copies[k] || stream.producers[k]; }
  /// Loads the planes each producer of `stream` needs before its first step (recursively).
  void startProducers(const LocalStream &stream, const Scope &scope, const std::string &where);
  /// Producer `p`'s step `index`: its next input plane loaded, then its
  /// output plane `index` computed into slot index % slots of `ring`.
  void producePlane(const StreamProducer &p, const arith::Expr &index, const std::string &ring, int64_t slots,
                    const Scope &scope, const std::string &where);
  /// The element at `path` of slot `slot` of `ring` (of `ringType`).
  WriteTarget ringSlotTarget(const std::string &ring, const Type &ringType, const arith::Expr &slot,
                             const std::string &where);
  /// Checks stream `e`, prepares its planes and declares its rings, queues and copies.
  LocalStream setUpStream(const Expr &e, const Env &env, const Scope &scope, const std::string &where);
  void declareRings(LocalStream &stream, const Expr &e, const std::string &where);
  void declareCopies(LocalStream &stream);
  /// Plane `index` of each copied input into slot index % slots of its ring
  /// (or, `phase`, into the prefetch registers or from them).
  void loadPlanes(const LocalStream &stream, const arith::Expr &index, CopyPhase phase, const Scope &scope,
                  const std::string &where);
  /// Planes `index0`.. of the window, from window slot `slot0` on, into the queues.
  void fillQueues(const LocalStream &stream, int64_t slot0, int64_t slots, const arith::Expr &index0);
  /// The outputs of step `step` from the window, and the queues moved on.
  void genStreamStep(const LocalStream &stream, const Expr &e, const arith::Expr &step, const WriteTarget &target,
                     const Scope &scope, const std::string &where);
  void genLayoutWrite(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope,
                      const std::string &where);
  /// Where a layout's result is written: the path on its result of the
  /// scalar at a path of its argument (of lane `lane` of the vector there,
  /// where asScalar spreads vectors out), adding the bounds of takes passed.
  using LayoutPath = std::function<AccessPath(const AccessPath &, std::vector<WriteBound> &, std::optional<int> lane)>;
  /// The target of `argument`, written through `layout` into `target`: each
  /// scalar at its place in the result, guarded by the takes' bounds; lane
  /// by lane where the layout spreads the argument's vectors (asScalar).
  WriteTarget throughLayout(const WriteTarget &target, const Expr &layout, const Expr &argument,
                            const LayoutPath &onResult, const std::string &where);
  /// A tuple, or a zip of computed arrays: each component written on its own.
  static bool writesComponents(const Expr &e);
  void genComponents(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope,
                     const std::string &where);
  /// `target` restricted to the bounds (those the ranges do not prove).
  Lvalue guarded(Lvalue target, const std::vector<WriteBound> &bounds);
  /// Binds the parameter of a unary function to `arg` (or, for a user
  /// function, returns false so the caller applies it to the read value).
  Env bindArgument(const Expr &f, const Env &env, Binding arg) const;
  /// Replaces every compute subexpression of a data-layout expression by a
  /// parameter bound to a freshly materialised buffer.
  Expr prepare(const Expr &e, Env &env, const Scope &scope, const std::string &where);
  /// prepare's parameters for the computed values materialised so far.
  using PreparedNodes = std::unordered_map<Expr, Expr>;
  Expr prepareOnce(const Expr &e, Env &env, const Scope &scope, const std::string &where, PreparedNodes &prepared);
  Expr prepareNode(const Expr &e, Env &env, const Scope &scope, const std::string &where, PreparedNodes &prepared);
  MemoryBinding materialize(const Expr &e, const Env &env, const Scope &scope, const std::string &where);
  /// A work-item's small array of tuples of scalars (a reduction over a
  /// tuple accumulator) as one private array per component; returns the
  /// parameter `env` binds to their zip.
  Expr materializeComponents(const Expr &e, Env &env, const Scope &scope, const std::string &where);
  void checkNesting(const Expr &e, const Scope &scope, const std::string &where) const;

  // ---- boundary specialisation (generator_specialise.cpp) ----
  /// Whether the bounds guard of a mapGlb / mapWrg over `extent` on
  /// dimension `dim` can be dropped in the general code: the launch provides
  /// exactly one work-item (work-group) per element.
  bool guardFree(Op op, int dim, const arith::Expr &extent) const;
  /// The work-group size this kernel is generated for, when known.
  std::optional<std::array<int64_t, 3>> knownLocalSize() const;
  struct InteriorCode {
    Kernel::Interior margins;
    kir::Stmts body;
    std::string condition; ///< work-group-uniform C condition selecting it
  };
  /// The interior code at the smallest margins that leave it no boundary
  /// arithmetic (interiorMargins), lowered with narrower index ranges;
  /// nullopt when no margin up to the reach of the program's pads works, the
  /// interior is empty at these sizes, or it would equal the general code.
  std::optional<InteriorCode> findInterior(const Kernel &general);
  /// The narrowest margins (per side, each at most the reach of the
  /// program's pads) outside which the boundary facts leave no boundary
  /// operation; nullopt when none up to that reach does.
  std::optional<Kernel::Interior> interiorMargins() const;
  /// The interior code at `margins`: the body lowered again with the map
  /// indices over the interior only; nullopt where boundary arithmetic
  /// remains or it would not fit the general kernel's declarations.
  std::optional<kir::Stmts> lowerInterior(const Kernel::Interior &margins) const;
  std::string interiorCondition(const Kernel &general, const Kernel::Interior &margins) const;
  /// Whether this work-item's own indices lie within `margins` (mapGlb
  /// kernels; CodegenOptions::splitBorder).
  std::string itemInteriorCondition(const Kernel::Interior &margins) const;
  /// The general code calling the border copies of the user functions
  /// (borderUserFunName; lane-wise calls keep their vector variants), for a
  /// kernel whose interior was found: a renaming pass over its IR.
  kir::Stmts borderCode(const kir::Stmts &general) const;

  // ---- assembling the kernel (generator_kernel.cpp) ----
  /// The kernel's dimensions, global and local sizes and local memory, from the maps generated.
  void setLaunchConfiguration(Kernel &kernel) const;
  /// The generated statements, or with boundary specialisation `if (interior) {...} else {...}`.
  kir::Stmts specialisedBody(Kernel &kernel);
  /// The kernel IR's passes over the local arrays and the (specialised)
  /// body, then the kernel's source: user functions, `params`, body.
  void assemble(Kernel &kernel, const std::vector<std::string> &params);
  /// The kernel function: signature, widened sizes (64-bit kernels) and `body`, after the kernel IR's passes.
  std::string kernelFunction(const Kernel &kernel, const std::vector<std::string> &params, const kir::Body &body) const;

  /// The output parameters of a result with tuples, one per component, and
  /// the target writing each scalar to its component.
  WriteTarget outputComponents(const Type &resultType, Kernel &kernel, std::vector<std::string> &params);

  std::string freshName(const std::string &base);
  void useUserFun(const cfun::Function &f);

  const Program &program_;
  Dialect dialect_;
  CodegenOptions options_;
  /// The kernel body as emitted (kernel_ir.h), before its passes.
  kir::Builder body_;
  /// The local arrays, declared at the kernel's top (kir::ArrayDecl).
  kir::Stmts localDeclarations_;
  std::map<std::string, cfun::Function> userFuns_;
  std::vector<std::string> userFunOrder_;
  std::set<std::string> takenNames_;
  std::map<std::string, int> nameCounters_;
  /// bufferIndex: the temporary's name of each index base (by its text).
  std::map<std::string, std::string> indexNames_;
  /// Index variables spelled as an operand's C text (dynamicIndex) that
  /// reads memory or calls a user function that divides: a base holding one
  /// is never named, since naming evaluates it before its statement, outside
  /// the guard (padConstant's select) it may be under.
  std::set<std::string> opaqueIndices_;
  /// Unrolled loops (mapSeqUnroll, reduceSeqUnroll) copy their body once per
  /// iteration; beyond this many copies (the product over nested unrolled
  /// loops) they become ordinary loops, or the source grows without bound
  /// (a reduction over 16384 elements was over a gigabyte of C).
  static constexpr int64_t kMaxUnrolledCopies = 1024;
  /// In CUDA C, an unrolled loop of more than this many iterations is emitted
  /// as a loop: the loops worth unrolling are short (a window's taps, at most
  /// 129 for radius 64; a coarsened block), and NVRTC's time grows faster than
  /// the text: the mapping family's sequential 1024-wide row of Jacobi 2D
  /// (mapGlb(y)) unrolled into 115 KB that NVRTC compiled for 14 s (a
  /// branchy 3x3 body: 25 s), against 0.05 s as a loop. OpenCL keeps the
  /// copies: PoCL runs a 256-wide unrolled row of Heat 3.5x faster than the
  /// loop (0.24 against 0.84 ms at 64x64x256).
  static constexpr int64_t kMaxUnrolledCudaLoop = 129;
  /// Whether a loop of `n` iterations (constant) is emitted as copies.
  bool unrolledHere(int64_t n) const;
  /// The most scalars a slideSeq window may keep in private memory (registers).
  static constexpr int64_t kMaxWindowScalars = 1024;
  /// The most scalars an array materialised in private memory may have.
  static constexpr int64_t kMaxPrivateScalars = 4096;
  int64_t unrolledCopies_ = 1; ///< product of the enclosing unrolled loops' extents
  /// Some index was not proved to fit int: every index after it is marked
  /// as not fitting too (the kernel is 64-bit anyway; proving costs time).
  bool needsWide_ = false;
  std::optional<Kernel::Interior> interior_;
  /// The map indices and the reads that kept boundary arithmetic (a clamp,
  /// mirror or wrap the ranges did not simplify away, a constant-pad select): the margin
  /// search asks the general code's what an interior would keep; an interior
  /// code must have no read left.
  kir::BoundaryFacts boundaryFacts_;
  bool droppedGuard_ = false;                    ///< some bounds guard was dropped (guardFree)
  std::unordered_set<arith::Expr> provenNarrow_; ///< expressions proved within int
  bool usesDouble_ = false;
  /// The last read of a buffer element (readParam), so that readVector can
  /// tell consecutive lanes: its text, buffer and offset.
  std::optional<Lvalue> lastMemoryRead_;
  /// Lane-wise user functions: (name, width) -> emitted name, in order of use.
  std::map<std::pair<std::string, int>, std::string> vectorUserFuns_;
  std::vector<std::pair<std::string, int>> vectorUserFunOrder_;
  std::set<std::pair<ScalarKind, int>> vectorTypes_; ///< vector types used (CUDA defines them)
  int64_t localBytes_ = 0;
  std::array<std::optional<arith::Expr>, 3> glbExtent_, wrgExtent_, lclExtent_;
  /// The index of each dimension's mapLcl whose body is being generated.
  std::array<std::optional<arith::Expr>, 3> lclIndex_;
  /// A stream's step with a register queue: each dimension's mapLcl emitted
  /// as this many copies, one per position a work-item owns (the copy being
  /// generated in lclCopy_).
  std::array<int64_t, 3> lclCopies_{1, 1, 1}, lclCopy_{0, 0, 0};
  /// The most private scalars a stream's register queues may hold per work-item.
  static constexpr int64_t kMaxQueuedScalars = 64;
  /// The code counts on the work-group size given (options_.localSize): a
  /// stream's register queues (each work-item's output positions) or its
  /// plane copy spread over the work-items, so the kernel requires it.
  bool assumesLocalSize_ = false;
  SourceParts parts_;
};

/// The name of the non-inlined copy of user function `name` that the border
/// code of a specialised OpenCL kernel calls (Dialect::separateBorderUserFuns).
std::string borderUserFunName(const std::string &name);
/// One kernel, 32-bit indices where the range analysis proves them enough;
/// `parts` (optional) receives the pieces of its source.
Kernel generateOneKernel(const Program &typedProgram, Target target, const CodegenOptions &options, SourceParts *parts);
/// A program of several kernels (Kernel::stages) takes the dimensions, NDRange,
/// work-group size and interior of its last one.
void launchOfLastStage(Kernel &program);
/// Whether the program has a closed toGlobal: an intermediate array computed
/// by a kernel of its own (rewrite/stages.h).
bool hasStages(const Program &typedProgram);
/// A multi-kernel program: one kernel per closed toGlobal, then the rest
/// (generator_stages.cpp, Kernel::stages).
/// `sourceParts` (optional) receives the pieces of every stage's source;
/// the temporaries are named `temporaryBase` followed by their index.
/// A component of a tuple result that is an input itself gets an output that
/// no stage writes when the input is one of `passedOn` (an iterated state's
/// carried component: the host passes the buffer on); any other is an error.
Kernel generateStages(const Program &typedProgram, Target target, const CodegenOptions &options,
                      std::vector<SourceParts> *sourceParts = nullptr, const std::string &temporaryBase = "tmp",
                      const std::set<std::string> &passedOn = {});
/// The index of the program input A that the program's iterate(n, f, A)
/// iterates; a CodegenError at /body/in when A is not an input.
size_t iteratedInput(const Program &typedProgram);
/// iterate(n, f, tuple(A, B, ...)) over distinct inputs (core/ir/iterated_state.h):
/// the kernels of one step over the inputs, one output per component,
/// launched n times by the host with each component's buffer and its output
/// swapped between steps (Kernel::Iteration::inputArgs).
/// `sourceParts` and `temporaryBase` as for generateStages (a phase of a
/// time-tiled program).
Kernel generateIteratedTuple(const Program &typedProgram, Target target, const CodegenOptions &options,
                             std::vector<SourceParts> *sourceParts = nullptr, const std::string &temporaryBase = "tmp");
/// Whether the program is iterate(n, \x. B, A) whose step B has an
/// intermediate computed by a kernel of its own (a toGlobal).
bool iteratesStages(const Program &typedProgram);
/// Its kernels: B's stages over A, launched in order n times by the host with
/// A's buffer and the output swapped between steps (Kernel::iteration).
Kernel generateIteratedStages(const Program &typedProgram, Target target, const CodegenOptions &options,
                              std::vector<SourceParts> *sourceParts = nullptr,
                              const std::string &temporaryBase = "tmp");
/// Whether the program is iterate(m, g, iterate(n, f, A)) over an input A:
/// the lowered form of time tiles whose depth does not divide the iteration
/// count (rewrite::lowerIterate), n launches of the tile, then m of the
/// steps left.
bool iteratesInPhases(const Program &typedProgram);
/// Its kernels, every phase's in turn (generator_phases.cpp,
/// Kernel::Iteration::phases). `sourceParts` as for generateStages; the
/// temporaries' names start with `temporaryPrefix`.
Kernel generatePhases(const Program &typedProgram, Target target, const CodegenOptions &options,
                      std::vector<SourceParts> *sourceParts = nullptr, const std::string &temporaryPrefix = "");
/// The kernels a program launches in order (itself for a single kernel),
/// without source or iteration: a program of several pieces holds them all.
std::vector<Kernel> launchedKernels(const Kernel &kernel);
/// A program of several kernels made whole: its launch is its last stage's
/// (launchOfLastStage), its source the pieces in `parts`, also appended to
/// `sourceParts` when given (a piece of a larger program).
void assembleProgram(Kernel &program, Target target, const std::vector<SourceParts> &parts,
                     std::vector<SourceParts> *sourceParts);
/// The kernels of an iterate (one loop, a chain in phases, over an array or a
/// tuple of them) or of a program without one, the pieces of their source
/// appended to `parts`, temporaries named from `temporaryBase`.
Kernel generateCollectingParts(const Program &typedProgram, Target target, const CodegenOptions &options,
                               std::vector<SourceParts> &parts, const std::string &temporaryBase);
/// A program with a stage after its loop (core/ir/loop_split.h,
/// generator_loop_split.cpp): the loop's kernels, then the stage's, which
/// the host launches once after the loop (Kernel::Iteration::epilogueStages).
/// `sourceParts` as for generateStages.
Kernel generateAfterLoop(const AfterLoop &split, Target target, const CodegenOptions &options,
                         std::vector<SourceParts> *sourceParts = nullptr);
/// Whether the program is a loop (a chain of iterates) over a state computed
/// before it (lowered by rewrite::lowerBeforeLoop): not over inputs.
bool loopsOverComputedState(const Program &typedProgram);
/// Its kernels: the initial state's, launched once before the loop, then the
/// loop's over the temporaries they write (Kernel::Iteration::prologueStages).
Kernel generateBeforeLoop(const BeforeLoop &split, Target target, const CodegenOptions &options,
                          std::vector<SourceParts> *sourceParts = nullptr);

bool isCompute(const Expr &e);
/// True when writing `e` writes memory (a compute node, possibly seen through
/// join/split/transpose/layout maps).
bool producesData(const Expr &e);

} // namespace liftcc::codegen
