#include "core/ir/op.h"

namespace liftcc {

namespace {
std::vector<OpInfo> makeTable() {
  using V = std::vector<std::string_view>;
  return {
      {Op::Map, "map", V{}, AttrKind::None, false, V{"f"}, V{"in"}, false},
      {Op::Reduce, "reduce", V{}, AttrKind::None, false, V{"f"}, V{"init", "in"}, false},
      {Op::Zip, "zip", V{}, AttrKind::None, false, V{}, V{"in"}, true},
      {Op::Split, "split", V{"n"}, AttrKind::None, false, V{}, V{"in"}, false},
      {Op::Join, "join", V{}, AttrKind::None, false, V{}, V{"in"}, false},
      {Op::Slide, "slide", V{"size", "step"}, AttrKind::None, false, V{}, V{"in"}, false},
      {Op::Pad, "pad", V{"left", "right"}, AttrKind::None, true, V{}, V{"in"}, false},
      {Op::PadConstant, "padConstant", V{"left", "right"}, AttrKind::None, false, V{}, V{"value", "in"}, false},
      {Op::Transpose, "transpose", V{}, AttrKind::None, false, V{}, V{"in"}, false},
      {Op::Iterate, "iterate", V{"n"}, AttrKind::None, false, V{"f"}, V{"in"}, false},
      {Op::At, "at", V{"index"}, AttrKind::None, false, V{}, V{"in"}, false},
      {Op::Get, "get", V{}, AttrKind::TupleIndex, false, V{}, V{"in"}, false},
      {Op::Tuple, "tuple", V{}, AttrKind::None, false, V{}, V{"in"}, true},
      {Op::Generate, "generate", V{"size"}, AttrKind::None, false, V{"f"}, V{}, false},
      {Op::SizeValue, "sizeValue", V{"of"}, AttrKind::None, false, V{}, V{}, false},
      {Op::MapGlb, "mapGlb", V{}, AttrKind::Dim, false, V{"f"}, V{"in"}, false},
      {Op::MapWrg, "mapWrg", V{}, AttrKind::Dim, false, V{"f"}, V{"in"}, false},
      {Op::MapLcl, "mapLcl", V{}, AttrKind::Dim, false, V{"f"}, V{"in"}, false},
      {Op::MapSeq, "mapSeq", V{}, AttrKind::None, false, V{"f"}, V{"in"}, false},
      {Op::MapSeqUnroll, "mapSeqUnroll", V{}, AttrKind::None, false, V{"f"}, V{"in"}, false},
      {Op::ReduceSeq, "reduceSeq", V{}, AttrKind::None, false, V{"f"}, V{"init", "in"}, false},
      {Op::ReduceSeqUnroll, "reduceSeqUnroll", V{}, AttrKind::None, false, V{"f"}, V{"init", "in"}, false},
      {Op::ToGlobal, "toGlobal", V{}, AttrKind::None, false, V{"f"}, V{"in"}, false},
      {Op::ToLocal, "toLocal", V{}, AttrKind::None, false, V{"f"}, V{"in"}, false},
      {Op::ToPrivate, "toPrivate", V{}, AttrKind::None, false, V{"f"}, V{"in"}, false},
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
  static const std::vector<Op> ops = [] {
    std::vector<Op> v;
    for (const OpInfo &info : table()) v.push_back(info.op);
    return v;
  }();
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

bool isMapLike(Op op) {
  switch (op) {
  case Op::Map: case Op::MapGlb: case Op::MapWrg: case Op::MapLcl: case Op::MapSeq: case Op::MapSeqUnroll:
    return true;
  default: return false;
  }
}

bool isReduceLike(Op op) { return op == Op::Reduce || op == Op::ReduceSeq || op == Op::ReduceSeqUnroll; }

bool isAddressSpaceOp(Op op) { return op == Op::ToGlobal || op == Op::ToLocal || op == Op::ToPrivate; }

} // namespace liftcc
