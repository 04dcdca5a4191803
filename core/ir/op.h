#pragma once
// The primitive operations of the IR and their uniform description.
//
// Every primitive is one `Prim` node with four kinds of operands:
//   sizes  - symbolic integer attributes (split factor, slide size/step, ...)
//   attr   - a small integer attribute (mapGlb dimension, get index)
//   funs   - function operands (lambdas or user functions)
//   args   - data operands (arrays, tuples, scalars)
// OpInfo names each operand; those names are the JSON field names and thus
// the JSON pointers that error messages print. Keeping this one table as the
// single source of truth means the reader, writer, printer, type checker and
// rewrite engine cannot disagree about the shape of a primitive.

#include <optional>
#include <string_view>
#include <vector>

namespace liftcc {

enum class Op {
  // High-level (algorithmic) primitives.
  Map, Reduce, Zip, Split, Join, Slide, Pad, PadConstant, Transpose, Iterate, At, Get, Tuple, Generate, SizeValue,
  // Low-level (OpenCL-specific) primitives: same semantics, fixed mapping.
  MapGlb, MapWrg, MapLcl, MapSeq, MapSeqUnroll, ReduceSeq, ReduceSeqUnroll, ToGlobal, ToLocal, ToPrivate,
};

/// Reindexing boundary handling of `pad`.
enum class PadMode { Clamp, Mirror, Wrap };

enum class AttrKind { None, Dim, TupleIndex };

struct OpInfo {
  Op op;
  std::string_view name;
  std::vector<std::string_view> sizeFields;
  AttrKind attr;
  bool hasPadMode;
  std::vector<std::string_view> funFields;
  /// Data operand names; when `variadicArgs`, a single field holding a list.
  std::vector<std::string_view> argFields;
  bool variadicArgs;
};

const OpInfo &opInfo(Op op);
std::optional<Op> opByName(std::string_view name);
/// Every op, in declaration order (for listings and exhaustive tests).
const std::vector<Op> &allOps();

std::string_view padModeName(PadMode mode);
std::optional<PadMode> parsePadMode(std::string_view name);

/// map and its low-level forms.
bool isMapLike(Op op);
/// reduce and its low-level forms.
bool isReduceLike(Op op);
/// toGlobal / toLocal / toPrivate.
bool isAddressSpaceOp(Op op);

} // namespace liftcc
