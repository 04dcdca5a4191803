#pragma once
// The primitive operations of the IR and their uniform description.
//
// Every primitive is one `Prim` node with four kinds of operands:
//   sizes  - symbolic integer attributes (split factor, slide size/step, ...)
//   attr   - a small integer attribute (mapGlb dimension, get index)
//   funs   - function operands (lambdas or user functions)
//   args   - data operands (arrays, tuples, scalars)
// OpInfo names each operand; those names are the JSON field names and thus
// the JSON pointers that error messages print. The list below is the single
// source of truth: the enum, the table, the flags and (in primitives/rules.cpp)
// the type rules and interpreter cases are all generated from it, so the
// reader, writer, printer, type checker and rewrite engine cannot disagree
// about the shape of a primitive. Read operands through the named accessors
// of core/ir/operands.h, never by position.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace liftcc {

/// Properties of a primitive that passes dispatch on instead of listing ops.
namespace opflag {
inline constexpr uint32_t None = 0;
inline constexpr uint32_t MapLike = 1u << 0;    ///< map and its low-level forms: f applied to each element of `in`
inline constexpr uint32_t ReduceLike = 1u << 1; ///< reduce and its low-level forms
inline constexpr uint32_t Parallel = 1u << 2;   ///< mapGlb / mapWrg / mapLcl: a map on the thread hierarchy (has `dim`)
inline constexpr uint32_t LowLevel = 1u << 3;   ///< fixes how it executes (codegen-ready); the rest is algorithmic
inline constexpr uint32_t Compute = 1u << 4;    ///< always computes values into memory (never readable as a view)
inline constexpr uint32_t View = 1u << 5;       ///< pure data layout: codegen reads through it (generator_views.cpp)
inline constexpr uint32_t LayoutOnly =
    1u << 6; ///< rearranges its one input bijectively: results can be written through it
inline constexpr uint32_t AddressSpace = 1u << 7; ///< toGlobal / toLocal / toPrivate
inline constexpr uint32_t Unrolled = 1u << 8;     ///< mapSeqUnroll / reduceSeqUnroll
} // namespace opflag

// The list is aligned by hand (one primitive per row); keep the formatter off it.
// clang-format off
// Helpers for the list: field lists are written in parentheses.
#define LIFTCC_FIELDS(...) __VA_ARGS__

