// Reading through views: an access path is pushed through the data-layout
// primitives down to memory, where it becomes one index expression.

#include "codegen/generator.h"
#include "codegen/global_load_counter.h"
#include "codegen/index_holes.h"
#include "core/ir/operands.h"

#include <cctype>

namespace liftcc::codegen {

namespace {

[[noreturn]] void fail(const std::string &where, const std::string &message) { throw CodegenError(where, message); }

const arith::Expr &arrayStep(const AccessPath &path, size_t i, const std::string &where, std::string_view op) {
  if (i >= path.size() || path[i].isTuple)
    fail(where, std::string(op) + ": expected an array index in the access (a whole array cannot be a scalar operand)");
  return path[i].index;
}

AccessPath dropFront(const AccessPath &path, size_t n) {
  return AccessPath(path.begin() + static_cast<std::ptrdiff_t>(n), path.end());
}

const Type &typeOf(const Expr &e) { return e.typeOrThrow(); }

} // namespace

std::string Generator::read(const Expr &e, const Env &env, const AccessPath &path, const std::string &where) {
  switch (e.kind()) {
  case ExprKind::Param: return readParam(e, env, path, where);
  case ExprKind::Literal:
    if (!path.empty()) fail(where, "cannot index into a scalar literal");
    if (e.literal().kind() == ScalarKind::Double) usesDouble_ = true;
    return toCLiteral(e.literal());
  case ExprKind::Apply: {
    const Expr &f = e.fun();
    if (f.is(ExprKind::UserFun)) {
      if (!path.empty())
        fail(where, "cannot index into the scalar result of user function '" + f.userFun().name() + "'");
      std::vector<std::string> args;
      size_t bytes = 0;
      for (size_t i = 0; i < e.args().size(); ++i) {
        args.push_back(read(e.args()[i], env, {}, where + "/args/" + std::to_string(i)));
        // Checked as the arguments grow: a fused step of a 729-point stencil
        // would otherwise build all 729 recomputed neighbours (16 MB of text
        // and half a million index expressions, 18 s) before the call's check.
        bytes += args.back().size() + 2;
        checkExpressionSize(bytes);
      }
      return callUserFun(f, args, e.typeOrThrow());
    }
    if (!f.is(ExprKind::Lambda)) fail(where + "/apply", "only lambdas and user functions can be applied");
    Env inner = env;
    for (size_t i = 0; i < f.params().size(); ++i) {
      if (isCompute(e.args()[i]))
        fail(where + "/args/" + std::to_string(i), "this argument computes an array and must be materialised first "
                                                   "(e.g. with toLocal or toPrivate) where it is consumed");
      inner = inner.bind(f.params()[i], ViewBinding{e.args()[i], share(env), {}});
    }
    return read(f.body(), inner, path, where + "/apply/body");
  }
  case ExprKind::Prim: return readPrim(e, env, path, where);
  case ExprKind::Lambda:
  case ExprKind::UserFun: fail(where, "a function is not a value that can be read");
  }
  fail(where, "unexpected expression");
}

std::string Generator::readParam(const Expr &param, const Env &env, const AccessPath &path, const std::string &where) {
  const Binding *b = env.lookup(param);
  if (!b) throw InternalError(where, "parameter '" + param.name() + "' is not bound");
  return std::visit(
      [&](const auto &binding) -> std::string {
        using B = std::decay_t<decltype(binding)>;
        if constexpr (std::is_same_v<B, ViewBinding>) {
          return read(binding.expr, *binding.env, concat(binding.prefix, path), where);
        } else if constexpr (std::is_same_v<B, MemoryBinding>) {
          return readMemory(binding, path, where);
        } else if constexpr (std::is_same_v<B, RingBinding>) {
          return readRing(binding, path, where);
        } else if constexpr (std::is_same_v<B, ScalarBinding>) {
          if (!path.empty()) fail(where, "cannot index into the scalar '" + param.name() + "'");
          return binding.name;
        } else {
          if (!path.empty()) fail(where, "cannot index into the index '" + param.name() + "'");
          return "(" + index(binding.value) + ")";
        }
      },
      *b);
}

std::string Generator::readMemory(const MemoryBinding &memory, const AccessPath &path, const std::string &where) {
  arith::Expr offset = linearize(memory.type, path, where);
  std::string text = memory.name + "[" + bufferIndex(offset) + "]";
  if (options_.countGlobalLoads && memory.space == AddressSpace::Global)
    text = countedGlobalLoad(dialect_.target(), text, 1);
  lastMemoryRead_ = bufferElement(text, memory.name, offset, memory.space);
  if (memory.space == AddressSpace::Global) lastMemoryRead_->bufferElements = elementCount(memory.type);
  return text;
}

std::string Generator::readPrim(const Expr &e, const Env &env, const AccessPath &path, const std::string &where) {
  const std::string name(e.info().name);
  if (e.info().has(opflag::Compute))
    fail(where, name + " computes an array that is read here; materialise it first (e.g. toLocal or toPrivate) "
                       "outside the loop that reads it");
  switch (views::indexRule(e.op()).kind) {
  case views::RuleKind::Reindex: return readThrough(e, env, path, where);
  case views::RuleKind::Function: return readFunction(e, env, path, where);
  case views::RuleKind::Scalar:
    if (!path.empty()) fail(where, name + " is a scalar");
    return "(" + index(sizeValueOf(e)) + ")";
  case views::RuleKind::DataIndex: return readDataIndex(e, env, path, where);
  case views::RuleKind::Computed: break;
  }
  throw InternalError(where,
                      "no view rule for primitive " + name + " (its table row says it is not a compute primitive)");
}

std::string Generator::readThrough(const Expr &e, const Env &env, const AccessPath &path, const std::string &where) {
  const std::string name(e.info().name);
  if (e.isPrim(Op::AsVector)) return readVector(e, env, path, where);
  if (e.isPrim(Op::AsScalar))
    fail(where, "asScalar: reading scalars out of vectors is not supported (write results through it, or read "
                "the array before asVector)");
  if (std::optional<size_t> missing = views::missingStep(e.op(), path)) {
    if (views::indexRule(e.op()).tupleStep[*missing])
      fail(where, e.isPrim(Op::Zip) ? "zip: an element of a zip is a tuple; select a component with get"
                                    : name + ": select a component with get");
    arrayStep(path, *missing, where, name); // fails: an array index is missing
  }
  views::Reindexed<arith::Expr> source = views::reindex(e, path, views::SymbolicIndices{});
  const Expr &operand = e.args().at(source.operand);
  const std::string operandWhere = where + argPath(e, source.operand);
  if (!source.boundary) return read(operand, env, source.path, operandWhere);
  const views::Boundary<arith::Expr> &boundary = *source.boundary;
  const arith::Expr &shifted = boundary.index, &n = boundary.length;
  if (!boundary.constant) {
    // Where the ranges prove the index inside, wrap's modulos go as well
    // (the simplifier keeps ((i % n) + n) % n); only when specialising, so
    // that default kernels stay as they were.
    bool inside =
        options_.specialiseBoundaries && arith::provablyNonNegative(shifted) && arith::provablyLess(shifted, n);
    if (inside) source.path.front().index = shifted;
    if (source.path.front().index != shifted) boundaryFacts_.reads.push_back({shifted, n, source.path.front().index});
    return read(operand, env, source.path, operandWhere);
  }
  std::string inside = read(operand, env, source.path, operandWhere);
  // The bounds check is emitted only where the ranges cannot prove it.
  bool lowOk = arith::provablyNonNegative(shifted), highOk = arith::provablyLess(shifted, n);
  if (lowOk && highOk) return inside;
  boundaryFacts_.reads.push_back({shifted, n, std::nullopt});
  std::string value = read(padValue(e), env, {}, where + "/value");
  std::string cond;
  if (!lowOk) cond += "0 <= " + index(shifted);
  if (!highOk) cond += (cond.empty() ? "" : " && ") + index(shifted) + " < " + index(n);
  return "(" + cond + " ? " + inside + " : " + value + ")";
}

std::string Generator::readFunction(const Expr &e, const Env &env, const AccessPath &path, const std::string &where) {
  const std::string name(e.info().name);
  const arith::Expr &i = arrayStep(path, 0, where, name);
  const Expr &f = funOf(e);
  if (f.is(ExprKind::UserFun) && path.size() != 1)
    fail(where, "cannot index into the scalar result of user function '" + f.userFun().name() + "'");
  if (e.isPrim(Op::Generate)) { // element i is f(i)
    if (f.is(ExprKind::UserFun)) return callUserFun(f, {"(" + index(i) + ")"}, typeOf(e).arrayElement());
    Env inner = env.bind(f.params().front(), IndexBinding{i});
    return read(f.body(), inner, dropFront(path, 1), where + "/f/body");
  }
  // map: element i is f(in[i])
  if (f.is(ExprKind::UserFun))
    return callUserFun(f, {read(inputOf(e), env, {PathStep::arrayIndex(i)}, where + "/in")}, typeOf(e).arrayElement());
  if (isCompute(f.body()))
    fail(where + "/f", "map computes an array here: lower it to mapGlb, mapWrg/mapLcl or mapSeq");
  Env inner = env.bind(f.params().front(), ViewBinding{inputOf(e), share(env), {PathStep::arrayIndex(i)}});
  return read(f.body(), inner, dropFront(path, 1), where + "/f/body");
}

std::string Generator::readDataIndex(const Expr &e, const Env &env, const AccessPath &path, const std::string &where) {
  const arith::Expr n = typeOf(inputOf(e)).arrayLength();
  arith::Expr index = dynamicIndex(dynamicIndexOf(e), env, where + "/index");
  // Clamped as the interpreter clamps; the simplifier drops the bounds that
  // the index's range proves (generate's index, a clamped position).
  AccessPath into{PathStep::arrayIndex(arith::simplify(arith::min(arith::max(index, 0), n - 1)))};
  into.insert(into.end(), path.begin(), path.end());
  return read(inputOf(e), env, into, where + "/in");
}

arith::Expr Generator::dynamicIndex(const Expr &operand, const Env &env, const std::string &where) {
  if (operand.is(ExprKind::Param))
    if (const Binding *b = env.lookup(operand))
      if (const auto *index = std::get_if<IndexBinding>(b)) return index->value;
  // Index arithmetic where the operand is (an affine function of indices).
  if (std::optional<arith::Expr> value = indexValue(operand, env, {})) return arith::simplify(*value);
  std::string text = read(operand, env, {}, where);
  // The operand is an int: its value, whatever the text computes, is within
  // int's range, which the index width analysis needs to know.
  std::string spelled = kir::spellHoles(text);
  std::string name = "(" + spelled + ")";
  // Named like any index (evaluated once, before its statement) only where
  // evaluating it early is harmless: it reads no memory (no subscript: an
  // element read need not carry an index hole) and calls no user function
  // that divides (arith's own divisions are by positive constants).
  if (spelled.find('[') != std::string::npos || callsDividingUserFun(spelled)) opaqueIndices_.insert(name);
  return arith::Expr::var(name,
                          arith::Range::between(arith::Expr(int64_t(INT32_MIN)), arith::Expr(int64_t(INT32_MAX))));
}

bool Generator::callsDividingUserFun(const std::string &text) const {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = 0; at < text.size();) {
    if (!word(text[at])) {
      ++at;
      continue;
    }
    size_t end = at;
    while (end < text.size() && word(text[end])) ++end;
    auto f = userFuns_.find(text.substr(at, end - at));
    if (f != userFuns_.end() && f->second.body().find_first_of("/%") != std::string::npos) return true;
    at = end;
  }
  return false;
}

