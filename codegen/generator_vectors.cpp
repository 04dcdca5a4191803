// Vectors (asVector / asScalar, lane-wise user functions): a vector read is
// one vloadN where its lanes are consecutive elements of one buffer (always
// the case in the clamp-free interior of a stencil), else its lanes gathered
// one by one; a vector write is one vstoreN, else one store per lane. vloadN
// and vstoreN need no alignment, which the index arithmetic rarely proves.
// CUDA C has no vector arithmetic: there a vector is a struct of lanes and a
// lane-wise user function calls the scalar one per lane.

#include "codegen/generator.h"
#include "codegen/global_load_counter.h"
#include "core/ir/operands.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace liftcc::codegen {

namespace {

[[noreturn]] void fail(const std::string &where, const std::string &message) { throw CodegenError(where, message); }

/// Whether the lanes are consecutive elements of one buffer, in order.
bool consecutive(const std::vector<std::optional<Lvalue>> &lanes) {
  for (size_t l = 0; l < lanes.size(); ++l) {
    if (!lanes[l] || !lanes[l]->offset || lanes[l]->buffer != lanes[0]->buffer) return false;
    arith::Expr distance = *lanes[l]->offset - *lanes[0]->offset;
    if (!distance.isConstant() || distance.constant() != static_cast<int64_t>(l)) return false;
  }
  return !lanes.empty();
}

/// CUDA: whether the lanes can be read or written as one aligned vector
/// (Dialect::alignedVectorAccess): consecutive elements of a global buffer
/// from an offset the index arithmetic proves a multiple of the width. In
/// a stencil that is the centre column and the rows above and below it; the
/// shifted columns are read lane by lane (misaligned).
bool alignedGlobalLanes(const std::vector<std::optional<Lvalue>> &lanes, int alignment) {
  if (alignment <= 0 || !consecutive(lanes)) return false;
  for (const std::optional<Lvalue> &lane : lanes)
    if (!lane->globalBuffer) return false;
  return arith::provablyDivisible(*lanes[0]->offset, arith::Expr(static_cast<int64_t>(lanes.size())));
}

/// CUDA: lanes that are consecutive elements of a global buffer from an
/// offset `shift` (1 .. width-1) past a multiple of the width: the two
/// aligned vectors around them hold them all. nullopt where that cannot be
/// proved, or where the second vector could reach past the buffer's end
/// (its element count is not provably a multiple of the width).
std::optional<int64_t> shiftFromAlignment(const std::vector<std::optional<Lvalue>> &lanes, int alignment) {
  if (alignment <= 0 || !consecutive(lanes)) return std::nullopt;
  for (const std::optional<Lvalue> &lane : lanes)
    if (!lane->globalBuffer || !lane->bufferElements) return std::nullopt;
  const arith::Expr width(static_cast<int64_t>(lanes.size()));
  if (!arith::provablyDivisible(*lanes[0]->bufferElements, width)) return std::nullopt;
  for (int64_t shift = 1; shift < width.constant(); ++shift)
    if (arith::provablyDivisible(*lanes[0]->offset - arith::Expr(shift), width)) return shift;
  return std::nullopt;
}

/// `text` with every whole word `word` replaced by `replacement`.
std::string replaceWord(const std::string &text, const std::string &word, const std::string &replacement) {
  auto isWordChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::string out;
  for (size_t i = 0; i < text.size();) {
    bool starts = text.compare(i, word.size(), word) == 0 && (i == 0 || !isWordChar(text[i - 1])) &&
                  (i + word.size() == text.size() || !isWordChar(text[i + word.size()]));
    if (starts) {
      out += replacement;
      i += word.size();
    } else {
      out += text[i++];
    }
  }
  return out;
}

} // namespace