// X(Enum, "json name", rules, flags, (size fields), attr kind, has pad mode, (function fields), (data fields), variadic,
//   "summary", "type scheme")
//   rules: the family rule set of primitives/<family>.cpp (type<rules> and eval<rules>, see primitives/rules.h).
//   summary, type scheme: the documentation (`liftc schema` writes docs/program.schema.json and the primitive table
//   of docs/program-format.md from them); the scheme is in RISE's one-line style, attributes first.
//   The order is the enum's order (it is also the structural hash's op code: append, never reorder).
#define LIFTCC_PRIMITIVES(X)                                                                                            \
  /* High-level (algorithmic) primitives. */                                                                            \
  X(Map, "map", Map, opflag::MapLike, (), None, false, ("f"), ("in"), false, "applies f to every element",              \
    "(T -> U) -> [T]n -> [U]n")                                                                                         \
  X(Reduce, "reduce", Reduce, opflag::ReduceLike | opflag::Compute, (), None, false, ("f"), ("init", "in"), false,      \
    "folds the elements into init with f, left to right", "((A, T) -> A) -> A -> [T]n -> [A]1")                         \
  X(Zip, "zip", Zip, opflag::View, (), None, false, (), ("in"), true,                                                   \
    "the tuples of the elements at the same index of arrays of one length",                                             \
    "([T1]n, ..., [Tk]n) -> [(T1, ..., Tk)]n")                                                                          \
  X(Split, "split", Split, opflag::View | opflag::LayoutOnly, ("n"), None, false, (), ("in"), false,                    \
    "chunks of n consecutive elements; m must be provably divisible by n", "n -> [T]m -> [[T]n](m/n)")                  \
  X(Join, "join", Join, opflag::View | opflag::LayoutOnly, (), None, false, (), ("in"), false,                          \
    "concatenates the rows", "[[T]n]m -> [T](m*n)")                                                                     \
  X(Slide, "slide", Slide, opflag::View, ("size", "step"), None, false, (), ("in"), false,                              \
    "the windows of size elements, one every step elements", "(size, step) -> [T]n -> [[T]size]((n-size+step)/step)")   \
  X(Pad, "pad", Pad, opflag::View, ("left", "right"), None, true, (), ("in"), false,                                    \
    "extends both ends by reindexing into the array (mode clamp, mirror or wrap)",                                      \
    "(left, right, mode) -> [T]n -> [T](left+n+right)")                                                                 \
  X(PadConstant, "padConstant", PadConstant, opflag::View, ("left", "right"), None, false, (), ("value", "in"), false,  \
    "extends both ends with a scalar constant", "(left, right) -> T -> [T]n -> [T](left+n+right)")                      \
  X(Transpose, "transpose", Transpose, opflag::View | opflag::LayoutOnly, (), None, false, (), ("in"), false,           \
    "swaps the two outer dimensions", "[[T]m]n -> [[T]n]m")                                                             \
  X(Iterate, "iterate", Iterate, opflag::Compute, ("n"), None, false, ("f"), ("in"), false,                             \
    "applies f n times (a host loop of kernel launches)", "n -> (T -> T) -> T -> T")                                    \
  X(At, "at", At, opflag::View, ("index"), None, false, (), ("in"), false,                                              \
    "the element at a constant index, provably in bounds", "index -> [T]n -> T")                                        \
  X(Get, "get", Get, opflag::View, (), TupleIndex, false, (), ("in"), false, "a component of a tuple",                  \
    "index -> (T0, ..., Tk) -> T_index")                                                                                \
  X(Tuple, "tuple", Tuple, opflag::View, (), None, false, (), ("in"), true, "builds a tuple",                           \
    "(T1, ..., Tk) -> (T1, ..., Tk)")                                                                                   \
  X(Generate, "generate", Generate, opflag::View, ("size"), None, false, ("f"), (), false,                              \
    "the array whose element i is f(i)", "size -> (int -> T) -> [T]size")                                               \
  X(SizeValue, "sizeValue", SizeValue, opflag::View, ("of"), None, false, (), (), false,                                \
    "the value of a size expression", "of -> int")                                                                      \
  /* Low-level (OpenCL-specific) primitives: same semantics, fixed mapping. */                                          \
  X(MapGlb, "mapGlb", Map, opflag::MapLike | opflag::Parallel | opflag::LowLevel | opflag::Compute, (), Dim, false,     \
    ("f"), ("in"), false, "map on global work-items of dimension dim (0-2, default 0)",                                 \
    "dim -> (T -> U) -> [T]n -> [U]n")                                                                                  \
  X(MapWrg, "mapWrg", Map, opflag::MapLike | opflag::Parallel | opflag::LowLevel | opflag::Compute, (), Dim, false,     \
    ("f"), ("in"), false, "map on work-groups of dimension dim (0-2, default 0)", "dim -> (T -> U) -> [T]n -> [U]n")    \
  X(MapLcl, "mapLcl", Map, opflag::MapLike | opflag::Parallel | opflag::LowLevel | opflag::Compute, (), Dim, false,     \
    ("f"), ("in"), false, "map on the local work-items of a work-group, dimension dim (0-2, default 0)",                \
    "dim -> (T -> U) -> [T]n -> [U]n")                                                                                  \
  X(MapSeq, "mapSeq", Map, opflag::MapLike | opflag::LowLevel | opflag::Compute, (), None, false, ("f"), ("in"), false, \
    "map as a sequential loop", "(T -> U) -> [T]n -> [U]n")                                                             \
  X(MapSeqUnroll, "mapSeqUnroll", Map, opflag::MapLike | opflag::LowLevel | opflag::Compute | opflag::Unrolled, (),     \
    None, false, ("f"), ("in"), false, "map as an unrolled sequential loop", "(T -> U) -> [T]n -> [U]n")                \
  X(ReduceSeq, "reduceSeq", Reduce, opflag::ReduceLike | opflag::LowLevel | opflag::Compute, (), None, false, ("f"),    \
    ("init", "in"), false, "reduce as a sequential loop", "((A, T) -> A) -> A -> [T]n -> [A]1")                         \
  X(ReduceSeqUnroll, "reduceSeqUnroll", Reduce,                                                                         \
    opflag::ReduceLike | opflag::LowLevel | opflag::Compute | opflag::Unrolled, (), None, false, ("f"),                 \
    ("init", "in"), false, "reduce as an unrolled sequential loop", "((A, T) -> A) -> A -> [T]n -> [A]1")               \
  X(ToGlobal, "toGlobal", AddressSpace, opflag::AddressSpace | opflag::LowLevel | opflag::Compute, (), None, false,     \
    ("f"), ("in"), false, "f(in), writing f's results to global memory", "(T -> U) -> T -> U")                          \
  X(ToLocal, "toLocal", AddressSpace, opflag::AddressSpace | opflag::LowLevel | opflag::Compute, (), None, false,       \
    ("f"), ("in"), false, "f(in), writing f's results to local memory", "(T -> U) -> T -> U")                           \
  X(ToPrivate, "toPrivate", AddressSpace, opflag::AddressSpace | opflag::LowLevel | opflag::Compute, (), None, false,   \
    ("f"), ("in"), false, "f(in), writing f's results to private memory", "(T -> U) -> T -> U")                         \
  /* Appended after the low-level ones: the position is the structural hash's op code. */                               \
  X(SlideSeq, "slideSeq", SlideSeq, opflag::LowLevel | opflag::Compute, ("size", "step"), None, false, ("f"), ("in"),   \
    false, "mapSeq(f, slide(size, step, in)) as a march over in, the window kept in private memory and rotated",       \
    "(size, step) -> ([T]size -> U) -> [T]n -> [U]((n-size+step)/step)")                                                \
  X(Reverse, "reverse", Reverse, opflag::View, (), None, false, (), ("in"), false, "the elements in reverse order",     \
    "[T]n -> [T]n")                                                                                                     \
  X(AsVector, "asVector", AsVector, opflag::View, ("width"), None, false, (), ("in"), false,                            \
    "groups width consecutive scalars into one vector (width 2, 4, 8 or 16; n provably divisible by it)",              \
    "width -> [T]n -> [T<width>](n/width)")                                                                             \
  X(AsScalar, "asScalar", AsScalar, opflag::View | opflag::LayoutOnly, (), None, false, (), ("in"), false,              \
    "the lanes of the vectors, in order", "[T<w>]m -> [T](m*w)")                                                        \
  X(Take, "take", Take, opflag::View, ("n"), None, false, (), ("in"), false,                                            \
    "the first n elements (writing through it drops the rest: the guard of a partial tile)", "n -> [T]m -> [T]n")    \
  X(AtDynamic, "atDynamic", AtDynamic, opflag::View, (), None, false, (), ("index", "in"), false,                       \
    "the element at a computed int index, clamped into [0, n)", "int -> [T]n -> T")
