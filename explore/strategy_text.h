#pragma once
// Strategies as printable, re-applicable values (issue #15 item 1): every
// configuration of the exploration space is written as the composition of
// the rules that derive its kernel, with their parameters, and the lowering
// and codegen choices, e.g.
//
//   coarsen(x=8) ; privateWindow ; mapGlb(x,y) ; wg(32,4) ; specialise ; fastMath(relaxed)
//
// Grammar (whitespace is free between tokens):
//
//   strategy := step { ";" step }
//   step     := NAME [ "(" [ arg { "," arg } ] ")" ]
//   arg      := WORD | WORD "=" WORD
//
// Steps, in this order:
//   fuse                                 (optional) multi-kernel programs: every intermediate
//                                        computable per element recomputed by its readers
//                                        instead of a kernel of its own (rewrite/stages.h)
//   timeTile(T)                          (optional) iterate(n, f, A): T steps per kernel, n/T launches
//   lowering, exactly one of
//     mapGlb(D..)                          plain: the map nest on global ids
//     tile(K) ; mapWrg(D..)                tiled: overlapped tiles of K outputs per dimension on
//                                          work-groups, their outputs on local ids (same order);
//                                          tile(X,Y[,Z]): X outputs along x, Y along y, ... (a
//                                          tile that does not divide the output: partial last tile)
//     tile(K) ; toLocal ; mapWrg(D..)      local: the same with each tile copied to local memory
//     coarsen(x=X,y=Y,z=Z) ; privateWindow|globalWindow ; mapGlb(D..)
//                                          coarsened: X*Y*Z outputs per work-item, window in
//                                          private memory or read from global memory
//     stream ; mapGlb(D..)                 2.5D streaming of the outermost dimension
//     vectorize(W) ; mapGlb(D..)           plain with W consecutive outputs along x as one vector
//     coarsen(..) ; privateWindow|globalWindow ; vectorize(W) ; mapGlb(D..)
//                                          coarsened, the outputs along x as vectors of W lanes
//   D.. lists nest dimensions (x innermost, y, z) in NDRange order: mapGlb(y,x) puts x on
//   NDRange dimension 1; dimensions left out run sequentially in a work-item (the innermost
//   ones only): mapGlb(y) is a 1D NDRange over rows (rewrite/mapping.h).
//   wg(X[,Y[,Z]])                          work-group shape (omitted: the runtime's choice)
//   specialise                             boundary specialisation
//   noinlineBorder                         (after specialise) border code calls never-inlined user functions
//   splitBorder                            (after specialise) in border work-groups, interior work-items run
//                                          the interior code
//   fastMath(mad|relaxed)                  build options (omitted: none)
//   divToMul                               divisions by constants as multiplications
//
// A strategy parses to exactly the configuration it was printed from, and
// variantFromStrategy rebuilds exactly its kernel (source and launch).

#include "core/error.h"
#include "explore/space.h"

#include <string>

namespace liftcc::explore {

/// A malformed strategy text: the message names the character position
/// (1-based) and what was expected there.
struct StrategyError : Error {
  using Error::Error;
};

/// The strategy of `configuration` whose kernel has `kernelDims` NDRange
/// dimensions (used to write out the default mapping, e.g. mapGlb(x,y)).
std::string strategyText(const Configuration &configuration, int kernelDims);
/// strategyText(variant.configuration, variant.kernel.dims).
std::string strategyText(const Variant &variant);

struct ParsedStrategy {
  Configuration configuration;
  /// Dimensions the mapping step names (an identity list such as x,y is the
  /// default mapping, which the configuration keeps empty) and where it is.
  int mappedDimensions = 0;
  size_t mappingPosition = 0;
};

/// Throws StrategyError on malformed text.
ParsedStrategy parseStrategy(const std::string &text);

/// The variant a strategy derives from the typed high-level program. Throws
/// StrategyError (malformed, or a mapping naming more or fewer dimensions than
/// the program's map nest has), rewrite::RewriteError or codegen::CodegenError
/// (the rules do not apply to this program at these sizes).
Variant variantFromStrategy(const Program &typed, const std::string &text,
                            codegen::Target target = codegen::Target::OpenCL);

/// The family a configuration belongs to: plain, tiled, local, coarsened,
/// stream, vector (vectorised plain or coarsened), or mapping (a recipe with
/// another than the default mapping).
std::string familyOf(const Configuration &configuration);

} // namespace liftcc::explore