std::string Generator::readVector(const Expr &asVector, const Env &env, const AccessPath &path,
                                  const std::string &where) {
  if (path.size() != 1 || path[0].isTuple) fail(where, "asVector: a vector is read whole (lanes cannot be selected)");
  const Type &vector = asVector.typeOrThrow().arrayElement();
  const int width = vector.vectorWidth();
  vectorTypes_.insert({vector.scalarKind(), width});
  if (vector.scalarKind() == ScalarKind::Double) usesDouble_ = true;
  std::vector<std::string> lanes;
  std::vector<std::optional<Lvalue>> cells;
  for (int l = 0; l < width; ++l) {
    lastMemoryRead_.reset();
    // Lane l of vector path[0] through asVector's index rule.
    AccessPath lane{path[0], PathStep::arrayIndex(arith::Expr(l))};
    views::Reindexed<arith::Expr> source = views::reindex(asVector, lane, views::SymbolicIndices{});
    lanes.push_back(read(inputOf(asVector), env, source.path, where + "/in"));
    // A lane is a plain buffer element when its text is exactly the last buffer read.
    cells.push_back(lastMemoryRead_ && lastMemoryRead_->text == lanes.back() ? lastMemoryRead_ : std::nullopt);
  }
  // A vector load of global memory counts its lanes (each lane read counted itself).
  auto counted = [&](std::string load) {
    return options_.countGlobalLoads && cells[0]->globalBuffer ? countedGlobalLoad(dialect_.target(), load, width)
                                                               : load;
  };
  if (dialect_.hasVectorLoads() && consecutive(cells))
    return counted("vload" + std::to_string(width) + "(0, " + cells[0]->buffer + " + (" +
                   bufferIndex(*cells[0]->offset) + "))");
  const int alignment = dialect_.vectorAlignment(vector.scalarKind(), width);
  const std::string type = dialect_.vectorType(vector.scalarKind(), width);
  if (alignedGlobalLanes(cells, alignment))
    return counted(dialect_.alignedVectorAccess(type, cells[0]->buffer, true, bufferIndex(*cells[0]->offset)));
  // A shifted tap (x-1, x+1 of a vector at x): its lanes from the aligned
  // vectors below and above, which the taps at x-W, x and x+W load too. Lane
  // by lane, each lane is a load of its own, and a warp's lanes 16 bytes
  // apart make each of them cost the L1 traffic of a whole vector load.
  // The device compiler loads each aligned vector once (the same address,
  // read-only), so the taps of a row cost three vector loads.
  if (std::optional<int64_t> shift = shiftFromAlignment(cells, alignment); shift && !options_.countGlobalLoads) {
    const arith::Expr below = *cells[0]->offset - arith::Expr(*shift);
    const std::string low = "(" + dialect_.alignedVectorAccess(type, cells[0]->buffer, true, bufferIndex(below)) + ")";
    const std::string high =
        "(" + dialect_.alignedVectorAccess(type, cells[0]->buffer, true, bufferIndex(below + arith::Expr(width))) + ")";
    std::vector<std::string> shifted;
    for (int l = 0; l < width; ++l) {
      const int64_t at = *shift + l;
      shifted.push_back(dialect_.vectorLane(at < width ? low : high, static_cast<int>(at % width)));
    }
    return dialect_.vectorOf(vector.scalarKind(), shifted);
  }
  return dialect_.vectorOf(vector.scalarKind(), lanes);
}

Lvalue Generator::vectorLvalue(const Type &argument, const AccessPath &path,
                               const std::function<Lvalue(int)> &laneTarget, const std::string &where) {
  // The type of the value at `path` of the layout's argument: a vector.
  Type t = argument;
  for (const PathStep &step : path) {
    if (step.isTuple || !t.isArray()) throw InternalError(where, "asScalar: a vector is written whole");
    t = t.arrayElement();
  }
  if (!t.isVector()) throw InternalError(where, "asScalar: writing " + t.str() + " as lanes of a vector");
  vectorTypes_.insert({t.scalarKind(), t.vectorWidth()});
  Lvalue result;
  result.vectorType = dialect_.vectorType(t.scalarKind(), t.vectorWidth());
  result.vectorAlignment = dialect_.vectorAlignment(t.scalarKind(), t.vectorWidth());
  for (int l = 0; l < t.vectorWidth(); ++l) {
    result.lanes.push_back(laneTarget(l));
    if (!result.lanes.back().lanes.empty()) throw InternalError(where, "asScalar: a lane is itself a vector");
  }
  return result;
}