std::string Generator::callUserFun(const Expr &f, const std::vector<std::string> &args, const Type &result) {
  useUserFun(f.userFun());
  std::string name = result.isVector() ? useVectorUserFun(f.userFun(), result.vectorWidth()) : f.userFun().name();
  std::string call = name + "(";
  for (size_t i = 0; i < args.size(); ++i) call += (i ? ", " : "") + args[i];
  // Fusion and time tiles inline a producer at every read of its result, so
  // each fused step multiplies the expression by the taps of its window:
  // 5 steps of a 5-point stencil made one 39 MB line (and a PoCL build that
  // never ended). Refuse long before that, while the text is still small.
  checkExpressionSize(call.size());
  return call + ")";
}

void Generator::checkExpressionSize(size_t bytes) {
  if (bytes > kir::kMaxExpressionBytes) throw CodegenError("", kir::expressionTooLongMessage());
}

arith::Expr Generator::linearize(const Type &type, const AccessPath &path, const std::string &where) const {
  arith::Expr offset(0);
  Type t = type;
  for (const PathStep &step : path) {
    if (step.isTuple || !t.isArray())
      throw InternalError(where, "access path does not match the buffer type " + type.str());
    offset = offset * t.arrayLength() + step.index;
    t = t.arrayElement();
  }
  if (!t.isScalar()) fail(where, "a value of type " + t.str() + " is used where a scalar is needed");
  return offset;
}

} // namespace liftcc::codegen
