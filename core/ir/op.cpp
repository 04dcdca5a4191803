#include "core/ir/op.h"

#include <iterator>

namespace liftcc {

namespace {

// The table's rows come from the same list as the enum; this check makes the
// correspondence a compile-time fact (row i describes Op(i)), so no runtime
// test has to keep rows in order.
constexpr Op kRowOrder[] = {
#define LIFTCC_OP_ROW_ORDER(e, ...) Op::e,
    LIFTCC_PRIMITIVES(LIFTCC_OP_ROW_ORDER)
#undef LIFTCC_OP_ROW_ORDER
};
constexpr bool rowsInEnumOrder() {
  for (size_t i = 0; i < std::size(kRowOrder); ++i)
    if (kRowOrder[i] != static_cast<Op>(i)) return false;
  return true;
}
static_assert(rowsInEnumOrder(), "the primitive table must list the ops in enum order");
static_assert(std::size(kRowOrder) == std::size(detail::kOpFlags));

std::vector<OpInfo> makeTable() {
  using V = std::vector<std::string_view>;
  return {
// clang-format off
#define LIFTCC_OP_ROW(e, name, rules, flags, sizes, attr, padMode, funs, args, variadic, summary, scheme)               \
  {Op::e, name, V{LIFTCC_FIELDS sizes}, AttrKind::attr, padMode, V{LIFTCC_FIELDS funs}, V{LIFTCC_FIELDS args},          \
   variadic, flags, summary, scheme},
      LIFTCC_PRIMITIVES(LIFTCC_OP_ROW)
#undef LIFTCC_OP_ROW
      // clang-format on
  };
}

const std::vector<OpInfo> &table() {
  // Immutable after initialisation; indexed by the enum value.
  static const std::vector<OpInfo> infos = makeTable();
  return infos;
}
} // namespace

const OpInfo &opInfo(Op op) { return table()[static_cast<size_t>(op)]; }

std::optional<Op> opByName(std::string_view name) {
  for (const OpInfo &info : table())
    if (info.name == name) return info.op;
  return std::nullopt;
}

const std::vector<Op> &allOps() {
  static const std::vector<Op> ops(std::begin(kRowOrder), std::end(kRowOrder));
  return ops;
}

std::string_view padModeName(PadMode mode) {
  switch (mode) {
  case PadMode::Clamp: return "clamp";
  case PadMode::Mirror: return "mirror";
  case PadMode::Wrap: return "wrap";
  }
  return "?";
}

std::optional<PadMode> parsePadMode(std::string_view name) {
  for (PadMode m : {PadMode::Clamp, PadMode::Mirror, PadMode::Wrap})
    if (padModeName(m) == name) return m;
  return std::nullopt;
}

} // namespace liftcc