void Generator::store(const Lvalue &lvalue, const std::string &value) {
  if (lvalue.lanes.empty()) {
    body_.assign(lvalue.text, value, lvalue.guard);
    return;
  }
  std::vector<std::optional<Lvalue>> cells(lvalue.lanes.begin(), lvalue.lanes.end());
  // Lanes under one guard (a partial tile's or chunk's along another
  // dimension) store together under it; lanes with guards of their own (the
  // last vector of a row, partly past its end) one by one.
  const std::string &guard = lvalue.lanes[0].guard;
  bool sharedGuard =
      std::all_of(lvalue.lanes.begin(), lvalue.lanes.end(), [&](const Lvalue &lane) { return lane.guard == guard; });
  // One store: vstoreN of consecutive lanes (OpenCL C), or one aligned
  // access (CUDA, alignedGlobalLanes; never in OpenCL C, whose alignment is 0).
  bool oneStore =
      (dialect_.hasVectorLoads() && consecutive(cells)) || alignedGlobalLanes(cells, lvalue.vectorAlignment);
  if (oneStore && sharedGuard) {
    auto vectorStore = [&] {
      body_.vectorStore({lvalue.vectorType, static_cast<int>(lvalue.lanes.size()), lvalue.lanes[0].buffer,
                         bufferIndex(*lvalue.lanes[0].offset), value});
    };
    if (guard.empty())
      vectorStore();
    else
      body_.ifThen(guard, vectorStore);
    return;
  }
  std::string v = freshName("vec");
  body_.scope([&] {
    body_.let(lvalue.vectorType, v, value);
    for (size_t l = 0; l < lvalue.lanes.size(); ++l)
      store(lvalue.lanes[l], dialect_.vectorLane(v, static_cast<int>(l)));
  });
}

std::string Generator::useVectorUserFun(const cfun::Function &f, int width) {
  auto key = std::make_pair(f.name(), width);
  auto it = vectorUserFuns_.find(key);
  if (it != vectorUserFuns_.end()) return it->second;
  vectorTypes_.insert({f.result(), width});
  std::string name = freshName(f.name() + "_v" + std::to_string(width));
  vectorUserFuns_.emplace(key, name);
  vectorUserFunOrder_.push_back(key);
  return name;
}

void Generator::recordVectorSources() {
  for (const auto &[kind, width] : vectorTypes_)
    parts_.vectorTypes.push_back(dialect_.vectorTypeDefinition(kind, width));
  for (const auto &key : vectorUserFunOrder_) {
    const auto &[scalarName, width] = key;
    const cfun::Function f = emittedUserFun(scalarName);
    // The type checker accepted it lane-wise (cfun::Function::laneWiseRefusal):
    // every parameter, local and the result have the kind of the lanes.
    const std::string scalar(scalarKindName(f.result()));
    const std::string type = dialect_.vectorType(f.result(), width);
    std::string signature = type + " " + vectorUserFuns_.at(key) + "(";
    for (size_t i = 0; i < f.params().size(); ++i) signature += (i ? ", " : "") + type + " " + f.params()[i].name;
    signature += ")";
    std::string body;
    if (dialect_.hasVectorArithmetic()) {
      // OpenCL C overloads arithmetic and the math builtins on vectors, and
      // widens scalar literals: the same body with vector declarations.
      body = replaceWord(f.body(), scalar, type);
    } else {
      std::vector<std::string> lanes;
      for (int l = 0; l < width; ++l) {
        std::string call = f.name() + "(";
        for (size_t i = 0; i < f.params().size(); ++i)
          call += (i ? ", " : "") + dialect_.vectorLane(f.params()[i].name, l);
        lanes.push_back(call + ")");
      }
      body = "return " + dialect_.vectorOf(f.result(), lanes) + ";";
    }
    std::string definition = signature + " {\n";
    std::istringstream lines(body);
    for (std::string line; std::getline(lines, line);) definition += "  " + line + "\n";
    parts_.vectorUserFuns.push_back(definition + "}\n");
  }
}

} // namespace liftcc::codegen