// clang-format on

enum class Op {
#define LIFTCC_OP_ENUM(e, ...) e,
  LIFTCC_PRIMITIVES(LIFTCC_OP_ENUM)
#undef LIFTCC_OP_ENUM
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
  uint32_t flags;
  std::string_view summary;    ///< one line for the documentation
  std::string_view typeScheme; ///< e.g. `(size, step) -> [T]n -> [[T]size]((n-size+step)/step)`

  bool has(uint32_t flag) const { return (flags & flag) == flag; }
};

const OpInfo &opInfo(Op op);
std::optional<Op> opByName(std::string_view name);
/// Every op, in declaration order (for listings and exhaustive tests).
const std::vector<Op> &allOps();

std::string_view padModeName(PadMode mode);
std::optional<PadMode> parsePadMode(std::string_view name);

namespace detail {
inline constexpr uint32_t kOpFlags[] = {
#define LIFTCC_OP_FLAGS(e, name, rules, flags, ...) flags,
    LIFTCC_PRIMITIVES(LIFTCC_OP_FLAGS)
#undef LIFTCC_OP_FLAGS
};
} // namespace detail

/// The flags of an op (usable in constant expressions).
constexpr uint32_t opFlags(Op op) { return detail::kOpFlags[static_cast<size_t>(op)]; }
constexpr bool hasFlag(Op op, uint32_t flag) { return (opFlags(op) & flag) == flag; }

/// map and its low-level forms.
constexpr bool isMapLike(Op op) { return hasFlag(op, opflag::MapLike); }
/// reduce and its low-level forms.
constexpr bool isReduceLike(Op op) { return hasFlag(op, opflag::ReduceLike); }
/// toGlobal / toLocal / toPrivate.
constexpr bool isAddressSpaceOp(Op op) { return hasFlag(op, opflag::AddressSpace); }

} // namespace liftcc
